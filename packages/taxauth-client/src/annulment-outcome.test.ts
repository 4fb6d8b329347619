/**
 * ANECF outcomes as the API needs them (accepted / rejected / uncertain / not sent), against the real
 * simulator over HTTP with its faults: a partial annulment and every "no answer" are `uncertain`
 * (never resent), a refusal by the annulment service is `rejected`, a failure before the upload is `not_sent`.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, afterEach, before, test } from 'node:test';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import {
  buildAnecfXml,
  createTestCertificate,
  loadCertificate,
  signXml,
  type TAnnulmentRange,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { startSimulator } from '@ecf/taxauth-sim';
import {
  annulmentOutcomeOf,
  annulmentOutcomeOfAnswer,
  annulmentOutcomeOfError,
  createTaxauthClient,
  TaxauthError,
  type TAnnulmentOutcome,
  type TTaxauthClientOptions,
} from './index.ts';

const ISSUER_RNC = '131880738';
const OTHER_RNC = '130862346';

let database: TTestDatabase;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let issuerCertificate: TSigningCertificate;
let otherCertificate: TSigningCertificate;
let sequence = 5000;

function certificateFor(rnc: string): TSigningCertificate {
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(`certificate for ${rnc} did not load`);
  return loaded.data;
}

/** A fresh range of `size` type-31 eNCF. */
function nextRange(size = 3): TAnnulmentRange {
  const from = `E31${String(sequence + 1).padStart(10, '0')}`;
  sequence += size;
  return { type: '31', from, to: `E31${String(sequence).padStart(10, '0')}` };
}

function signedAnecf(ranges: TAnnulmentRange[], certificate = issuerCertificate, rnc = ISSUER_RNC): string {
  const built = buildAnecfXml({ rncEmisor: rnc, annulledAt: '20-11-2026 10:00:00', ranges });
  if (!built.success) throw new Error(JSON.stringify(built.issues));
  return signXml(built.data, certificate).xml;
}

function taxpayerOf(
  options: Partial<TTaxauthClientOptions> = {},
  certificate = issuerCertificate,
  cacheKey = 'issuer',
) {
  const base = simulator.baseUrl;
  return createTaxauthClient({
    environment: 'TesteCF',
    baseUrls: { ecf: base, fc: base, status: base },
    timeoutMs: 5000,
    ...options,
  }).forTaxpayer({ cacheKey, certificate });
}

async function injectFault(fault: { service: string; fault: string; count?: number }): Promise<void> {
  const response = await fetch(`${simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'testecf', ...fault }),
  });
  assert.equal(response.status, 201, await response.text());
}

async function outcomeOf(
  xml: string,
  options: Partial<TTaxauthClientOptions> = {},
): Promise<TAnnulmentOutcome> {
  const taxpayer = taxpayerOf(options);
  return annulmentOutcomeOf(() => taxpayer.annulRanges({ xml }));
}

before(async () => {
  issuerCertificate = certificateFor(ISSUER_RNC);
  otherCertificate = certificateFor(OTHER_RNC);
  database = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: database.url,
    xsdDirectory: OFFICIAL_XSD_DIRECTORY,
    tokenSecret: 'annulment-outcome-secret',
    processingDelayMs: 0,
    logLevel: 'silent',
  });
});
after(async () => {
  await simulator?.close();
  await database?.drop();
});
afterEach(async () => {
  await fetch(`${simulator.baseUrl}/_sim/faults`, { method: 'DELETE' });
});

test('codigo 1 is accepted; the same range again is accepted too (nothing of it was used)', async () => {
  const range = nextRange();
  const outcome = await outcomeOf(signedAnecf([range]));
  assert.equal(outcome.state, 'accepted');
  assert.deepEqual(outcome.messages, [{ valor: 'Las secuencias fueron anuladas correctamente.' }]);
  assert.equal((await outcomeOf(signedAnecf([range]))).state, 'accepted');
});

test('a refusal by the annulment service is rejected (definitive), with its messages', async () => {
  // A reversed range is refused with DGII's text (our builder would refuse it, so the XML is edited).
  const range = nextRange();
  const built = buildAnecfXml({ rncEmisor: ISSUER_RNC, annulledAt: '20-11-2026 10:00:00', ranges: [range] });
  assert.ok(built.success);
  const reversed = signXml(
    built.data
      .replace(`<SecuenciaeNCFDesde>${range.from}`, `<SecuenciaeNCFDesde>${range.to}`)
      .replace(`<SecuenciaeNCFHasta>${range.to}`, `<SecuenciaeNCFHasta>${range.from}`),
    issuerCertificate,
  ).xml;
  const outcome = await outcomeOf(reversed);
  assert.equal(outcome.state, 'rejected');
  assert.equal(outcome.state === 'rejected' ? outcome.error?.status : undefined, 400);
  assert.deepEqual(outcome.messages, [
    {
      valor: `El valor del campoSecuenciaeNCFDesde es mayor al del campo SecuenciaeNCFHasta: ${range.to} - ${range.from}`,
    },
  ]);

  // Signed by another taxpayer's certificate: refused by the annulment service as not delegated.
  const other = taxpayerOf({}, otherCertificate, 'other');
  const foreign = await annulmentOutcomeOf(() => other.annulRanges({ xml: signedAnecf([nextRange()]) }));
  assert.equal(foreign.state, 'rejected');
  assert.equal(foreign.state === 'rejected' ? foreign.error?.reason : undefined, 'not_delegated');
});

test('a partial annulment is uncertain (partial_annulment), never accepted', async () => {
  await injectFault({ service: 'anulacionrangos', fault: 'partial_annulment', count: 1 });
  const outcome = await outcomeOf(signedAnecf([nextRange(), nextRange()]));
  assert.equal(outcome.state, 'uncertain');
  assert.equal(outcome.state === 'uncertain' ? outcome.cause : undefined, 'partial_annulment');
  assert.equal(outcome.state === 'uncertain' ? outcome.answer?.codigo : undefined, '3');
  assert.match(outcome.messages[0]?.valor ?? '', /Con excepción de las secuencias del detalle/);
});

test('no answer after the upload (lost answer, 503, timeout) is uncertain (no_answer)', async () => {
  for (const fault of ['lose_answer', 'http_503', 'timeout']) {
    // The token first, so that the fault hits the upload and not the authentication.
    const taxpayer = taxpayerOf({ timeoutMs: 500 }, issuerCertificate, `uncertain-${fault}`);
    await taxpayer.authenticate();
    await injectFault({ service: 'anulacionrangos', fault, count: 1 });
    const outcome = await annulmentOutcomeOf(() => taxpayer.annulRanges({ xml: signedAnecf([nextRange()]) }));
    assert.equal(outcome.state, 'uncertain', fault);
    assert.equal(outcome.state === 'uncertain' ? outcome.cause : undefined, 'no_answer', fault);
    assert.equal(outcome.state === 'uncertain' ? outcome.error?.isOutcomeUnknown : undefined, true, fault);
  }
});

test('a failure before the upload is not_sent: authentication down (retryable), not delegated (not retryable)', async () => {
  await injectFault({ service: 'autenticacion', fault: 'auth_down' });
  let outcome = await outcomeOf(signedAnecf([nextRange()]));
  assert.equal(outcome.state, 'not_sent');
  assert.equal(outcome.state === 'not_sent' ? outcome.retryable : undefined, true);
  assert.equal(outcome.state === 'not_sent' ? outcome.error.reason : undefined, 'auth_unavailable');
  await fetch(`${simulator.baseUrl}/_sim/faults`, { method: 'DELETE' });

  await injectFault({ service: 'autenticacion', fault: 'not_delegated', count: 1 });
  const fresh = taxpayerOf({}, issuerCertificate, 'not-delegated');
  outcome = await annulmentOutcomeOf(() => fresh.annulRanges({ xml: signedAnecf([nextRange()]) }));
  assert.equal(outcome.state, 'not_sent');
  assert.equal(outcome.state === 'not_sent' ? outcome.retryable : undefined, false);
  assert.equal(outcome.state === 'not_sent' ? outcome.error.service : undefined, 'autenticacion');
});

test('a refused connection (nothing listening) is not_sent and retryable', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const port = typeof address === 'object' && address !== null ? address.port : 9;
  const dead = `http://127.0.0.1:${port}`;
  const taxpayer = createTaxauthClient({
    environment: 'TesteCF',
    baseUrls: { ecf: dead, fc: dead, status: dead },
    timeoutMs: 2000,
  }).forTaxpayer({ cacheKey: 'dead', certificate: issuerCertificate });
  const outcome = await annulmentOutcomeOf(() => taxpayer.annulRanges({ xml: signedAnecf([nextRange()]) }));
  assert.equal(outcome.state, 'not_sent');
  assert.equal(outcome.state === 'not_sent' ? outcome.retryable : undefined, true);
});

test('answers and errors classified without a network: codigo 2 in a 2xx, unknown codigo, foreign errors', () => {
  assert.equal(
    annulmentOutcomeOfAnswer({ rnc: ISSUER_RNC, codigo: '2', nombre: 'Rechazado', mensajes: [] }).state,
    'rejected',
  );
  const unknown = annulmentOutcomeOfAnswer({ rnc: ISSUER_RNC, codigo: '9', nombre: 'Otro', mensajes: [] });
  assert.equal(unknown.state === 'uncertain' ? unknown.cause : unknown.state, 'unknown_answer');
  assert.equal(
    annulmentOutcomeOfAnswer({ rnc: ISSUER_RNC, codigo: 1, nombre: 'Aceptado', mensajes: [] }).state,
    'accepted',
  );
  const malformed = new TaxauthError({
    reason: 'malformed_answer',
    service: 'anulacionrangos',
    message: 'not JSON',
    status: 200,
    isOutcomeUnknown: true,
  });
  assert.equal(annulmentOutcomeOfError(malformed).state, 'uncertain');
  const limited = new TaxauthError({
    reason: 'rate_limited',
    service: 'anulacionrangos',
    message: '429',
    status: 429,
  });
  assert.equal(annulmentOutcomeOfError(limited).state, 'not_sent');
  assert.throws(() => annulmentOutcomeOfError(new RangeError('bug')), RangeError);
});
