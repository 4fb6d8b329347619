/**
 * The client against the real tax authority simulator over HTTP: every service's happy path, the
 * token cache, and each failure class (faults injected through the simulator's admin API).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import {
  buildAcecfXml,
  buildAnecfXml,
  buildRfceXml,
  createTestCertificate,
  loadCertificate,
  signEcfDocument,
  signXml,
  type TEcfDocument,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { startSimulator } from '@ecf/taxauth-sim';
import {
  createTaxauthClient,
  TaxauthError,
  type TTaxauthClientOptions,
  type TTaxauthExchangeEvent,
  type TTaxpayerClient,
} from './index.ts';

const XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;
const ISSUER_RNC = '131880738';
const BUYER_RNC = '101672919';
const OTHER_RNC = '130862346';

type TSimulator = Awaited<ReturnType<typeof startSimulator>>;

let database: TTestDatabase;
let simulator: TSimulator;
let issuerCertificate: TSigningCertificate;
let buyerCertificate: TSigningCertificate;
let otherCertificate: TSigningCertificate;
let sequence = 100;

function certificateFor(rnc: string): TSigningCertificate {
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(`certificate for ${rnc} did not load`);
  return loaded.data;
}

function nextEncf(type = '31'): string {
  sequence += 1;
  return `E${type}${String(sequence).padStart(10, '0')}`;
}

/**
 * A schema-valid e-CF 31 (one line, 100.00 + 18 % ITBIS) in canonical form, ready for `signXml`.
 * (fiscal-core's own sample builder is test support that its public surface does not export.)
 */
function sampleEcf31(encf: string): string {
  return (
    '<ECF><Encabezado><Version>1.0</Version>' +
    `<IdDoc><TipoeCF>31</TipoeCF><eNCF>${encf}</eNCF><FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia>` +
    '<IndicadorMontoGravado>0</IndicadorMontoGravado><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
    `<Emisor><RNCEmisor>${ISSUER_RNC}</RNCEmisor><RazonSocialEmisor>Empresa de Prueba, S.R.L.</RazonSocialEmisor>` +
    '<DireccionEmisor>Av. Winston Churchill 1099, Santo Domingo</DireccionEmisor><FechaEmision>01-04-2026</FechaEmision></Emisor>' +
    `<Comprador><RNCComprador>${BUYER_RNC}</RNCComprador><RazonSocialComprador>Cliente &amp; Asociados, S.A.</RazonSocialComprador></Comprador>` +
    '<Totales><MontoGravadoTotal>100.00</MontoGravadoTotal><MontoGravadoI1>100.00</MontoGravadoI1><ITBIS1>18</ITBIS1>' +
    '<TotalITBIS>18.00</TotalITBIS><TotalITBIS1>18.00</TotalITBIS1><MontoTotal>118.00</MontoTotal></Totales></Encabezado>' +
    '<DetallesItems><Item><NumeroLinea>1</NumeroLinea><IndicadorFacturacion>1</IndicadorFacturacion><NombreItem>Artículo</NombreItem>' +
    '<IndicadorBienoServicio>1</IndicadorBienoServicio><CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem>' +
    '<MontoItem>100.00</MontoItem></Item></DetallesItems><FechaHoraFirma>20-11-2026 10:15:00</FechaHoraFirma></ECF>'
  );
}

/** A signed, schema-valid e-CF 31 from the issuer to the buyer. */
function signedEcf31(encf: string, certificate = issuerCertificate): { xml: string; securityCode: string } {
  const signed = signXml(sampleEcf31(encf), certificate);
  return { xml: signed.xml, securityCode: signed.signatureValue.slice(0, 6) };
}

function clientOf(options: Partial<TTaxauthClientOptions> = {}) {
  const base = simulator.baseUrl;
  return createTaxauthClient({
    environment: 'TesteCF',
    baseUrls: { ecf: base, fc: base, status: base },
    timeoutMs: 5000,
    ...options,
  });
}

/** A client that records its exchanges, to count authentications. */
function observedClient(options: Partial<TTaxauthClientOptions> = {}) {
  const events: TTaxauthExchangeEvent[] = [];
  const client = clientOf({ ...options, onExchange: (event) => events.push(event) });
  const count = (suffix: string) =>
    events.filter((event) => event.path.toLowerCase().endsWith(suffix)).length;
  return { client, events, seeds: () => count('/semilla'), validations: () => count('/validarsemilla') };
}

async function admin(method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${simulator.baseUrl}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  assert.ok(response.ok, `${method} ${path} answered ${response.status}: ${await response.clone().text()}`);
  return response;
}

async function injectFault(fault: {
  environment?: string;
  service: string;
  fault: string;
  delayMs?: number;
  count?: number;
}): Promise<void> {
  await admin('POST', '/_sim/faults', { environment: 'testecf', ...fault });
}

async function failureOf(promise: Promise<unknown>): Promise<TaxauthError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TaxauthError) return error;
    throw error;
  }
  assert.fail('expected a TaxauthError');
}

/** Polls Consulta Resultado until the state is final (the simulator validates asynchronously). */
async function finalResult(taxpayer: TTaxpayerClient, trackId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const result = await taxpayer.getResult({ trackId });
    if (result.isFinal) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`trackId ${trackId} did not reach a final state`);
}

/** The same GET, sent by hand with the taxpayer's token, to compare the client's result with the raw answer. */
async function rawGet(taxpayer: TTaxpayerClient, path: string): Promise<{ status: number; body: string }> {
  const { token } = await taxpayer.authenticate();
  const response = await fetch(`${simulator.baseUrl}${path}`, {
    headers: { accept: 'application/json', authorization: `bearer ${token}` },
  });
  return { status: response.status, body: await response.text() };
}

/** A consumer invoice (type 32) below RD$250,000 as a document tree, for the RFCE. */
function consumerInvoice(encf: string): TEcfDocument {
  return {
    ECF: {
      Encabezado: {
        Version: '1.0',
        IdDoc: {
          TipoeCF: '32',
          eNCF: encf,
          IndicadorMontoGravado: '0',
          TipoIngresos: '01',
          TipoPago: '1',
          TablaFormasPago: { FormaDePago: { FormaPago: '1', MontoPago: '118.00' } },
        },
        Emisor: {
          RNCEmisor: ISSUER_RNC,
          RazonSocialEmisor: 'Empresa de Prueba, S.R.L.',
          DireccionEmisor: 'Av. Winston Churchill 1099',
          FechaEmision: '20-11-2026',
        },
        Comprador: { RazonSocialComprador: 'CONSUMIDOR FINAL' },
        Totales: {
          MontoGravadoTotal: '100.00',
          MontoGravadoI1: '100.00',
          ITBIS1: '18',
          TotalITBIS: '18.00',
          TotalITBIS1: '18.00',
          MontoTotal: '118.00',
        },
      },
      DetallesItems: {
        Item: [
          {
            NumeroLinea: '1',
            IndicadorFacturacion: '1',
            NombreItem: 'Artículo',
            IndicadorBienoServicio: '1',
            CantidadItem: '1',
            PrecioUnitarioItem: '100.00',
            MontoItem: '100.00',
          },
        ],
      },
    },
  };
}

before(async () => {
  issuerCertificate = certificateFor(ISSUER_RNC);
  buyerCertificate = certificateFor(BUYER_RNC);
  otherCertificate = certificateFor(OTHER_RNC);
  database = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: database.url,
    xsdDirectory: XSD_DIRECTORY,
    tokenSecret: 'client-test-secret',
    processingDelayMs: 0,
    logLevel: 'silent',
    directory: [
      {
        rnc: BUYER_RNC,
        name: 'Cliente & Asociados, S.A.',
        receptionUrl: 'https://buyer.example/fe/recepcion/api/ecf',
        commercialApprovalUrl: 'https://buyer.example/fe/aprobacioncomercial/api/ecf',
      },
      { rnc: OTHER_RNC, name: 'Otro', receptionUrl: 'https://other.example/fe/recepcion/api/ecf' },
    ],
  });
});

after(async () => {
  await simulator?.close();
  await database?.drop();
});

afterEach(async () => {
  await admin('DELETE', '/_sim/faults');
});

describe('services (happy paths)', () => {
  test('e-CF reception → trackId; Consulta Resultado, ConsultaTrackIds and Consulta Estado agree', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-happy', certificate: issuerCertificate });
    const encf = nextEncf();
    const { xml, securityCode } = signedEcf31(encf);
    const reception = await taxpayer.sendEcf({ xml });
    assert.match(reception.trackId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

    const result = await finalResult(taxpayer, reception.trackId);
    assert.equal(result.trackId, reception.trackId);
    assert.equal(result.codigo, 1);
    assert.equal(result.estado, 'Aceptado');
    assert.equal(result.status, 'accepted');
    assert.equal(result.rnc, ISSUER_RNC);
    assert.equal(result.encf, encf);
    assert.equal(result.secuenciaUtilizada, true);
    assert.match(result.fechaRecepcion ?? '', /^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)$/);

    const trackIds = await taxpayer.findTrackIds({ rncEmisor: ISSUER_RNC, encf });
    assert.deepEqual(
      trackIds.map((item) => [item.trackId, item.status]),
      [[reception.trackId, 'accepted']],
    );

    const status = await taxpayer.getEcfStatus({
      rncEmisor: ISSUER_RNC,
      encf,
      rncComprador: BUYER_RNC,
      codigoSeguridad: securityCode,
    });
    assert.equal(status.codigo, 1);
    assert.equal(status.status, 'accepted');
    assert.equal(status.ncfElectronico, encf);
    assert.equal(status.rncEmisor, ISSUER_RNC);
  });

  test('Consulta Resultado of an unknown trackId is codigo 0, not final', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-happy', certificate: issuerCertificate });
    const result = await taxpayer.getResult({ trackId: '00000000-0000-4000-8000-000000000000' });
    assert.equal(result.codigo, 0);
    assert.equal(result.status, 'not_found');
    assert.equal(result.isFinal, false);
  });

  test('RFCE reception on the consumer-invoice host and ConsultaRFCE (production environment)', async () => {
    const taxpayer = clientOf({ environment: 'eCF' }).forTaxpayer({
      cacheKey: 'tenant-happy',
      certificate: issuerCertificate,
    });
    const encf = nextEncf('32');
    const signedE32 = signEcfDocument(consumerInvoice(encf), issuerCertificate, new Date());
    assert.ok(signedE32.success, JSON.stringify(signedE32));
    const rfce = buildRfceXml(consumerInvoice(encf), { securityCode: signedE32.data.securityCode });
    assert.ok(rfce.success, JSON.stringify(rfce));
    const answer = await taxpayer.sendRfce({ xml: signXml(rfce.data, issuerCertificate).xml });
    assert.equal(answer.codigo, 1, JSON.stringify(answer));
    assert.equal(answer.status, 'accepted');
    assert.equal(answer.isFinal, true);
    assert.equal(answer.encf, encf);
    assert.equal(answer.secuenciaUtilizada, true);

    const status = await taxpayer.getRfceStatus({
      rncEmisor: ISSUER_RNC,
      encf,
      codigoSeguridad: signedE32.data.securityCode,
    });
    assert.equal(status.codigo, 1);
    assert.equal(status.encf, encf);
    assert.equal(status.rnc, ISSUER_RNC);
  });

  test('range annulment (ANECF); an annulled e-NCF cannot be used afterwards', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-happy', certificate: issuerCertificate });
    const from = nextEncf();
    sequence += 4;
    const to = `E31${String(sequence).padStart(10, '0')}`;
    const anecf = buildAnecfXml({
      rncEmisor: ISSUER_RNC,
      annulledAt: '20-11-2026 10:00:00',
      ranges: [{ type: '31', from, to }],
    });
    assert.ok(anecf.success, JSON.stringify(anecf));
    const answer = await taxpayer.annulRanges({ xml: signXml(anecf.data, issuerCertificate).xml });
    assert.equal(answer.rnc, ISSUER_RNC);
    assert.ok(answer.mensajes.length > 0);
    assert.match(JSON.stringify(answer.mensajes), /anuladas correctamente/);

    // The simulator, like DGII, takes the upload and rejects the annulled e-NCF in the result.
    const reception = await taxpayer.sendEcf({ xml: signedEcf31(from).xml });
    const result = await finalResult(taxpayer, reception.trackId);
    assert.equal(result.status, 'rejected');
    assert.match(JSON.stringify(result.mensajes), /fue anulado/);
  });

  test('commercial approval (ACECF) by the buyer of an accepted e-CF', async () => {
    const client = clientOf();
    const issuer = client.forTaxpayer({ cacheKey: 'tenant-happy', certificate: issuerCertificate });
    const encf = nextEncf();
    const reception = await issuer.sendEcf({ xml: signedEcf31(encf).xml });
    assert.equal((await finalResult(issuer, reception.trackId)).status, 'accepted');

    const acecf = buildAcecfXml({
      rncEmisor: ISSUER_RNC,
      encf,
      fechaEmision: '01-04-2026',
      montoTotal: '118.00',
      rncComprador: BUYER_RNC,
      estado: 'accepted',
      approvedAt: '20-11-2026 10:00:00',
    });
    assert.ok(acecf.success, JSON.stringify(acecf));
    const buyer = client.forTaxpayer({ cacheKey: 'tenant-buyer', certificate: buyerCertificate });
    const answer = await buyer.sendCommercialApproval({ xml: signXml(acecf.data, buyerCertificate).xml });
    assert.match(answer.estado ?? '', /aprobada/i, JSON.stringify(answer));
  });

  test('directory of receivers: listing and by RNC; an unknown RNC is a definite not_found', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-happy', certificate: issuerCertificate });
    const receivers = await taxpayer.findReceivers();
    const buyer = receivers.find((receiver) => receiver.rnc === BUYER_RNC);
    assert.equal(buyer?.urlRecepcion, 'https://buyer.example/fe/recepcion/api/ecf');
    assert.equal(buyer?.urlAceptacion, 'https://buyer.example/fe/aprobacioncomercial/api/ecf');
    const one = await taxpayer.getReceiver({ rnc: OTHER_RNC });
    assert.equal(one.rnc, OTHER_RNC);
    assert.equal(one.nombre, 'Otro');
    const missing = await failureOf(taxpayer.getReceiver({ rnc: '999999999' }));
    assert.deepEqual([missing.kind, missing.reason], ['definite', 'not_found']);
  });

  test('service status, maintenance windows and environment availability (status host)', async () => {
    const client = clientOf({ statusApiKey: 'test-api-key' });
    const statuses = await client.findServiceStatuses();
    assert.ok(
      statuses.some((status) => status.servicio.startsWith('Autenticaci')),
      JSON.stringify(statuses),
    );
    const windows = await client.getMaintenanceWindows();
    assert.ok(Array.isArray(windows.ventanaMantenimientos));
    const environment = await client.getEnvironmentStatus();
    assert.equal(environment.isAvailable, true, JSON.stringify(environment));
    await injectFault({ environment: '*', service: 'recepcion', fault: 'http_503' });
    assert.equal((await client.getEnvironmentStatus()).isAvailable, false);
    const withoutKey = await failureOf(clientOf().findServiceStatuses());
    assert.deepEqual(
      [withoutKey.kind, withoutKey.reason, withoutKey.status, withoutKey.service],
      ['definite', 'unauthorized', 401, 'estatusservicios'],
    );
  });
});

describe('token cache', () => {
  test('many calls, concurrent or not, share one authentication', async () => {
    const { client, seeds, validations } = observedClient();
    const taxpayer = client.forTaxpayer({ cacheKey: 'tenant-cache', certificate: issuerCertificate });
    await Promise.all(
      Array.from({ length: 8 }, () =>
        taxpayer.getResult({ trackId: '00000000-0000-4000-8000-000000000001' }),
      ),
    );
    for (let index = 0; index < 3; index += 1) await taxpayer.findReceivers();
    // A handle bound again with the same credentials uses the same cached token.
    await client.forTaxpayer({ cacheKey: 'tenant-cache', certificate: issuerCertificate }).findReceivers();
    assert.equal(seeds(), 1);
    assert.equal(validations(), 1);
  });

  test('two tenants get two tokens, each for its own signer; environments do not share tokens', async () => {
    const { client, validations } = observedClient();
    const first = client.forTaxpayer({ cacheKey: 'tenant-1', certificate: issuerCertificate });
    const second = client.forTaxpayer({ cacheKey: 'tenant-2', certificate: otherCertificate });
    const [tokenA, tokenB] = await Promise.all([first.authenticate(), second.authenticate()]);
    assert.notEqual(tokenA.token, tokenB.token);
    const holder = (token: string) =>
      (
        JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
          string,
          unknown
        >
      )['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];
    assert.equal(holder(tokenA.token), ISSUER_RNC);
    assert.equal(holder(tokenB.token), OTHER_RNC);
    assert.equal(validations(), 2);
    // Same tenant key, other environment: another client, another token.
    const production = observedClient({ environment: 'eCF' });
    const tokenC = await production.client
      .forTaxpayer({ cacheKey: 'tenant-1', certificate: issuerCertificate })
      .authenticate();
    assert.notEqual(tokenC.token, tokenA.token);
    assert.equal(production.validations(), 1);
  });

  test('the token is refreshed tokenRefreshMarginSeconds before it expires (client clock)', async () => {
    let clock = Date.now();
    const { client, validations } = observedClient({
      now: () => new Date(clock),
      tokenRefreshMarginSeconds: 120,
    });
    const taxpayer = client.forTaxpayer({ cacheKey: 'tenant-refresh', certificate: issuerCertificate });
    const first = await taxpayer.authenticate();
    const lifetimeMs = first.expiresAt.getTime() - clock;
    assert.ok(lifetimeMs > 240_000, `token lifetime ${lifetimeMs} ms`);
    clock += lifetimeMs - 120_000 - 1000;
    await taxpayer.findReceivers();
    assert.equal(validations(), 1);
    clock += 1000;
    await taxpayer.findReceivers();
    assert.equal(validations(), 2);
    assert.notEqual((await taxpayer.authenticate()).token, first.token);
  });

  test('a 401 drops the cached token and authenticates again once, transparently', async () => {
    const { client, validations } = observedClient();
    const taxpayer = client.forTaxpayer({ cacheKey: 'tenant-401', certificate: issuerCertificate });
    const before401 = await taxpayer.authenticate();
    // A reset invalidates every token the simulator issued before it.
    await admin('POST', '/_sim/reset');
    const receivers = await taxpayer.findReceivers();
    assert.ok(Array.isArray(receivers));
    assert.equal(validations(), 2);
    assert.notEqual((await taxpayer.authenticate()).token, before401.token);
  });

  test('a second 401 after a fresh token is a definite "unauthorized" with the answer kept', async () => {
    // Tokens come from this simulator; the consumer-invoice host is another simulator with another secret.
    const otherDatabase = await createTestDatabase({ migrated: false });
    const other = await startSimulator({
      databaseUrl: otherDatabase.url,
      xsdDirectory: XSD_DIRECTORY,
      tokenSecret: 'another-secret',
      logLevel: 'silent',
    });
    try {
      const { client, validations } = observedClient({
        environment: 'eCF',
        baseUrls: { ecf: simulator.baseUrl, fc: other.baseUrl, status: simulator.baseUrl },
      });
      const taxpayer = client.forTaxpayer({ cacheKey: 'tenant-401-twice', certificate: issuerCertificate });
      const failure = await failureOf(
        taxpayer.getRfceStatus({ rncEmisor: ISSUER_RNC, encf: 'E320000000001', codigoSeguridad: 'ABCDEF' }),
      );
      assert.deepEqual(
        [failure.kind, failure.reason, failure.status, failure.service],
        ['definite', 'unauthorized', 401, 'consultarfce'],
      );
      assert.equal(typeof failure.body, 'string');
      assert.equal(validations(), 2);
    } finally {
      await other.close();
      await otherDatabase.drop();
    }
  });
});

describe('failure classification', () => {
  test('connection reset → transient "connection", outcome unknown', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-faults', certificate: issuerCertificate });
    await taxpayer.authenticate();
    await injectFault({ service: 'recepcion', fault: 'connection_reset', count: 1 });
    const failure = await failureOf(taxpayer.sendEcf({ xml: signedEcf31(nextEncf()).xml }));
    assert.deepEqual(
      [failure.kind, failure.reason, failure.service, failure.isOutcomeUnknown],
      ['transient', 'connection', 'recepcion', true],
    );
  });

  test('HTTP 503 → transient "http_5xx" with the body verbatim', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-faults', certificate: issuerCertificate });
    await taxpayer.authenticate();
    await injectFault({ service: 'consultaresultado', fault: 'http_503', count: 1 });
    const failure = await failureOf(taxpayer.getResult({ trackId: '00000000-0000-4000-8000-000000000002' }));
    assert.deepEqual([failure.kind, failure.reason, failure.status], ['transient', 'http_5xx', 503]);
    assert.match(
      failure.body ?? '',
      /^<!DOCTYPE HTML.*<p>HTTP Error 503\. The service is unavailable\.<\/p><\/BODY><\/HTML>$/,
    );
    // The fault was used up: the same call now succeeds.
    assert.equal((await taxpayer.getResult({ trackId: '00000000-0000-4000-8000-000000000002' })).codigo, 0);
  });

  test('no answer within timeoutMs → transient "timeout"', async () => {
    const taxpayer = clientOf({ timeoutMs: 400 }).forTaxpayer({
      cacheKey: 'tenant-timeout',
      certificate: issuerCertificate,
    });
    await taxpayer.authenticate();
    await injectFault({ service: 'consultatrackids', fault: 'timeout', delayMs: 3000, count: 1 });
    const started = Date.now();
    const failure = await failureOf(taxpayer.findTrackIds({ rncEmisor: ISSUER_RNC, encf: 'E310000000001' }));
    assert.deepEqual([failure.kind, failure.reason], ['transient', 'timeout']);
    assert.ok(Date.now() - started < 2500, 'the client gave up at its own timeout');
  });

  test('the caller\'s signal aborts a hanging call → transient "aborted"', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-timeout', certificate: issuerCertificate });
    await taxpayer.authenticate();
    await injectFault({ service: 'consultaresultado', fault: 'timeout', count: 1 });
    const failure = await failureOf(
      taxpayer.getResult({
        trackId: '00000000-0000-4000-8000-000000000003',
        signal: AbortSignal.timeout(150),
      }),
    );
    assert.deepEqual([failure.kind, failure.reason], ['transient', 'aborted']);
  });

  test('authentication service down → transient "auth_unavailable", nothing cached', async () => {
    const { client, validations } = observedClient();
    const taxpayer = client.forTaxpayer({ cacheKey: 'tenant-auth-down', certificate: issuerCertificate });
    await injectFault({ service: 'autenticacion', fault: 'auth_down', count: 1 });
    const failure = await failureOf(taxpayer.findReceivers());
    assert.deepEqual(
      [failure.kind, failure.reason, failure.service],
      ['transient', 'auth_unavailable', 'autenticacion'],
    );
    assert.ok(failure.cause instanceof TaxauthError);
    // Once the service is back the next call authenticates.
    assert.equal(validations(), 0);
    await taxpayer.findReceivers();
    assert.equal(validations(), 1);
  });

  test('a seed signed by a certificate the simulator refuses is a definite "auth_failed"', async () => {
    const expired = createTestCertificate({
      rnc: ISSUER_RNC,
      commonName: 'Vencido',
      validFrom: new Date('2020-01-01T00:00:00Z'),
      validTo: new Date('2021-01-01T00:00:00Z'),
    });
    const loaded = loadCertificate({
      privateKeyPem: expired.privateKeyPem,
      certificatePem: expired.certificatePem,
    });
    assert.ok(loaded.success);
    const failure = await failureOf(
      clientOf().forTaxpayer({ cacheKey: 'tenant-expired', certificate: loaded.data }).authenticate(),
    );
    assert.deepEqual([failure.kind, failure.reason], ['definite', 'auth_failed']);
    assert.equal(typeof failure.body, 'string');
    assert.ok((failure.body ?? '').length > 0);
  });

  test('signer not delegated for the issuing RNC → rejected with secuenciaUtilizada false and DGII text', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-other', certificate: otherCertificate });
    const encf = nextEncf();
    // The e-CF says RNCEmisor 131880738, the certificate and token belong to 130862346.
    const reception = await taxpayer.sendEcf({ xml: signedEcf31(encf, otherCertificate).xml });
    const result = await finalResult(taxpayer, reception.trackId);
    assert.equal(result.status, 'rejected');
    assert.equal(result.secuenciaUtilizada, false);
    assert.match(
      JSON.stringify(result.mensajes),
      /El RNC del certificado no está delegado para realizar transacciones para el RNC/,
    );
  });

  test('seed validation saying the signer is not delegated → definite not_delegated, text verbatim', async () => {
    const taxpayer = clientOf().forTaxpayer({
      cacheKey: 'tenant-not-delegated',
      certificate: issuerCertificate,
    });
    await injectFault({ service: 'autenticacion', fault: 'not_delegated', count: 1 });
    const failure = await failureOf(taxpayer.findReceivers());
    assert.deepEqual(
      [failure.kind, failure.reason, failure.status, failure.service],
      ['definite', 'not_delegated', 400, 'autenticacion'],
    );
    assert.equal(
      failure.body,
      `El RNC del certificado no está delegado para realizar transacciones para el RNC: ${ISSUER_RNC}`,
    );
  });

  test('XSD-invalid e-CF → rejected, the e-NCF stays free, messages exactly as the simulator sent them', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-faults', certificate: issuerCertificate });
    const encf = nextEncf();
    // TipoPago 9 is outside the XSD's enumeration.
    const invalid = sampleEcf31(encf).replace('<TipoPago>1</TipoPago>', '<TipoPago>9</TipoPago>');
    const { trackId } = await taxpayer.sendEcf({ xml: signXml(invalid, issuerCertificate).xml });
    const result = await finalResult(taxpayer, trackId);
    assert.equal(result.status, 'rejected');
    assert.equal(result.secuenciaUtilizada, false);
    assert.match(JSON.stringify(result.mensajes), /La estructura del archivo XML no es válido/);
    const raw = await rawGet(taxpayer, `/testecf/consultaresultado/api/consultas/estado?trackid=${trackId}`);
    assert.deepEqual(result.mensajes, (JSON.parse(raw.body) as { mensajes: unknown }).mensajes);
    // The e-NCF was not burned: the corrected document is accepted.
    const retry = await taxpayer.sendEcf({ xml: signedEcf31(encf).xml });
    assert.equal((await finalResult(taxpayer, retry.trackId)).status, 'accepted');
  });

  test('duplicate e-NCF → the second submission is rejected as already used', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-faults', certificate: issuerCertificate });
    const encf = nextEncf();
    const first = await taxpayer.sendEcf({ xml: signedEcf31(encf).xml });
    assert.equal((await finalResult(taxpayer, first.trackId)).status, 'accepted');
    const duplicate = await taxpayer.sendEcf({ xml: signedEcf31(encf).xml });
    const second = await finalResult(taxpayer, duplicate.trackId);
    assert.deepEqual([second.codigo, second.status, second.secuenciaUtilizada], [2, 'rejected', true]);
    assert.match(JSON.stringify(second.mensajes), /ya fue utilizado/);
    const trackIds = await taxpayer.findTrackIds({ rncEmisor: ISSUER_RNC, encf });
    assert.deepEqual(trackIds.map((item) => item.status).sort(), ['accepted', 'rejected']);
  });

  test('lost answer → transient with the outcome unknown; ConsultaTrackIds shows DGII received it', async () => {
    const taxpayer = clientOf({ timeoutMs: 2000 }).forTaxpayer({
      cacheKey: 'tenant-faults',
      certificate: issuerCertificate,
    });
    await taxpayer.authenticate();
    const encf = nextEncf();
    await injectFault({ service: 'recepcion', fault: 'lose_answer', count: 1 });
    const failure = await failureOf(taxpayer.sendEcf({ xml: signedEcf31(encf).xml }));
    assert.equal(failure.kind, 'transient');
    assert.equal(failure.isOutcomeUnknown, true);
    const trackIds = await taxpayer.findTrackIds({ rncEmisor: ISSUER_RNC, encf });
    assert.equal(trackIds.length, 1);
  });

  test('refusals answered with HTTP 400 are definite "rejected" with the body and messages verbatim (ACECF, ANECF)', async () => {
    const client = clientOf();
    const acecf = buildAcecfXml({
      rncEmisor: ISSUER_RNC,
      encf: nextEncf(),
      fechaEmision: '01-04-2026',
      montoTotal: '118.00',
      rncComprador: BUYER_RNC,
      estado: 'accepted',
      approvedAt: '20-11-2026 10:00:00',
    });
    assert.ok(acecf.success);
    const buyer = client.forTaxpayer({ cacheKey: 'tenant-buyer', certificate: buyerCertificate });
    const approval = await failureOf(
      buyer.sendCommercialApproval({ xml: signXml(acecf.data, buyerCertificate).xml }),
    );
    assert.deepEqual(
      [approval.kind, approval.reason, approval.status, approval.service],
      ['definite', 'rejected', 400, 'aprobacioncomercial'],
    );
    const approvalBody = JSON.parse(approval.body ?? '') as { mensaje: string[] };
    assert.deepEqual(approvalBody.mensaje, ['Factura no encontrada para esta Aprobación comercial.']);
    assert.deepEqual(approval.messages, [{ valor: 'Factura no encontrada para esta Aprobación comercial.' }]);

    const issuer = client.forTaxpayer({ cacheKey: 'tenant-faults', certificate: issuerCertificate });
    const used = nextEncf();
    const accepted = await issuer.sendEcf({ xml: signedEcf31(used).xml });
    assert.equal((await finalResult(issuer, accepted.trackId)).status, 'accepted');
    const anecf = buildAnecfXml({
      rncEmisor: ISSUER_RNC,
      annulledAt: '20-11-2026 10:00:00',
      ranges: [{ type: '31', from: used, to: used }],
    });
    assert.ok(anecf.success);
    const annulment = await failureOf(
      issuer.annulRanges({ xml: signXml(anecf.data, issuerCertificate).xml }),
    );
    assert.deepEqual([annulment.kind, annulment.reason, annulment.status], ['definite', 'rejected', 400]);
    const annulmentBody = JSON.parse(annulment.body ?? '') as { mensajes: string[] };
    assert.deepEqual(
      annulment.messages,
      annulmentBody.mensajes.map((valor) => ({ valor })),
    );
    assert.ok(
      annulmentBody.mensajes.includes('Las secuencias que está intentando anular han sido utilizadas'),
    );
  });

  test('injected rejection and conditional acceptance come back as final results, not errors', async () => {
    const taxpayer = clientOf().forTaxpayer({ cacheKey: 'tenant-faults', certificate: issuerCertificate });
    await injectFault({ service: 'recepcion', fault: 'reject', count: 1 });
    const rejected = await taxpayer.sendEcf({ xml: signedEcf31(nextEncf()).xml });
    const rejectedResult = await finalResult(taxpayer, rejected.trackId);
    assert.deepEqual([rejectedResult.codigo, rejectedResult.status], [2, 'rejected']);
    const raw = await rawGet(
      taxpayer,
      `/testecf/consultaresultado/api/consultas/estado?trackid=${rejected.trackId}`,
    );
    assert.deepEqual(rejectedResult.mensajes, (JSON.parse(raw.body) as { mensajes: unknown }).mensajes);

    await injectFault({ service: 'recepcion', fault: 'accept_conditional', count: 1 });
    const conditional = await taxpayer.sendEcf({ xml: signedEcf31(nextEncf()).xml });
    const conditionalResult = await finalResult(taxpayer, conditional.trackId);
    assert.deepEqual(
      [conditionalResult.codigo, conditionalResult.status, conditionalResult.isFinal],
      [4, 'accepted_conditional', true],
    );
  });
});
