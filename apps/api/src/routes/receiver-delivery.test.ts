import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedApiKey, seedDocument } from '@ecf/db';
import {
  buildArecfXml,
  createTestCertificate,
  loadCertificate,
  signXml,
  type TSigningCertificate,
} from '@ecf/fiscal-core';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../../test/test-api.ts';
import { nextEncf, storeSignedXml } from '../../test/submissions.ts';

const BUYER_RNC = '201000201';
let api: TTestApi;
let account: Awaited<ReturnType<typeof seedTenantWithKey>>;
let buyerCertificate: TSigningCertificate;
let issuerCertificate: TSigningCertificate;

function certificateOf(rnc: string): TSigningCertificate {
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('certificate');
  return loaded.data;
}

before(async () => {
  api = await startTestApi();
  account = await seedTenantWithKey(api.database);
  buyerCertificate = certificateOf(BUYER_RNC);
  issuerCertificate = certificateOf(account.tenant.rnc);
});
after(async () => {
  await api.close();
});

/** An accepted document whose receiver delivery ended uncertain. */
async function seedUncertain(tenant = account.tenant) {
  const encf = nextEncf('31');
  const document = await seedDocument(api.database, { tenantId: tenant.id, encf, status: 'accepted' });
  const ecf =
    `<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>31</TipoeCF><eNCF>${encf}</eNCF></IdDoc>` +
    `<Emisor><RNCEmisor>${tenant.rnc}</RNCEmisor></Emisor><Comprador><RNCComprador>${BUYER_RNC}</RNCComprador></Comprador></Encabezado>` +
    '<FechaHoraFirma>01-04-2026 10:15:00</FechaHoraFirma></ECF>';
  await storeSignedXml(api.database, document, signXml(ecf, issuerCertificate).xml);
  await api.database.receiverDelivery.create({
    data: {
      documentId: document.id,
      tenantId: tenant.id,
      status: 'uncertain',
      attempts: 6,
      targetUrl: 'https://buyer.example/fe/recepcion/api/ecf',
    },
  });
  return document;
}

function arecfOf(
  document: { encf: string },
  signer = buyerCertificate,
  rncEmisor = account.tenant.rnc,
): string {
  const built = buildArecfXml({
    rncEmisor,
    rncComprador: BUYER_RNC,
    encf: document.encf,
    estado: 'received',
    acknowledgedAt: '01-04-2026 10:20:00',
  });
  if (!built.success) throw new Error('arecf');
  return signXml(built.data, signer).xml;
}

function reconcile(documentId: string, body: unknown, key = account.key, environment = 'TesteCF') {
  return api.app.inject({
    method: 'POST',
    url: `/${environment}/documentos-ecf/${documentId}/entrega-receptor/reconciliar`,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

const withoutCorrelation = (body: Record<string, unknown>) => ({ ...body, correlationId: undefined });

test('200: uncertain → sent with a verified ARECF; the replay answers the same; then other outcomes are 409', async () => {
  const document = await seedUncertain();
  const body = {
    outcome: 'sent',
    evidence: { arecfXml: arecfOf(document) },
    note: 'ARECF forwarded by the buyer',
  };
  const first = await reconcile(document.id, body);
  assert.equal(first.statusCode, 200, first.body);
  const answer = first.json();
  assert.equal(answer.ok, true);
  assert.equal(answer.receiverDelivery.status, 'sent');
  assert.equal(answer.receiverDelivery.reconciliation.evidence.signer.holderId, BUYER_RNC);
  assert.ok(answer.correlationId);

  const replay = await reconcile(document.id, body);
  assert.equal(replay.statusCode, 200);
  assert.deepEqual(withoutCorrelation(replay.json()), withoutCorrelation(answer));

  const conflict = await reconcile(document.id, { outcome: 'dispatch_failed' });
  assert.equal(conflict.statusCode, 409);
  assert.equal(conflict.json().error.code, 'RECEIVER_DELIVERY_OUTCOME_CONFLICT');
  assert.equal(conflict.json().error.details.reason, 'outcome_differs');
});

test('409: evidence that does not fit, a missing ARECF for sent, a delivery that is not uncertain', async () => {
  const document = await seedUncertain();
  const foreign = await reconcile(document.id, {
    outcome: 'sent',
    evidence: { arecfXml: arecfOf(document, issuerCertificate) },
  });
  assert.equal(foreign.statusCode, 409);
  assert.deepEqual(
    [foreign.json().error.code, foreign.json().error.details.reason],
    ['RECEIVER_DELIVERY_EVIDENCE_INVALID', 'signer_is_issuer'],
  );
  const otherDocument = await reconcile(document.id, {
    outcome: 'sent',
    evidence: { arecfXml: arecfOf({ encf: nextEncf('31') }) },
  });
  assert.deepEqual(
    [otherDocument.statusCode, otherDocument.json().error.details.reason],
    [409, 'encf_mismatch'],
  );
  const missing = await reconcile(document.id, { outcome: 'sent' });
  assert.deepEqual([missing.statusCode, missing.json().error.details.reason], [409, 'evidence_required']);

  const accepted = await seedDocument(api.database, {
    tenantId: account.tenant.id,
    encf: nextEncf('31'),
    status: 'accepted',
  });
  await api.database.receiverDelivery.create({
    data: { documentId: accepted.id, tenantId: account.tenant.id, status: 'sent', attempts: 1 },
  });
  const notUncertain = await reconcile(accepted.id, { outcome: 'dispatch_failed' });
  assert.equal(notUncertain.statusCode, 409);
  assert.deepEqual(
    [notUncertain.json().error.code, notUncertain.json().error.details.status],
    ['RECEIVER_DELIVERY_NOT_UNCERTAIN', 'sent'],
  );
});

test("404 for another account's document or an unknown one; 400 for bad input; 403 without the scope", async () => {
  const other = await seedTenantWithKey(api.database);
  const theirs = await seedUncertain(other.tenant);
  const foreign = await reconcile(theirs.id, { outcome: 'dispatch_failed' });
  assert.deepEqual([foreign.statusCode, foreign.json().error.code], [404, 'NOT_FOUND']);
  assert.equal((await reconcile(randomUUID(), { outcome: 'dispatch_failed' })).statusCode, 404);
  assert.equal(
    (await api.database.receiverDelivery.findUniqueOrThrow({ where: { documentId: theirs.id } })).status,
    'uncertain',
  );

  const mine = await seedUncertain();
  for (const [documentId, body] of [
    ['not-a-uuid', { outcome: 'dispatch_failed' }],
    [mine.id, { outcome: 'delivered' }],
    [mine.id, { outcome: 'dispatch_failed', extra: true }],
    [mine.id, { outcome: 'sent', evidence: { arecfXml: '' } }],
    [mine.id, []],
  ] as const) {
    const response = await reconcile(documentId, body);
    assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
    assert.equal(response.json().error.code, 'INVALID_REQUEST');
  }
  const { key: readOnly } = await seedApiKey(api.database, {
    tenantId: account.tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:read', 'status:read'],
  });
  const forbidden = await reconcile(mine.id, { outcome: 'dispatch_failed' }, readOnly);
  assert.deepEqual([forbidden.statusCode, forbidden.json().error.code], [403, 'INSUFFICIENT_SCOPE']);
  const { key: admin } = await seedApiKey(api.database, {
    tenantId: account.tenant.id,
    environment: 'TesteCF',
    scopes: ['tenant:admin'],
  });
  const reconciled = await reconcile(mine.id, { outcome: 'dispatch_failed' }, admin);
  assert.equal(reconciled.statusCode, 200, reconciled.body);
  assert.equal(reconciled.json().receiverDelivery.reconciliation.evidence, null);
});

test('the route is in /openapi.json with its request schema and 409 codes', async () => {
  const document = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  // Documented under the environment's server (`/{environment}`), without the prefix.
  const operation = document.paths['/documentos-ecf/{documentId}/entrega-receptor/reconciliar'].post;
  assert.ok(operation.requestBody.content['application/json'].schema.properties.evidence);
  for (const status of ['200', '400', '401', '403', '404', '409'])
    assert.ok(operation.responses[status], status);
  assert.match(operation.responses['409'].description, /RECEIVER_DELIVERY_EVIDENCE_INVALID/);
});
