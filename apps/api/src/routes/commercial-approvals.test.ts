/**
 * The commercial approval routes over the real app, the tax authority simulator and a local issuer
 * endpoint: scopes, hostile input, the codes of the ACECF POST rules as HTTP answers, reconciliation.
 * (Every rule in depth: packages/services/src/commercial-approvals/submit-commercial-approval.test.ts.)
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt, randomUUID } from 'node:crypto';
import { artifactData, seedApiKey, seedTenant, type Environment } from '@ecf/db';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, loadCertificate, signXml, type TSigningCertificate } from '@ecf/fiscal-core';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { startTestApi, TEST_XSD_DIRECTORY, type TTestApi } from '../../test/test-api.ts';

let api: TTestApi;
let simulatorDatabase: TTestDatabase;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let issuer: http.Server;
let issuerBase: string;
const issuerPosts: string[] = [];
const clientFor = (baseUrl: string) =>
  createTaxauthClients({ baseUrls: { ecf: baseUrl, fc: baseUrl, status: baseUrl }, timeoutMs: 3000 });
const certificates = new Map<string, TSigningCertificate>();

function certificateOf(rnc: string): TSigningCertificate {
  const cached = certificates.get(rnc);
  if (cached) return cached;
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate');
  certificates.set(rnc, loaded.data);
  return loaded.data;
}

type TAccount = { tenant: { id: string; rnc: string }; adminKey: string; readKey: string; certeKey: string };
let account: TAccount;
let other: TAccount;

async function seedAccount(): Promise<TAccount> {
  const tenant = await seedTenant(api.database);
  const { key: adminKey } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['tenant:admin'],
  });
  const { key: readKey } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
  });
  const { key: certeKey } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    scopes: ['tenant:admin'],
  });
  return { tenant, adminKey, readKey, certeKey };
}

function ecfXml(input: { rnc: string; encf: string; buyer: string }): string {
  const item =
    '<Item><NumeroLinea>1</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion><NombreItem>Servicio</NombreItem>' +
    '<IndicadorBienoServicio>2</IndicadorBienoServicio><CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item>';
  return (
    '<ECF><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>31</TipoeCF><eNCF>${input.encf}</eNCF><FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${input.rnc}</RNCEmisor><RazonSocialEmisor>Proveedor, S.R.L.</RazonSocialEmisor>` +
    '<DireccionEmisor>Calle 1, Santo Domingo</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>' +
    `<Comprador><RNCComprador>${input.buyer}</RNCComprador><RazonSocialComprador>Cliente, S.A.</RazonSocialComprador></Comprador>` +
    '<Totales><MontoGravadoTotal>100.00</MontoGravadoTotal><MontoGravadoI1>100.00</MontoGravadoI1><ITBIS1>18</ITBIS1>' +
    '<TotalITBIS>18.00</TotalITBIS><TotalITBIS1>18.00</TotalITBIS1><MontoTotal>118.00</MontoTotal></Totales></Encabezado>' +
    `<DetallesItems>${item}</DetallesItems><FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>`
  );
}

/** A supplier's e-CF the simulator accepted, received by `buyer` (its copy stored), the supplier in the directory. */
async function seedReceived(
  buyer: TAccount,
  options: { environment?: Environment; mode?: 'ok' | 'down' } = {},
) {
  const environment = options.environment ?? 'TesteCF';
  const supplier = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  const encf = `E31${String(randomInt(1, 2_000_000_000)).padStart(10, '0')}`;
  const signed = signXml(
    ecfXml({ rnc: supplier, encf, buyer: buyer.tenant.rnc }),
    certificateOf(supplier),
  ).xml;
  await clientFor(simulator.baseUrl)(environment)
    .forTaxpayer({ cacheKey: `supplier-${supplier}`, certificate: certificateOf(supplier) })
    .sendEcf({ xml: signed });
  const directory = await fetch(`${simulator.baseUrl}/_sim/directory`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        rnc: supplier,
        receptionUrl: `${issuerBase}/reception`,
        commercialApprovalUrl: `${issuerBase}/${options.mode ?? 'ok'}`,
      },
    ]),
  });
  assert.equal(directory.status, 204);
  const artifact = await api.database.artifact.create({
    data: artifactData({
      tenantId: buyer.tenant.id,
      documentId: null,
      kind: 'received_xml',
      contentType: 'application/xml',
      content: signed,
    }),
  });
  return api.database.inboundDocument.create({
    data: {
      tenantId: buyer.tenant.id,
      environment,
      kind: 'ecf',
      status: 'received',
      issuerRnc: supplier,
      buyerRnc: buyer.tenant.rnc,
      encf,
      ecfType: 31,
      issueDate: new Date('2026-04-01T00:00:00Z'),
      totalAmount: '118.00',
      xmlArtifactId: artifact.id,
    },
  });
}

before(async () => {
  issuer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      issuerPosts.push(request.url ?? '');
      if ((request.url ?? '').startsWith('/down/')) response.writeHead(503).end('caido');
      else response.writeHead(200).end('Recibido');
    });
  });
  await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
  issuerBase = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 0,
    port: 0,
  });
  api = await startTestApi({}, undefined, {
    taxauthClientFor: clientFor(simulator.baseUrl),
    loadCertificate: async (tenantId: string) => {
      const tenant = await api.database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
      return certificateOf(tenant.rnc);
    },
  });
  account = await seedAccount();
  other = await seedAccount();
});
after(async () => {
  await api?.close();
  await simulator?.close();
  await simulatorDatabase?.drop();
  await new Promise<void>((resolve) => issuer.close(() => resolve()));
});

const pathOf = (inboundId: string, environment = 'TesteCF') =>
  `/${environment}/inbound-taxauth/${inboundId}/aprobacion-comercial`;
const approvalDate = () => new Date(Date.now() - 60_000).toISOString();

function post(url: string, key: string, body: unknown) {
  return api.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
const get = (url: string, key: string) =>
  api.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
type TError = {
  error: { code: string; details: Record<string, unknown> };
  commercialApproval?: Record<string, unknown>;
};
const errorOf = (response: { json: () => unknown }) => (response.json() as TError).error;

describe('scopes and hostile input', () => {
  test('GET reads with ecf:read; POST and reconciliar need tenant:admin', async () => {
    const inbound = await seedReceived(account);
    const read = await get(pathOf(inbound.id), account.readKey);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().commercialApproval, null);
    assert.equal(read.json().inboundDocumentId, inbound.id);
    const submit = await post(pathOf(inbound.id), account.readKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
    });
    assert.equal(submit.statusCode, 403);
    assert.equal(errorOf(submit).code, 'INSUFFICIENT_SCOPE');
    const reconcile = await post(`${pathOf(inbound.id)}/reconciliar`, account.readKey, { outcome: 'sent' });
    assert.equal(reconcile.statusCode, 403);
  });

  test('bad bodies are 400 with the field path, never 500', async () => {
    const inbound = await seedReceived(account);
    const cases: Array<[unknown, string]> = [
      [{ decision: 'accept', approvalDate: approvalDate(), extra: true }, ''],
      [{ decision: 'maybe', approvalDate: approvalDate() }, 'decision'],
      [{ decision: 'accept', approvalDate: 20260401 }, 'approvalDate'],
      [{ decision: 'reject', approvalDate: approvalDate() }, 'rejectionReason'],
      [
        { decision: 'reject', approvalDate: approvalDate(), rejectionReason: 'x'.repeat(251) },
        'rejectionReason',
      ],
      [{ decision: 'accept', approvalDate: approvalDate(), rejectionReason: 'no' }, 'rejectionReason'],
      [
        { decision: 'accept', approvalDate: approvalDate(), targetUrl: 'ftp://issuer.example/x' },
        'targetUrl',
      ],
      [[1, 2], ''],
    ];
    for (const [body, path] of cases) {
      const response = await post(pathOf(inbound.id), account.adminKey, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      const error = errorOf(response);
      assert.equal(error.code, 'INVALID_REQUEST');
      if (path !== '')
        assert.ok(JSON.stringify(error.details).includes(`"${path}"`), JSON.stringify(error.details));
    }
    const huge = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'reject',
      approvalDate: approvalDate(),
      rejectionReason: 'x'.repeat(200_000),
    });
    assert.equal(huge.statusCode, 400);
    assert.equal(errorOf(huge).code, 'BODY_TOO_LARGE');
    const notJson = await post(pathOf(inbound.id), account.adminKey, '{"decision":');
    assert.equal(notJson.statusCode, 400);
    const badId = await post(pathOf('not-a-uuid'), account.adminKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
    });
    assert.equal(badId.statusCode, 400);
    assert.equal(errorOf(badId).code, 'INVALID_REQUEST');
    assert.equal(
      await api.database.commercialApproval.count({ where: { inboundDocumentId: inbound.id } }),
      0,
    );
  });

  test("another account's id, an unknown id, another environment: 404 RECEIVED_DOCUMENT_NOT_FOUND", async () => {
    const theirs = await seedReceived(other);
    for (const response of [
      await post(pathOf(theirs.id), account.adminKey, { decision: 'accept', approvalDate: approvalDate() }),
      await get(pathOf(theirs.id), account.readKey),
      await get(pathOf(randomUUID()), account.readKey),
      await post(pathOf(theirs.id, 'CerteCF'), other.certeKey, {
        decision: 'accept',
        approvalDate: approvalDate(),
      }),
    ]) {
      assert.equal(response.statusCode, 404);
      assert.equal(errorOf(response).code, 'RECEIVED_DOCUMENT_NOT_FOUND');
    }
  });
});

describe('the ACECF POST rules over HTTP', () => {
  test('202 signed and dispatched; the same decision 200; another decision 409; GET shows the state', async () => {
    const inbound = await seedReceived(account);
    const first = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
    });
    assert.equal(first.statusCode, 202, first.body);
    const body = first.json();
    assert.equal(body.ok, true);
    assert.equal(body.environment, 'TesteCF');
    assert.equal(body.commercialApproval.status, 'signed');
    assert.equal(body.commercialApproval.targetSource, 'directory');
    assert.equal(body.commercialApproval.taxauth.status, 'accepted');
    assert.equal(body.commercialApproval.dispatch.status, 'sent');
    assert.equal(typeof body.correlationId, 'string');
    const again = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().commercialApproval.id, body.commercialApproval.id);
    const conflict = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'reject',
      approvalDate: approvalDate(),
      rejectionReason: 'Cantidad incorrecta',
    });
    assert.equal(conflict.statusCode, 409);
    assert.equal(errorOf(conflict).code, 'COMMERCIAL_APPROVAL_DECISION_CONFLICT');
    const state = await get(pathOf(inbound.id), account.readKey);
    assert.equal(state.json().commercialApproval.dispatch.httpStatus, 200);
    assert.equal(state.json().commercialApproval.dispatch.body, 'Recibido');
    // Not uncertain: reconciliation is refused.
    const reconcile = await post(`${pathOf(inbound.id)}/reconciliar`, account.adminKey, { outcome: 'sent' });
    assert.equal(reconcile.statusCode, 409);
    assert.equal(errorOf(reconcile).code, 'COMMERCIAL_APPROVAL_NOT_UNCERTAIN');
  });

  test('422 COMMERCIAL_APPROVAL_DATE_INVALID with details.reason', async () => {
    const inbound = await seedReceived(account);
    const future = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'accept',
      approvalDate: new Date(Date.now() + 3_600_000).toISOString(),
    });
    assert.equal(future.statusCode, 422);
    assert.equal(errorOf(future).code, 'COMMERCIAL_APPROVAL_DATE_INVALID');
    assert.equal(errorOf(future).details['reason'], 'in_future');
    const invalid = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'accept',
      approvalDate: '2026-13-01T00:00:00',
    });
    assert.equal(errorOf(invalid).details['reason'], 'invalid');
  });

  test('502 ACECF_DISPATCH_NOT_RECEIVED carries the approval with its retry; 422 ACECF_TARGET_URL_NOT_ALLOWED', async () => {
    const inbound = await seedReceived(account, { mode: 'down' });
    const notAllowed = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
      targetUrl: 'https://issuer.example/fe/aprobacioncomercial/api/ecf',
    });
    assert.equal(notAllowed.statusCode, 422);
    assert.equal(
      errorOf(notAllowed).details['directoryTargetUrl'],
      `${issuerBase}/down/fe/aprobacioncomercial/api/ecf`,
    );
    const response = await post(pathOf(inbound.id), account.adminKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
    });
    assert.equal(response.statusCode, 502);
    const body: TError & { commercialApproval: { id: string; dispatch: Record<string, unknown> } } =
      response.json();
    assert.equal(body.error.code, 'ACECF_DISPATCH_NOT_RECEIVED');
    assert.equal(body.commercialApproval.dispatch['status'], 'retry_scheduled');
    assert.equal(body.commercialApproval.dispatch['httpStatus'], 503);
    assert.equal(typeof body.commercialApproval.dispatch['nextAttemptAt'], 'string');
    // The outbox job committed with the acceptance.
    const jobs = await api.database.$queryRawUnsafe<{ count: bigint }[]>(
      `SELECT count(*) AS count FROM pgboss.job WHERE name = 'commercial-approval.dispatch' AND data->>'commercialApprovalId' = $1`,
      body.commercialApproval.id,
    );
    assert.equal(Number(jobs[0]?.count), 1);
  });

  test('CerteCF: 200 signed, targetSource not_applicable, nothing sent to an issuer', async () => {
    const inbound = await seedReceived(account, { environment: 'CerteCF' });
    const before = issuerPosts.length;
    const response = await post(pathOf(inbound.id, 'CerteCF'), account.certeKey, {
      decision: 'accept',
      approvalDate: approvalDate(),
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().commercialApproval.status, 'signed');
    assert.equal(response.json().commercialApproval.targetSource, 'not_applicable');
    assert.equal(issuerPosts.length, before);
  });
});
