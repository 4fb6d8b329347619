// The public reception routes (issue 18, task R): each CodigoMotivoNoRecibido, the signer recorded,
// BOM-prefixed and foreign-CA documents, duplicates (and a race), the seed → token → bearer flow,
// the 10-year retention, the ARECF checked against the official XSD and by xmlsec1, received ACECF
// with their correspondence, and hostile input (sizes, DTDs, nesting, chunked, floods). Real database.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { loadXsdValidators } from '@ecf/config';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import {
  buildAcecfXml,
  createTestCertificate,
  loadCertificate,
  signForeignXml,
  signXml,
  verifyXmlSignature,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { buildXmlMultipart, receptionUrlOf } from '@ecf/taxauth-client';
import { startTestApi, TEST_XSD_DIRECTORY, type TTestApi } from '../../test/test-api.ts';
import { createAddressRateLimiter, rewriteReceptionUrl } from './reception.ts';

let api: TTestApi;
let xsd: TXsdValidators;
let directory: string;
const certificates = new Map<string, { signing: TSigningCertificate; pem: string }>();

function certificateOf(rnc: string) {
  const cached = certificates.get(rnc);
  if (cached) return cached;
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate');
  const entry = { signing: loaded.data, pem: generated.certificatePem };
  certificates.set(rnc, entry);
  return entry;
}

let buyer: { id: string; rnc: string };
let supplierRnc: string;

before(async () => {
  api = await startTestApi({ RECEPTION_RATE_LIMIT_PER_MINUTE: '100000' }, undefined, {
    loadCertificate: async (tenantId: string) => {
      const tenant = await api.database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
      return certificateOf(tenant.rnc).signing;
    },
  });
  xsd = await loadXsdValidators(TEST_XSD_DIRECTORY);
  directory = mkdtempSync(join(tmpdir(), 'reception-'));
  buyer = await seedTenant(api.database);
  supplierRnc = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
});
after(async () => {
  await api?.close();
  xsd?.dispose();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

let sequence = 0;
function newEncf(type = '31'): string {
  sequence += 1;
  return `E${type}${String(randomInt(1, 1_000_000_000) * 10 + (sequence % 10)).padStart(10, '0')}`;
}

/** A canonical e-CF (31 or 32) from the supplier to `buyerRnc`, 2 lines of 100.00 + 18 % ITBIS. */
function ecfXml(options: { encf: string; buyerRnc: string; issuer?: string; root?: string }): string {
  const type = options.encf.slice(1, 3);
  let items = '';
  for (let line = 1; line <= 2; line += 1)
    items +=
      `<Item><NumeroLinea>${line}</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion>` +
      `<NombreItem>Artículo ${line}</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>` +
      `<CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item>`;
  const vencimiento =
    type === '32' ? '' : '<FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>';
  return (
    `${options.root ?? '<ECF>'}<Encabezado><Version>1.0</Version>` +
    `<IdDoc><TipoeCF>${type}</TipoeCF><eNCF>${options.encf}</eNCF>${vencimiento}` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${options.issuer ?? supplierRnc}</RNCEmisor><RazonSocialEmisor>Suplidor &amp; Cía, S.R.L.</RazonSocialEmisor>` +
    `<DireccionEmisor>Av. Winston Churchill 1099</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>` +
    `<Comprador><RNCComprador>${options.buyerRnc}</RNCComprador><RazonSocialComprador>Cliente, S.A.</RazonSocialComprador></Comprador>` +
    '<Totales><MontoGravadoTotal>200.00</MontoGravadoTotal><MontoGravadoI1>200.00</MontoGravadoI1><ITBIS1>18</ITBIS1>' +
    '<TotalITBIS>36.00</TotalITBIS><TotalITBIS1>36.00</TotalITBIS1><MontoTotal>236.00</MontoTotal></Totales></Encabezado>' +
    `<DetallesItems>${items}</DetallesItems><FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>`
  );
}

function signedEcf(options: { encf?: string; buyerRnc?: string; signer?: string } = {}) {
  const encf = options.encf ?? newEncf();
  const xml = signXml(
    ecfXml({ encf, buyerRnc: options.buyerRnc ?? buyer.rnc }),
    certificateOf(options.signer ?? supplierRnc).signing,
  ).xml;
  return { encf, xml };
}

function multipartOf(content: string | Buffer, fileName = 'document.xml', field = 'xml') {
  const boundary = `----reception${randomInt(0, 1e9)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: text/xml\r\n\r\n`,
    ),
    typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function deliver(
  content: string | Buffer,
  options: { url?: string; headers?: Record<string, string>; fileName?: string } = {},
) {
  const { body, contentType } = multipartOf(content, options.fileName);
  return api.app.inject({
    method: 'POST',
    url: options.url ?? '/fe/recepcion/api/ecf',
    headers: { 'content-type': contentType, ...options.headers },
    payload: body,
  });
}

type TInboundRow = {
  id: string;
  environment: string;
  status: string;
  not_received_code: number | null;
  xml_artifact_id: string | null;
  acknowledgement_artifact_id: string | null;
  signer: { holderId: string | null; matchesIssuer: boolean } | null;
  approval_deadline: string | null;
  received_at: Date;
  file_name: string | null;
  decision: string | null;
  document_id: string | null;
  correspondence: { result: string; mismatches: Array<{ field: string }> } | null;
};

async function inboundRows(encf: string): Promise<TInboundRow[]> {
  const { rows } = await sqlPoolOf(api.database).query<TInboundRow>(
    `SELECT id, environment, status, not_received_code, xml_artifact_id, acknowledgement_artifact_id, signer,
            to_char(approval_deadline, 'YYYY-MM-DD') AS approval_deadline, received_at, file_name, decision,
            document_id, correspondence
       FROM inbound_documents WHERE encf = $1 ORDER BY received_at, id`,
    [encf],
  );
  return rows;
}

type TArtifactRow = { content: Buffer; sha256: string; kind: string; retain_until: Date; created_at: Date };

async function artifact(id: string): Promise<TArtifactRow> {
  const { rows } = await sqlPoolOf(api.database).query<TArtifactRow>(
    'SELECT content, sha256, kind, retain_until, created_at FROM artifacts WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

type TRefusalRow = {
  kind: string;
  not_received_code: number | null;
  sha256: string;
  size_bytes: number;
  source_address: string | null;
  answer: Buffer | null;
  received_at: Date;
  retain_until: Date;
};

/** The compact records of deliveries whose signature was not verified (issue 25). */
async function refusalRows(encf: string): Promise<TRefusalRow[]> {
  const { rows } = await sqlPoolOf(api.database).query<TRefusalRow>(
    `SELECT kind, not_received_code, sha256, size_bytes, source_address, answer, received_at, retain_until
       FROM inbound_refusals WHERE encf = $1 ORDER BY received_at`,
    [encf],
  );
  return rows;
}

async function inboundCount(): Promise<number> {
  const { rows } = await sqlPoolOf(api.database).query<{ count: string }>(
    'SELECT count(*) AS count FROM inbound_documents',
  );
  return Number(rows[0]!.count);
}

function estadoOf(arecf: string): { estado: string; motivo: string | undefined } {
  return {
    estado: /<Estado>(\d)<\/Estado>/.exec(arecf)?.[1] ?? '',
    motivo: /<CodigoMotivoNoRecibido>(\d)<\/CodigoMotivoNoRecibido>/.exec(arecf)?.[1],
  };
}

function xmlsecVerify(xml: string, trustedPem: string): boolean {
  const documentPath = join(directory, `arecf-${randomInt(0, 1e9)}.xml`);
  const trustedPath = join(directory, `trusted-${randomInt(0, 1e9)}.pem`);
  writeFileSync(documentPath, xml);
  writeFileSync(trustedPath, trustedPem);
  const run = spawnSync(
    process.env['XMLSEC1'] ?? 'xmlsec1',
    [
      '--verify',
      '--trusted-pem',
      trustedPath,
      '--verification-gmt-time',
      '2027-06-01 12:00:00',
      documentPath,
    ],
    { encoding: 'utf8' },
  );
  if (run.error !== undefined) throw new Error(`xmlsec1 could not be run: ${run.error.message}`);
  return run.status === 0 && /^OK$/m.test(`${run.stdout}${run.stderr}`);
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string; details: Record<string, unknown> } }).error;

describe('e-CF reception: ARECF and what is stored', () => {
  test('received: signed ARECF Estado 0 (XSD, xmlsec1), bytes kept exactly for 10 years, job enqueued', async () => {
    const { encf, xml } = signedEcf();
    const response = await deliver(xml, { fileName: `${supplierRnc}${encf}.xml` });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers['content-type']), /application\/xml/);
    const arecf = response.body;
    assert.deepEqual(estadoOf(arecf), { estado: '0', motivo: undefined });
    assert.ok(
      arecf.includes(
        `<RNCEmisor>${supplierRnc}</RNCEmisor><RNCComprador>${buyer.rnc}</RNCComprador><eNCF>${encf}</eNCF>`,
      ),
    );
    const schema = xsd.validateXml(arecf, 'ARECF');
    assert.ok(schema.success, JSON.stringify(schema));
    const signature = verifyXmlSignature(arecf);
    assert.ok(signature.valid);
    assert.equal(signature.certificate.holderId, buyer.rnc);
    assert.ok(xmlsecVerify(arecf, certificateOf(buyer.rnc).pem), 'xmlsec1 verifies the ARECF');

    const [row] = await inboundRows(encf);
    assert.ok(row);
    assert.equal(row.status, 'received');
    assert.equal(row.environment, 'TesteCF');
    assert.equal(row.approval_deadline, '2026-05-15');
    assert.equal(row.file_name, `${supplierRnc}${encf}.xml`);
    assert.equal(row.signer?.holderId, supplierRnc);
    assert.equal(row.signer?.matchesIssuer, true);
    const kept = await artifact(row.xml_artifact_id!);
    assert.equal(kept.kind, 'received_xml');
    assert.equal(kept.sha256, createHash('sha256').update(xml, 'utf8').digest('hex'));
    assert.equal(kept.content.toString('utf8'), xml);
    const acknowledgement = await artifact(row.acknowledgement_artifact_id!);
    assert.equal(acknowledgement.kind, 'receiver_acknowledgement');
    assert.equal(acknowledgement.content.toString('utf8'), arecf, 'the ARECF answered is the one stored');
    for (const stored of [kept, acknowledgement]) {
      const expected: Date = new Date(row.received_at);
      expected.setUTCFullYear(expected.getUTCFullYear() + 10);
      assert.equal(stored.retain_until.toISOString(), expected.toISOString(), 'kept 10 years');
    }
    const jobs = await sqlPoolOf(api.database).query<{ name: string }>(
      `SELECT name FROM pgboss.job WHERE name = 'inbound.check-validity' AND data->>'inboundDocumentId' = $1`,
      [row.id],
    );
    assert.equal(jobs.rowCount, 1, 'the validity check is enqueued with the reception');
  });

  test('BOM, XML declaration, xmlns:xsi, another CA and a holder that is not RNCEmisor: received, holder recorded', async () => {
    const encf = newEncf();
    const delegate = '00112345678';
    const foreign = signForeignXml(
      ecfXml({
        encf,
        buyerRnc: buyer.rnc,
        root: '<ECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">',
      }),
      certificateOf(delegate).signing,
    );
    assert.ok(foreign.success);
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\r\n${foreign.data.xml}`, 'utf8'),
    ]);
    const response = await deliver(bytes);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(estadoOf(response.body), { estado: '0', motivo: undefined });
    const [row] = await inboundRows(encf);
    assert.equal(row?.status, 'received');
    assert.equal(row?.signer?.holderId, delegate);
    assert.equal(row?.signer?.matchesIssuer, false);
    const kept = await artifact(row.xml_artifact_id as string);
    assert.ok(kept.content.equals(bytes), 'bytes exactly as received, BOM included');
    assert.equal(kept.sha256, createHash('sha256').update(bytes).digest('hex'));
  });

  test('motivo 2: a tampered byte is not received; only a compact record is kept, 90 days, no artifact', async () => {
    const { encf, xml } = signedEcf();
    const tampered = xml.replace('<MontoTotal>236.00', '<MontoTotal>236.01');
    const artifactsBefore = await api.database.artifact.count();
    const response = await deliver(tampered);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(estadoOf(response.body), { estado: '1', motivo: '2' });
    assert.ok(verifyXmlSignature(response.body).valid, 'the refusal is signed (within the sender bound)');
    assert.deepEqual(await inboundRows(encf), [], 'no inbound_documents row');
    assert.equal(await api.database.artifact.count(), artifactsBefore, 'no write-once artifact');
    const [record] = await refusalRows(encf);
    assert.ok(record);
    assert.equal(record.kind, 'ecf');
    assert.equal(record.not_received_code, 2);
    assert.equal(record.sha256, createHash('sha256').update(tampered, 'utf8').digest('hex'));
    assert.equal(record.size_bytes, Buffer.byteLength(tampered));
    assert.equal(record.answer?.toString('utf8'), response.body, 'the ARECF answered is the one recorded');
    assert.equal(record.retain_until.getTime() - record.received_at.getTime(), 90 * 24 * 3600_000);
  });

  test('motivo 1: a type never exchanged (32) and an XSD failure', async () => {
    const e32 = signedEcf({ encf: newEncf('32') });
    const response = await deliver(e32.xml);
    assert.deepEqual(estadoOf(response.body), { estado: '1', motivo: '1' });
    const [row] = await inboundRows(e32.encf);
    assert.equal(row?.not_received_code, 1);
    assert.ok(row?.xml_artifact_id, 'a verified copy may be kept for motivo 1');

    const encf = newEncf();
    const invalid = signXml(
      ecfXml({ encf, buyerRnc: buyer.rnc }).replace('<TipoIngresos>01</TipoIngresos>', ''),
      certificateOf(supplierRnc).signing,
    ).xml;
    const refused = await deliver(invalid);
    assert.deepEqual(estadoOf(refused.body), { estado: '1', motivo: '1' });
    // Its XSD failed first: the signature is never verified, so it is kept as an unverified one.
    assert.deepEqual(await inboundRows(encf), []);
    assert.equal((await refusalRows(encf))[0]?.not_received_code, 1);
  });

  test('motivo 3: a redelivery is a duplicate, answered with its own ARECF; a race receives exactly one', async () => {
    const { encf, xml } = signedEcf();
    const first = await deliver(xml);
    assert.deepEqual(estadoOf(first.body), { estado: '0', motivo: undefined });
    const second = await deliver(xml);
    assert.deepEqual(estadoOf(second.body), { estado: '1', motivo: '3' });
    const rows = await inboundRows(encf);
    assert.deepEqual(
      rows.map((row) => [row.status, row.not_received_code]),
      [
        ['received', null],
        ['not_received', 3],
      ],
    );

    const racing = signedEcf();
    const answers = await Promise.all([deliver(racing.xml), deliver(racing.xml), deliver(racing.xml)]);
    const estados = answers.map((answer) => estadoOf(answer.body).estado).sort();
    assert.deepEqual(estados, ['0', '1', '1']);
    const raced = await inboundRows(racing.encf);
    assert.equal(raced.filter((row) => row.status === 'received').length, 1);
    assert.equal(raced.filter((row) => row.not_received_code === 3).length, 2);
  });

  test('motivo 4: a buyer that is not a tenant of ours gets an unsigned ARECF, nothing stored', async () => {
    const before = await inboundCount();
    const { xml } = signedEcf({ buyerRnc: '131000009' });
    const response = await deliver(xml);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(estadoOf(response.body), { estado: '1', motivo: '4' });
    assert.ok(!response.body.includes('<Signature'), 'no certificate of ours for that RNC');
    assert.equal(await inboundCount(), before);
  });

  test('paths are case-insensitive; the environment prefix selects the environment; receptionUrlOf fits', async () => {
    const { encf, xml } = signedEcf();
    const url = receptionUrlOf('https://ecf.example.com/CerteCF')!;
    assert.equal(url.pathname, '/CerteCF/fe/recepcion/api/ecf');
    const response = await deliver(xml, { url: '/certecf/FE/Recepcion/API/ECF' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(estadoOf(response.body), { estado: '0', motivo: undefined });
    assert.equal((await inboundRows(encf))[0]?.environment, 'CerteCF');
    assert.equal(
      rewriteReceptionUrl('/FE/AUTENTICACION/API/Semilla/?x=1', 'TesteCF'),
      '/TesteCF/fe/autenticacion/api/semilla?x=1',
    );
    assert.equal(rewriteReceptionUrl('/ECF/fe/recepcion/api/ecf', 'TesteCF'), '/eCF/fe/recepcion/api/ecf');
    assert.equal(rewriteReceptionUrl('/testecf/documentos-ecf', 'TesteCF'), '/testecf/documentos-ecf');
    const unknown = await deliver(xml, { url: '/Produccion/fe/recepcion/api/ecf' });
    assert.equal(unknown.statusCode, 404);
  });
});

describe('authentication: seed → signed seed → token → bearer', () => {
  let guarded: { id: string; rnc: string };
  before(async () => {
    guarded = await seedTenant(api.database);
    await api.database.tenant.update({ where: { id: guarded.id }, data: { receptionAuthentication: true } });
  });

  async function tokenFor(signer: string): Promise<{ token: string; seedXml: string; signedSeed: string }> {
    const seed = await api.app.inject({ method: 'GET', url: '/FE/Autenticacion/Api/Semilla' });
    assert.equal(seed.statusCode, 200);
    assert.match(seed.body, /^<\?xml[^>]*\?><SemillaModel[^>]*><valor>[A-Za-z0-9+/=]{64}<\/valor><fecha>/);
    const signed = signForeignXml(seed.body, certificateOf(signer).signing);
    assert.ok(signed.success);
    const validation = await deliver(signed.data.xml, {
      url: '/fe/autenticacion/api/validacioncertificado',
      fileName: 'semilla.xml',
    });
    assert.equal(validation.statusCode, 200, validation.body);
    const answer = JSON.parse(validation.body) as { token: string; expira: string; expedido: string };
    assert.match(answer.expira, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.match(answer.expedido, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(Date.parse(answer.expira) - Date.parse(answer.expedido), 3600_000);
    return { token: answer.token, seedXml: seed.body, signedSeed: signed.data.xml };
  }

  test('missing bearer: 401, nothing stored; a token from the seed flow: received', async () => {
    const { encf, xml } = signedEcf({ buyerRnc: guarded.rnc });
    const refused = await deliver(xml);
    assert.equal(refused.statusCode, 401);
    assert.equal(errorOf(refused).code, 'RECEPTION_AUTHENTICATION_REQUIRED');
    assert.equal(errorOf(refused).details['reason'], 'token_missing');
    assert.equal((await inboundRows(encf)).length, 0);

    const { token } = await tokenFor(supplierRnc);
    const { rows } = await sqlPoolOf(api.database).query<{ holder_id: string; token_sha256: string }>(
      'SELECT holder_id, token_sha256 FROM reception_tokens WHERE token_sha256 = $1',
      [createHash('sha256').update(token).digest('hex')],
    );
    assert.equal(rows[0]?.holder_id, supplierRnc, 'only the SHA-256 is stored, with the holder');
    const wrong = await deliver(xml, { headers: { authorization: 'Bearer not-a-token-we-issued' } });
    assert.equal(wrong.statusCode, 401);
    assert.equal(errorOf(wrong).details['reason'], 'token_invalid');
    const accepted = await deliver(xml, { headers: { authorization: `bearer ${token}` } });
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.deepEqual(estadoOf(accepted.body), { estado: '0', motivo: undefined });
  });

  test('a reused seed, a seed we never issued, an expired token and a token of another environment are refused', async () => {
    const { token, signedSeed } = await tokenFor(supplierRnc);
    const reused = await deliver(signedSeed, { url: '/fe/autenticacion/api/validacioncertificado' });
    assert.equal(reused.statusCode, 400);
    assert.equal(errorOf(reused).details['reason'], 'seed_already_used');

    const forged = signForeignXml(
      '<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><valor>Zm9yZ2Vk</valor><fecha>2026-04-01T10:00:00.0000000-04:00</fecha></SemillaModel>',
      certificateOf(supplierRnc).signing,
    );
    assert.ok(forged.success);
    const unknown = await deliver(forged.data.xml, { url: '/fe/autenticacion/api/validacioncertificado' });
    assert.equal(unknown.statusCode, 400);
    assert.equal(errorOf(unknown).details['reason'], 'seed_unknown');

    const seed = await api.app.inject({ method: 'GET', url: '/fe/autenticacion/api/semilla' });
    const tampered = signForeignXml(seed.body, certificateOf(supplierRnc).signing);
    assert.ok(tampered.success);
    const badSignature = await deliver(tampered.data.xml.replace('<valor>', '<valor>A'), {
      url: '/fe/autenticacion/api/validacioncertificado',
    });
    assert.equal(badSignature.statusCode, 400);
    assert.ok(
      ['signature_invalid', 'seed_unknown'].includes(String(errorOf(badSignature).details['reason'])),
    );

    const { encf, xml } = signedEcf({ buyerRnc: guarded.rnc });
    const otherEnvironment = await deliver(xml, {
      url: '/eCF/fe/recepcion/api/ecf',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(otherEnvironment.statusCode, 401, 'a TesteCF token is not an eCF token');

    await sqlPoolOf(api.database).query(
      `UPDATE reception_tokens SET expires_at = now() - interval '1 second' WHERE token_sha256 = $1`,
      [createHash('sha256').update(token).digest('hex')],
    );
    const expired = await deliver(xml, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(expired.statusCode, 401);
    assert.equal((await inboundRows(encf)).length, 0);
  });
});

describe('received commercial approvals (ACECF)', () => {
  let issuer: { id: string; rnc: string };
  before(async () => {
    issuer = await seedTenant(api.database);
  });

  function acecf(options: {
    encf: string;
    montoTotal?: string;
    estado?: 'accepted' | 'rejected';
    buyerRnc?: string;
  }) {
    const built = buildAcecfXml({
      rncEmisor: issuer.rnc,
      encf: options.encf,
      fechaEmision: '20-11-2026',
      montoTotal: options.montoTotal ?? '118.00',
      rncComprador: options.buyerRnc ?? buyer.rnc,
      estado: options.estado ?? 'accepted',
      ...(options.estado === 'rejected' ? { rejectionReason: 'Mercancía no recibida' } : {}),
      approvedAt: '21-11-2026 09:00:00',
    });
    assert.ok(built.success);
    return signXml(built.data, certificateOf(options.buyerRnc ?? buyer.rnc).signing).xml;
  }

  const post = (xml: string) => deliver(xml, { url: '/fe/aprobacioncomercial/api/ecf' });

  test('matched, linked to the issued e-CF; a second one is a duplicate (200)', async () => {
    const encf = newEncf();
    const document = await seedDocument(api.database, { tenantId: issuer.id, encf, status: 'accepted' });
    await api.database.document.update({ where: { id: document.id }, data: { buyerRnc: buyer.rnc } });
    const xml = acecf({ encf });
    const response = await post(xml);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(JSON.parse(response.body), { ok: true, status: 'received' });
    const [row] = await inboundRows(encf);
    assert.equal(row?.status, 'received');
    assert.equal(row?.decision, 'accepted');
    assert.equal(row?.document_id, document.id);
    assert.deepEqual(row?.correspondence, { result: 'matched', mismatches: [] });
    const kept = await artifact(row.xml_artifact_id as string);
    assert.equal(kept.sha256, createHash('sha256').update(xml).digest('hex'));

    const again = await post(xml);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(JSON.parse(again.body), { ok: true, status: 'duplicate' });
  });

  test('mismatch, e-CF not found, and a tampered ACECF (400, a compact record, no row, no copy)', async () => {
    const encf = newEncf();
    await seedDocument(api.database, {
      tenantId: issuer.id,
      encf,
      status: 'accepted',
      totalAmount: '500.00',
    });
    await post(acecf({ encf, estado: 'rejected' }));
    const [mismatch] = await inboundRows(encf);
    assert.equal(mismatch?.decision, 'rejected');
    assert.equal(mismatch?.correspondence?.result, 'mismatch');
    assert.deepEqual(mismatch?.correspondence?.mismatches.map((entry) => entry.field).sort(), [
      'MontoTotal',
      'RNCComprador',
    ]);

    const missing = newEncf();
    await post(acecf({ encf: missing }));
    assert.deepEqual((await inboundRows(missing))[0]?.correspondence, {
      result: 'ecf_not_found',
      mismatches: [],
    });

    const tamperedEncf = newEncf();
    const tampered = await post(
      acecf({ encf: tamperedEncf }).replace('<MontoTotal>118.00', '<MontoTotal>119.00'),
    );
    assert.equal(tampered.statusCode, 400);
    assert.equal(errorOf(tampered).details['reason'], 'acecf_rejected');
    assert.deepEqual(await inboundRows(tamperedEncf), []);
    const [rejected] = await refusalRows(tamperedEncf);
    assert.equal(rejected?.kind, 'commercial_approval');
    assert.equal(rejected?.answer, null);
  });

  test('an ACECF for an issuer that is not ours: 400, nothing stored', async () => {
    const before = await inboundCount();
    const built = buildAcecfXml({
      rncEmisor: '131000009',
      encf: newEncf(),
      fechaEmision: '20-11-2026',
      montoTotal: '1.00',
      rncComprador: buyer.rnc,
      estado: 'accepted',
      approvedAt: '21-11-2026 09:00:00',
    });
    assert.ok(built.success);
    const response = await post(signXml(built.data, certificateOf(buyer.rnc).signing).xml);
    assert.equal(response.statusCode, 400);
    assert.equal(errorOf(response).details['reason'], 'issuer_not_served');
    assert.equal(await inboundCount(), before);
  });
});

describe('hostile input: never a 500, nothing stored', () => {
  const cases: Array<[string, string | Buffer, string]> = [
    ['not XML', 'hello, this is not xml', 'xml_malformed'],
    ['empty part', '', 'xml_empty'],
    ['not UTF-8', Buffer.from([0x3c, 0x45, 0xff, 0xfe, 0x3e]), 'xml_not_utf8'],
    [
      'billion laughs',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><ECF>&lol2;</ECF>',
      'xml_doctype_forbidden',
    ],
    [
      'external entity',
      '<!DOCTYPE ECF [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><ECF><Encabezado>&xxe;</Encabezado></ECF>',
      'xml_doctype_forbidden',
    ],
    ['deep nesting', `${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`, 'xml_too_deep'],
    ['another root', '<Factura><x>1</x></Factura>', 'xml_not_ecf'],
    [
      'an e-CF without eNCF',
      '<ECF><Encabezado><Emisor><RNCEmisor>131880600</RNCEmisor></Emisor></Encabezado></ECF>',
      'ecf_fields_unreadable',
    ],
    ['two roots', '<ECF></ECF><ECF></ECF>', 'xml_malformed'],
  ];
  for (const [name, content, reason] of cases) {
    test(`${name}: 400 ${reason}`, async () => {
      const before = await inboundCount();
      const response = await deliver(content);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(errorOf(response).code, 'INVALID_REQUEST');
      assert.equal(errorOf(response).details['reason'], reason);
      assert.equal(await inboundCount(), before);
    });
  }

  test('not multipart, no xml part, a declared body over 2 MiB, a chunked body over 2 MiB', async () => {
    const json = await api.app.inject({
      method: 'POST',
      url: '/fe/recepcion/api/ecf',
      headers: { 'content-type': 'application/xml' },
      payload: '<ECF/>',
    });
    assert.equal(json.statusCode, 400);
    assert.equal(errorOf(json).code, 'UNSUPPORTED_CONTENT_TYPE');

    const other = multipartOf('<ECF/>', 'x.xml', 'file');
    const noPart = await api.app.inject({
      method: 'POST',
      url: '/fe/recepcion/api/ecf',
      headers: { 'content-type': other.contentType },
      payload: other.body,
    });
    assert.equal(noPart.statusCode, 400);
    assert.equal(errorOf(noPart).details['reason'], 'xml_part_missing');

    const huge = multipartOf(`<ECF>${'x'.repeat(3 * 1024 * 1024)}</ECF>`);
    const declared = await api.app.inject({
      method: 'POST',
      url: '/fe/recepcion/api/ecf',
      headers: { 'content-type': huge.contentType },
      payload: huge.body,
    });
    assert.equal(declared.statusCode, 400);
    assert.equal(errorOf(declared).code, 'BODY_TOO_LARGE');

    const chunked = await api.app.inject({
      method: 'POST',
      url: '/fe/recepcion/api/ecf',
      headers: { 'content-type': huge.contentType, 'transfer-encoding': 'chunked' },
      payload: Readable.from([huge.body.subarray(0, 1024 * 1024), huge.body.subarray(1024 * 1024)]),
    });
    assert.equal(chunked.statusCode, 400, chunked.body);
    assert.equal(errorOf(chunked).code, 'BODY_TOO_LARGE');

    const { xml, encf } = signedEcf();
    const smallChunked = multipartOf(xml);
    const accepted = await api.app.inject({
      method: 'POST',
      url: '/fe/recepcion/api/ecf',
      headers: { 'content-type': smallChunked.contentType, 'transfer-encoding': 'chunked' },
      payload: Readable.from([smallChunked.body]),
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(
      (await inboundRows(encf))[0]?.status,
      'received',
      'a chunked delivery within the limit is received',
    );
  });

  test('the multipart body the receiver client builds is read', async () => {
    const { xml, encf } = signedEcf();
    const body = buildXmlMultipart(xml, `${supplierRnc}${encf}.xml`);
    const response = await api.app.inject({
      method: 'POST',
      url: '/fe/recepcion/api/ecf',
      headers: { 'content-type': body.contentType, 'content-length': body.contentLength },
      payload: body.body,
    });
    assert.deepEqual(estadoOf(response.body), { estado: '0', motivo: undefined });
  });

  test('floods: 429 with Retry-After past the per-address limit', async () => {
    const limiter = createAddressRateLimiter({ perMinute: 3, maxAddresses: 2 });
    assert.equal(limiter.take('a', 0), undefined);
    assert.equal(limiter.take('a', 1), undefined);
    assert.equal(limiter.take('a', 2), undefined);
    assert.equal(limiter.take('a', 30_000), 30);
    assert.equal(limiter.take('b', 30_000), undefined);
    assert.equal(limiter.take('c', 30_000), undefined, 'the table stays bounded');
    assert.equal(limiter.take('a', 60_001), undefined, 'a new window');

    const limited = await startTestApi({ RECEPTION_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const statuses: number[] = [];
      let retryAfter: string | undefined;
      for (let index = 0; index < 4; index += 1) {
        const response = await limited.app.inject({ method: 'GET', url: '/fe/autenticacion/api/semilla' });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) retryAfter = String(response.headers['retry-after']);
      }
      assert.deepEqual(statuses, [200, 200, 429, 429]);
      assert.match(retryAfter ?? '', /^\d+$/);
    } finally {
      await limited.close();
    }
  });
});
