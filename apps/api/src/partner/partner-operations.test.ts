// The Partner facades: documents (production and testecf) with their PDF, plans (402, 429) and
// production (423), annulments sent to the tax authority simulator, sequences, inbound; Partner
// webhooks and their events; certificate upload sessions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  createCertificateKeyring,
  createPartner,
  createPartnerKey,
  fanOutWebhookEvents,
  scanCertificateExpiry,
  storeTenantCertificate,
  updatePartner,
} from '@ecf/services';
import { seedApiKey, seedDocument, type TEnqueue } from '@ecf/db';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { startTestApi, TEST_XSD_DIRECTORY, type TTestApi } from '../../test/test-api.ts';
import { simplifiedE31 } from '../../test/submissions.ts';
import { pdfText, seedPrintableDocument } from '../../test/printed-documents.ts';
import { ZPartnerEnvironment } from '@ecf/contract';
import { freshRnc, loadRegistryWith, seedAccount, seedPartner } from '../../test/partner-support.ts';

const MASTER_KEY = Buffer.alloc(32, 9).toString('base64');
let api: TTestApi;
let simulatorDatabase: TTestDatabase;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
before(async () => {
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    port: 0,
  });
  api = await startTestApi(
    {
      PSFE_PARTNER_API_ENABLED: 'true',
      CERTIFICATE_MASTER_KEY: MASTER_KEY,
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      PARTNER_PLAN_QUOTAS: 'starter=1000,tiny=1',
    },
    undefined,
    {
      taxauthClientFor: createTaxauthClients({
        baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl },
        timeoutMs: 3000,
      }),
    },
  );
});
after(async () => {
  await api?.close();
  await simulator?.close();
  await simulatorDatabase?.drop();
});

/** An account of the Partner with its certificate installed (the keyring of CERTIFICATE_MASTER_KEY). */
async function accountWithCertificate(partnerId: string) {
  const account = await seedAccount(api.database, partnerId);
  const certificate = createTestCertificate({ rnc: account.rnc, commonName: 'Firmante' });
  await storeTenantCertificate({
    database: api.database,
    keyring: createCertificateKeyring({ currentKey: MASTER_KEY }),
    tenantId: account.tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  return account;
}

function call(
  method: string,
  url: string,
  options: { key: string; body?: unknown; headers?: Record<string, string> },
) {
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  return api.app.inject({
    method: method as 'GET',
    url,
    headers: {
      'x-partner-key': options.key,
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(hasBody
      ? { payload: typeof options.body === 'string' ? options.body : JSON.stringify(options.body ?? {}) }
      : {}),
  });
}

const recordingEnqueue = (): TEnqueue => async () => undefined;

/** A delivery's stored body, parsed. */
type TPayload = {
  type: string;
  environment: string;
  fiscalAccountId: string;
  externalTenantId: string;
  schemaVersion: string;
  correlationId: string | null;
  resource: { kind: string; id: string; state?: string };
  data: Record<string, unknown>;
};
const payloadOf = (delivery: { body: Uint8Array }): TPayload =>
  JSON.parse(Buffer.from(delivery.body).toString('utf8')) as TPayload;

test('testecf: preflight, emission (202, Partner naming), replay, status batch, document, XML/PDF not yet; rule 18 warnings from the registry', async () => {
  const { partner, keys } = await seedPartner(api.database, { paid: false });
  const account = await seedAccount(api.database, partner.id);
  const base = `/partner/v1/fiscal-accounts/${account.id}/testecf/documents`;
  const submission = simplifiedE31({ buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' } });
  // The document's bytes are kept as sent (decimal text), inside { document }.
  const raw = `{"document": ${JSON.stringify(submission)}}`;

  const preflight = await call('POST', `${base}?validate=true`, { key: keys.onboarding, body: raw });
  assert.equal(preflight.statusCode, 200, preflight.body);
  assert.equal(preflight.json().status, 'validated');
  assert.equal(preflight.json().environment, 'testecf');
  // The registry is loaded (seedAccount) and the buyer is not in it: a warning, never a refusal.
  assert.ok(
    preflight
      .json()
      .warnings.some((warning: { code: string }) => warning.code === 'BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY'),
    preflight.body,
  );
  // The onboarding profile cannot emit; runtime can, without a paid plan (testecf needs none).
  assert.equal((await call('POST', base, { key: keys.onboarding, body: raw })).statusCode, 403);
  const issued = await call('POST', base, { key: keys.runtime, body: raw });
  assert.equal(issued.statusCode, 202, issued.body);
  const body = issued.json();
  assert.equal(body.environment, 'testecf');
  assert.equal(body.fiscalAccountId, account.id);
  assert.equal(body.status, 'queued_for_signing');
  const replay = await call('POST', base, { key: keys.runtime, body: raw });
  assert.equal(replay.json().documentId, body.documentId);

  const batch = await call('POST', `${base}/status/batch`, {
    key: keys.runtime,
    body: { documentIds: [body.documentId], encfs: ['E310000009999'] },
  });
  assert.equal(batch.statusCode, 200, batch.body);
  assert.equal(batch.json().found[0].documentId, body.documentId);
  assert.deepEqual(batch.json().unfound, ['E310000009999']);
  const one = await call('GET', `${base}/${body.documentId}`, { key: keys.runtime });
  assert.equal(one.json().document.status, 'queued_for_signing');
  assert.equal((await call('GET', `${base}/${randomUUID()}`, { key: keys.runtime })).statusCode, 404);
  const xml = await call('GET', `${base}/${body.documentId}/xml`, { key: keys.runtime });
  assert.equal(xml.statusCode, 409);
  assert.equal(xml.json().error.code, 'DOCUMENT_NOT_SIGNED');
  // The same document is not reachable as production.
  const production = await call(
    'GET',
    `/partner/v1/fiscal-accounts/${account.id}/production/documents/${body.documentId}`,
    {
      key: keys.runtime,
    },
  );
  assert.equal(production.statusCode, 404);
  // Nothing counted in the plan.
  const usage = await call('GET', '/partner/v1/billing/usage', { key: keys.runtime });
  assert.equal(usage.json().accepted, 0);
});

test('production emission: 423 until production is active, then 402 without a paid plan (billingUrl), grace of an overdue payment, 429 PLAN_LIMIT_EXCEEDED', async () => {
  const { partner, keys } = await seedPartner(api.database, { paid: false });
  const account = await seedAccount(api.database, partner.id);
  const url = `/partner/v1/fiscal-accounts/${account.id}/production/documents`;
  const emit = () => call('POST', url, { key: keys.runtime, body: { document: simplifiedE31() } });
  const locked = await emit();
  assert.equal(locked.statusCode, 423);
  assert.equal(locked.json().error.code, 'PRODUCTION_NOT_ACTIVE');
  // Preflight needs no production (no fiscal effect).
  assert.equal(
    (await call('POST', `${url}?validate=true`, { key: keys.runtime, body: { document: simplifiedE31() } }))
      .statusCode,
    200,
  );
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'active' } });
  const unpaid = await emit();
  assert.equal(unpaid.statusCode, 402);
  assert.equal(unpaid.json().error.code, 'PAYMENT_REQUIRED');
  assert.equal(unpaid.json().error.details.billingUrl, 'https://billing.example.com/pay');
  // A direct eCF key of the same account meets the same plan (the rule is the emission's, not the route's).
  const { key: directKey } = await seedApiKey(api.database, { tenantId: account.id, environment: 'eCF' });
  const emitDirect = (key: string) =>
    api.app.inject({
      method: 'POST',
      url: '/eCF/documentos-ecf',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify(simplifiedE31()),
    });
  const unpaidDirect = await emitDirect(directKey);
  assert.equal(unpaidDirect.statusCode, 402, unpaidDirect.body);
  assert.equal(unpaidDirect.json().error.code, 'PAYMENT_REQUIRED');
  assert.equal(unpaidDirect.json().error.details.billingUrl, 'https://billing.example.com/pay');
  await updatePartner({ database: api.database, partnerId: partner.id, input: { paidStatus: 'overdue' } });
  const grace = await emit();
  assert.equal(grace.statusCode, 202, grace.body);
  assert.equal(grace.json().environment, 'production');
  // After the grace period (7 days by default) the overdue plan stops eCF emission.
  await api.database.partner.update({
    where: { id: partner.id },
    data: { overdueSince: new Date(Date.now() - 8 * 86_400_000) },
  });
  assert.equal((await emit()).statusCode, 402);

  // The quota is of accepted e-CF across every account of the Partner.
  const small = await createPartner({
    database: api.database,
    input: { name: 'Tiny', plan: 'tiny', paidStatus: 'paid' },
  });
  const smallKey = (await createPartnerKey({ database: api.database, partnerId: small.id, name: 'k' })).key;
  const first = await seedAccount(api.database, small.id);
  const second = await seedAccount(api.database, small.id);
  await api.database.tenant.updateMany({
    where: { id: { in: [first.id, second.id] } },
    data: { productionState: 'active' },
  });
  await seedDocument(api.database, {
    tenantId: first.id,
    environment: 'eCF',
    encf: 'E310000000001',
    status: 'accepted',
  });
  const over = await call('POST', `/partner/v1/fiscal-accounts/${second.id}/production/documents`, {
    key: smallKey,
    body: { document: simplifiedE31() },
  });
  assert.equal(over.statusCode, 429, over.body);
  assert.equal(over.json().error.code, 'PLAN_LIMIT_EXCEEDED');
  assert.deepEqual(
    { quota: over.json().error.details.quota, used: over.json().error.details.used },
    { quota: 1, used: 1 },
  );
  assert.ok(Number(over.headers['retry-after']) >= 1);
  const { key: secondDirectKey } = await seedApiKey(api.database, {
    tenantId: second.id,
    environment: 'eCF',
  });
  const overDirect = await emitDirect(secondDirectKey);
  assert.equal(overDirect.statusCode, 429, overDirect.body);
  assert.equal(overDirect.json().error.code, 'PLAN_LIMIT_EXCEEDED');
  assert.ok(Number(overDirect.headers['retry-after']) >= 1);
  // testecf is never limited by the plan.
  const test = await call('POST', `/partner/v1/fiscal-accounts/${second.id}/testecf/documents`, {
    key: smallKey,
    body: { document: simplifiedE31() },
  });
  assert.equal(test.statusCode, 202, test.body);
});

test('sequences, annulment prevalidation and the Idempotency-Key of a send; 423 before production (ranges, annulments, inbound) on both routes', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  const base = `/partner/v1/fiscal-accounts/${account.id}/production`;
  const year = new Date().getUTCFullYear() + 1;
  const sequence = {
    type: 'E31',
    from: 'E310000000001',
    to: 'E310000000100',
    sequenceExpirationDate: `${year}-12-31`,
  };
  const range = { type: 'E31', from: 'E310000000050', to: 'E310000000060' };
  // Not yet authorized in production: the tax authority has no production sequence of this
  // account to register or annul (423, nothing stored or sent), whatever the route.
  const { key: directKey } = await seedApiKey(api.database, {
    tenantId: account.id,
    environment: 'eCF',
    scopes: ['tenant:admin'],
  });
  const direct = (url: string, body: unknown) =>
    api.app.inject({
      method: 'POST',
      url,
      headers: {
        'x-api-key': directKey,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      payload: JSON.stringify(body),
    });
  for (const refused of [
    await call('POST', `${base}/sequences`, { key: keys.runtime, body: sequence }),
    await call('POST', `${base}/annulments`, {
      key: keys.runtime,
      body: { ranges: [range] },
      headers: { 'idempotency-key': randomUUID() },
    }),
    await direct('/eCF/secuencias', sequence),
    await direct('/eCF/anulaciones-ecf', { ranges: [range] }),
  ]) {
    assert.equal(refused.statusCode, 423, refused.body);
    assert.equal(refused.json().error.code, 'PRODUCTION_NOT_ACTIVE');
  }
  assert.equal(await api.database.annulment.count({ where: { tenantId: account.id } }), 0);
  // Prevalidation has no fiscal effect: open before production, like a document preflight.
  const early = await call('POST', `${base}/annulments/prevalidate`, {
    key: keys.runtime,
    body: { ranges: [range] },
  });
  assert.equal(early.statusCode, 200, early.body);
  const suspended = { productionState: 'suspended' as const };
  await api.database.tenant.update({ where: { id: account.id }, data: suspended });
  assert.equal((await direct('/eCF/secuencias', sequence)).statusCode, 423);
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'active' } });
  const registered = await call('POST', `${base}/sequences`, { key: keys.runtime, body: sequence });
  assert.equal(registered.statusCode, 201, registered.body);
  assert.equal(registered.json().environment, 'production');
  const list = await call('GET', `${base}/sequences`, { key: keys.runtime });
  assert.equal(list.json().items.length, 1);
  const ranges = { ranges: [{ type: 'E31', from: 'E310000000050', to: 'E310000000060' }] };
  const prevalidated = await call('POST', `${base}/annulments/prevalidate`, {
    key: keys.runtime,
    body: ranges,
  });
  assert.equal(prevalidated.statusCode, 200, prevalidated.body);
  assert.equal(prevalidated.json().totalEncf, 11);
  const noKey = await call('POST', `${base}/annulments`, { key: keys.runtime, body: ranges });
  assert.equal(noKey.statusCode, 428);
  assert.equal(noKey.json().error.code, 'ANECF_IDEMPOTENCY_KEY_REQUIRED');
  const annulments = await call('GET', `${base}/annulments`, { key: keys.runtime });
  assert.deepEqual(annulments.json().items, []);
  assert.equal(
    (await call('GET', `${base}/annulments/${randomUUID()}`, { key: keys.runtime })).statusCode,
    404,
  );
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'pending' } });
  const inboundLocked = await call('GET', `${base}/inbound-documents`, { key: keys.runtime });
  assert.equal(inboundLocked.statusCode, 423);
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'active' } });
  const { seedInbound } = await import('@ecf/db');
  await seedInbound(api.database, {
    tenantId: account.id,
    environment: 'eCF',
    issuerRnc: '101672919',
    encf: 'E310000000077',
  });
  const inbound = await call('GET', `${base}/inbound-documents?documentType=31&limit=100`, {
    key: keys.runtime,
  });
  assert.equal(inbound.statusCode, 200, inbound.body);
  assert.equal(inbound.json().items.length, 1);
  assert.equal(inbound.json().items[0].environment, 'production');
  const tooMany = await call('GET', `${base}/inbound-documents?limit=101`, { key: keys.runtime });
  assert.equal(tooMany.statusCode, 400);
  const approval = await call('POST', `${base}/inbound-documents/${randomUUID()}/commercial-approval`, {
    key: keys.runtime,
    body: { decision: 'accept', approvalDate: new Date().toISOString() },
  });
  assert.equal(approval.statusCode, 404);
});

test('production annulment sent to the tax authority (simulator): 202 accepted with its covered document, replay 200, the same key with another body 409 IDEMPOTENCY_CONFLICT (the direct API’s ANECF_IDEMPOTENCY_CONFLICT), state, list', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await accountWithCertificate(partner.id);
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'active' } });
  const base = `/partner/v1/fiscal-accounts/${account.id}/production`;
  const range = { type: 'E31', from: 'E310000000200', to: 'E310000000249' };
  const signed = await seedDocument(api.database, {
    tenantId: account.id,
    environment: 'eCF',
    encf: 'E310000000210',
    status: 'signed',
  });
  const key = randomUUID();
  const send = (body: unknown, idempotencyKey: string) =>
    call('POST', `${base}/annulments`, {
      key: keys.runtime,
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });

  const sent = await send({ ranges: [range], reason: 'Caja 3' }, key);
  assert.equal(sent.statusCode, 202, sent.body);
  const body = sent.json();
  assert.equal(body.ok, true);
  assert.equal(body.status, 'accepted');
  assert.equal(body.environment, 'production');
  assert.equal(body.fiscalAccountId, account.id);
  assert.equal(body.reason, 'Caja 3');
  assert.equal(body.totalEncf, 50);
  assert.deepEqual(body.coveredDocuments.cancelled, [{ documentId: signed.id, encf: signed.encf }]);
  const document = await call('GET', `${base}/documents/${signed.id}`, { key: keys.runtime });
  assert.equal(document.json().document.status, 'cancelled', document.body);

  const replay = await send({ ranges: [range], reason: 'Caja 3' }, key);
  assert.equal(replay.statusCode, 200, replay.body);
  assert.equal(replay.json().annulmentId, body.annulmentId);
  assert.equal(replay.json().environment, 'production');
  // The same key with another body: the Partner API's name of the conflict, the direct one in details.
  const conflict = await send({ ranges: [range] }, key);
  assert.equal(conflict.statusCode, 409, conflict.body);
  assert.equal(conflict.json().error.code, 'IDEMPOTENCY_CONFLICT');
  assert.equal(conflict.json().error.details.directCode, 'ANECF_IDEMPOTENCY_CONFLICT');
  assert.equal(conflict.json().error.details.idempotencyKey, key);
  const { key: directKey } = await seedApiKey(api.database, {
    tenantId: account.id,
    environment: 'eCF',
    scopes: ['tenant:admin'],
  });
  const direct = await api.app.inject({
    method: 'POST',
    url: '/eCF/anulaciones-ecf',
    headers: { 'x-api-key': directKey, 'content-type': 'application/json', 'idempotency-key': key },
    payload: JSON.stringify({ ranges: [range] }),
  });
  assert.equal(direct.statusCode, 409, direct.body);
  assert.equal(direct.json().error.code, 'ANECF_IDEMPOTENCY_CONFLICT', 'the same conflict on the direct API');
  // An overlapping range under a new key: reserved by this annulment.
  const overlapping = await send(
    { ranges: [{ type: 'E31', from: 'E310000000249', to: 'E310000000260' }] },
    randomUUID(),
  );
  assert.equal(overlapping.statusCode, 409);
  assert.equal(overlapping.json().error.code, 'ANECF_RANGE_RESERVED');

  const state = await call('GET', `${base}/annulments/${body.annulmentId}`, { key: keys.runtime });
  assert.equal(state.statusCode, 200, state.body);
  assert.equal(state.json().status, 'accepted');
  assert.equal(state.json().environment, 'production');
  const list = await call('GET', `${base}/annulments?status=accepted`, { key: keys.runtime });
  assert.equal(list.statusCode, 200, list.body);
  assert.deepEqual(
    list
      .json()
      .items.map((item: { annulmentId: string; environment: string }) => [
        item.annulmentId,
        item.environment,
      ]),
    [[body.annulmentId, 'production']],
  );
  // Another Partner's key never reaches it.
  const stranger = await seedPartner(api.database);
  const hidden = await call('GET', `${base}/annulments/${body.annulmentId}`, { key: stranger.keys.full });
  assert.equal(hidden.json().error.code, 'FISCAL_ACCOUNT_NOT_FOUND');
});

test('PDF of production and testecf documents: printing.pdfUrl is the Partner route, letter-size pages read from the signed XML, the same text as the direct route; 409 and Accept as the direct route', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'active' } });
  for (const [family, environment, other] of [
    ['production', 'eCF', 'testecf'],
    ['testecf', 'TesteCF', 'production'],
  ] as const) {
    const base = `/partner/v1/fiscal-accounts/${account.id}/${family}/documents`;
    const printable = await seedPrintableDocument(api.database, account.id, {
      status: 'accepted',
      environment,
    });
    const id = printable.document.id;
    const status = await call('GET', `${base}/${id}`, { key: keys.runtime });
    assert.equal(status.statusCode, 200, status.body);
    const pdfUrl = status.json().document.printing.pdfUrl;
    assert.equal(pdfUrl, `${base}/${id}/pdf`);
    const pdf = await call('GET', pdfUrl, { key: keys.runtime, headers: { accept: 'application/pdf' } });
    assert.equal(pdf.statusCode, 200, pdf.body.slice(0, 300));
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(
      pdf.headers['content-disposition'],
      `attachment; filename="${account.rnc}${printable.document.encf}.pdf"`,
    );
    assert.equal(pdf.rawPayload.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = await pdfText(pdf.rawPayload);
    assert.ok(text.includes(printable.document.encf), 'eNCF printed');
    assert.ok(text.includes(printable.securityCode), 'security code printed');
    assert.ok(text.includes(printable.signedAt), 'signature date printed');
    assert.ok(text.includes('Factura de Crédito Fiscal Electrónica'));
    assert.ok(
      /MediaBox\s*\[\s*0\s+0\s+612(\.0+)?\s+792(\.0+)?\s*\]/.test(pdf.rawPayload.toString('latin1')),
      'letter size',
    );
    // The direct route of the same account and environment prints the same.
    const { key: directKey } = await seedApiKey(api.database, {
      tenantId: account.id,
      environment,
      scopes: ['ecf:read'],
    });
    const direct = await api.app.inject({
      method: 'GET',
      url: `/${environment}/documentos-ecf/${id}/pdf`,
      headers: { 'x-api-key': directKey },
    });
    assert.equal(direct.statusCode, 200, direct.body.slice(0, 300));
    assert.equal(await pdfText(direct.rawPayload), text);
    // Accept honoured (clarification 17); the other family does not have it.
    const xmlOnly = await call('GET', pdfUrl, { key: keys.runtime, headers: { accept: 'application/xml' } });
    assert.equal(xmlOnly.statusCode, 400, xmlOnly.body);
    assert.equal(xmlOnly.json().error.code, 'NOT_ACCEPTABLE');
    const elsewhere = await call(
      'GET',
      `/partner/v1/fiscal-accounts/${account.id}/${other}/documents/${id}/pdf`,
      {
        key: keys.runtime,
      },
    );
    assert.equal(elsewhere.statusCode, 404);
  }
  // Signed, not yet answered: the direct route's 409, as JSON.
  const waiting = await seedPrintableDocument(api.database, account.id, {
    status: 'signed',
    environment: 'eCF',
  });
  const early = await call(
    'GET',
    `/partner/v1/fiscal-accounts/${account.id}/production/documents/${waiting.document.id}/pdf`,
    { key: keys.runtime },
  );
  assert.equal(early.statusCode, 409);
  assert.match(String(early.headers['content-type']), /^application\/json/);
  assert.equal(early.json().error.code, 'RI_AWAITING_TAXAUTH_RESPONSE');
});

test('webhooks: create (201 + secret; same URL 200 replayed, no secret), patch, test, deliveries, replay, rotate, retire', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  const foreign = await seedAccount(api.database, (await seedPartner(api.database)).partner.id);
  const key = keys.webhooks;
  const created = await call('POST', '/partner/v1/webhook-endpoints', {
    key,
    body: { name: 'ERP', url: 'http://127.0.0.1:9/hook' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const endpoint = created.json().endpoint;
  assert.match(created.json().signingSecret, /.{20,}/);
  assert.ok(
    endpoint.eventTypes.includes('certificate.validated') &&
      endpoint.eventTypes.includes('document.received'),
  );
  assert.ok(
    !endpoint.eventTypes.includes('taxauth.public.receiver.ecf.received'),
    'the direct name is not a Partner type',
  );
  const replayed = await call('POST', '/partner/v1/webhook-endpoints', {
    key,
    body: { name: 'ERP', url: 'http://127.0.0.1:9/hook' },
  });
  assert.equal(replayed.statusCode, 200);
  assert.equal(replayed.json().replayed, true);
  assert.equal(replayed.json().signingSecret, undefined);
  assert.equal(replayed.json().endpoint.id, endpoint.id);
  const unknownType = await call('POST', '/partner/v1/webhook-endpoints', {
    key,
    body: { name: 'x', url: 'http://127.0.0.1:9/other', eventTypes: ['nope'] },
  });
  assert.equal(unknownType.json().error.code, 'INVALID_PARTNER_PAYLOAD');

  const paused = await call('PATCH', `/partner/v1/webhook-endpoints/${endpoint.id}`, {
    key,
    body: { status: 'paused' },
  });
  assert.equal(paused.json().endpoint.status, 'paused');
  // Every type of the contract's Partner list may be listed, webhook.test and the outage events included.
  const subscribed = await call('PATCH', `/partner/v1/webhook-endpoints/${endpoint.id}`, {
    key,
    body: {
      status: 'active',
      eventTypes: [
        'production.state_changed',
        'webhook.test',
        'taxauth.service_degraded',
        'taxauth.service_restored',
      ],
    },
  });
  assert.equal(subscribed.statusCode, 200, subscribed.body);
  assert.deepEqual(subscribed.json().endpoint.eventTypes, [
    'production.state_changed',
    'taxauth.service_degraded',
    'taxauth.service_restored',
    'webhook.test',
  ]);
  const tested = await call('POST', `/partner/v1/webhook-endpoints/${endpoint.id}/test`, {
    key,
    body: { fiscalAccountId: account.id, environment: 'testecf' },
    headers: { 'x-correlation-id': 'erp-test-0001' },
  });
  assert.equal(tested.statusCode, 202, tested.body);
  const foreignTest = await call('POST', `/partner/v1/webhook-endpoints/${endpoint.id}/test`, {
    key,
    body: { fiscalAccountId: foreign.id, environment: 'testecf' },
  });
  assert.equal(foreignTest.json().error.code, 'FISCAL_ACCOUNT_NOT_FOUND');
  const deliveries = await call('GET', '/partner/v1/webhook-deliveries?status=queued&limit=10', { key });
  assert.equal(deliveries.statusCode, 200, deliveries.body);
  const delivery = deliveries
    .json()
    .items.find((item: { deliveryId: string }) => item.deliveryId === tested.json().deliveryId);
  assert.equal(delivery.eventType, 'webhook.test');
  const stored = await api.database.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.deliveryId } });
  const payload = payloadOf(stored);
  assert.equal(payload.schemaVersion, 'partner.webhook.v1');
  assert.equal(payload.fiscalAccountId, account.id);
  assert.equal(payload.externalTenantId, account.externalTenantId);
  // The Partner API's name of the environment, and the test request's correlation id.
  assert.equal(payload.environment, 'testecf');
  assert.equal(tested.headers['x-correlation-id'], 'erp-test-0001');
  assert.equal(payload.correlationId, 'erp-test-0001');
  const one = await call('GET', `/partner/v1/webhook-deliveries/${delivery.deliveryId}`, { key });
  assert.equal(one.json().delivery.status, 'queued');
  const replay = await call('POST', `/partner/v1/webhook-deliveries/${delivery.deliveryId}/replay`, { key });
  assert.equal(replay.json().error.code, 'WEBHOOK_REPLAY_NOT_ALLOWED');
  // Another Partner sees none of it.
  const stranger = await seedPartner(api.database);
  assert.equal(
    (await call('GET', `/partner/v1/webhook-deliveries/${delivery.deliveryId}`, { key: stranger.keys.full }))
      .statusCode,
    404,
  );
  assert.equal(
    (
      await call('PATCH', `/partner/v1/webhook-endpoints/${endpoint.id}`, {
        key: stranger.keys.full,
        body: { name: 'x' },
      })
    ).statusCode,
    404,
  );

  const rotated = await call('POST', `/partner/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
    key,
    body: { overlapSeconds: 600 },
  });
  assert.equal(rotated.statusCode, 200, rotated.body);
  assert.ok(rotated.json().endpoint.overlapSeconds > 590);
  const again = await call('POST', `/partner/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {
    key,
    body: {},
  });
  assert.equal(again.json().error.code, 'WEBHOOK_ROTATION_IN_PROGRESS');
  const retired = await call('DELETE', `/partner/v1/webhook-endpoints/${endpoint.id}`, { key });
  assert.equal(retired.json().endpoint.status, 'retired');
  const afterRetire = await call('PATCH', `/partner/v1/webhook-endpoints/${endpoint.id}`, {
    key,
    body: { name: 'x' },
  });
  assert.equal(afterRetire.json().error.code, 'WEBHOOK_ENDPOINT_RETIRED');
  // The same URL again makes a new endpoint once the old one is retired.
  const fresh = await call('POST', '/partner/v1/webhook-endpoints', {
    key,
    body: { name: 'ERP', url: 'http://127.0.0.1:9/hook' },
  });
  assert.equal(fresh.statusCode, 201);
});

test("Partner events: the Partner's accounts' events reach its endpoints with the Partner payload; production.state_changed, certificate events", async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  const other = await seedPartner(api.database);
  const foreign = await seedAccount(api.database, other.partner.id);
  const created = await call('POST', '/partner/v1/webhook-endpoints', {
    key: keys.full,
    body: { name: 'events', url: 'http://127.0.0.1:9/events' },
  });
  const endpointId = created.json().endpoint.id;
  await api.database.tenant.update({ where: { id: account.id }, data: { productionState: 'pending' } });
  await api.database.tenant.update({ where: { id: foreign.id }, data: { productionState: 'pending' } });
  await seedDocument(api.database, {
    tenantId: account.id,
    environment: 'TesteCF',
    encf: 'E310000000501',
    status: 'queued_for_signing',
  });
  await fanOutWebhookEvents({ database: api.database, enqueue: recordingEnqueue(), now: () => new Date() });
  const deliveries = await api.database.webhookDelivery.findMany({ where: { endpointId } });
  const payloads = deliveries.map(payloadOf);
  const production = payloads.find((payload) => payload.type === 'production.state_changed');
  assert.ok(production, JSON.stringify(payloads.map((payload) => payload.type)));
  assert.equal(production.fiscalAccountId, account.id);
  assert.equal(production.externalTenantId, account.externalTenantId);
  assert.deepEqual(production.resource, { kind: 'production', id: account.id, state: 'pending' });
  assert.equal(production.data.fromState, 'not_requested');
  assert.ok(
    payloads.some((payload) => payload.type === 'ecf.queued' && payload.resource.kind === 'document'),
  );
  assert.ok(
    !payloads.some((payload) => payload.fiscalAccountId === foreign.id),
    "never another Partner's account",
  );

  // A certificate installed through an upload session: certificate.validated, once per environment.
  const certificate = createTestCertificate({
    rnc: account.rnc,
    commonName: 'Cliente',
    validTo: new Date(Date.now() + 10 * 86_400_000),
  });
  const session = await call(
    'POST',
    `/partner/v1/fiscal-accounts/${account.id}/certificate-upload-sessions`,
    {
      key: keys.full,
      body: { browserOrigin: 'https://erp.example.com' },
    },
  );
  const uploaded = await upload(
    session.json().uploadId,
    session.json().uploadToken,
    certificate.p12,
    certificate.password,
  );
  assert.equal(uploaded.statusCode, 200, uploaded.body);
  // And the daily scan: expiring (10 days left), once.
  assert.deepEqual(
    (await scanCertificateExpiry({ database: api.database, now: () => new Date() })).expiring.length,
    1,
  );
  assert.deepEqual(
    (await scanCertificateExpiry({ database: api.database, now: () => new Date() })).expiring.length,
    0,
  );
  await fanOutWebhookEvents({ database: api.database, enqueue: recordingEnqueue(), now: () => new Date() });
  const after = (await api.database.webhookDelivery.findMany({ where: { endpointId } })).map(payloadOf);
  const validated = after.filter((payload) => payload.type === 'certificate.validated');
  assert.deepEqual(validated.map((payload) => payload.environment).sort(), [
    'certecf',
    'production',
    'testecf',
  ]);
  assert.equal(validated[0]?.resource.kind, 'certificate');
  assert.equal(validated[0]?.resource.state, 'validated');
  assert.equal(after.filter((payload) => payload.type === 'certificate.expiring').length, 3);
});

/** A multipart upload of a certificate (`file`, `password`). */
function upload(uploadId: string, token: string, p12: Uint8Array, password: string, origin?: string) {
  const boundary = `----partner${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${password}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cert.p12"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
    ),
    Buffer.from(p12),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return api.app.inject({
    method: 'PUT',
    url: `/partner/v1/certificate-upload-sessions/${uploadId}`,
    headers: {
      authorization: `Upload ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(origin === undefined ? {} : { origin }),
    },
    payload,
  });
}

test('certificate upload sessions: origins, five attempts with attemptsRemaining, CORS, metadata, rotation, suspended Partner', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await seedAccount(api.database, partner.id);
  const sessions = `/partner/v1/fiscal-accounts/${account.id}/certificate-upload-sessions`;
  const key = keys.onboarding;
  const notHttps = await call('POST', sessions, { key, body: { browserOrigin: 'http://erp.example.com' } });
  assert.equal(notHttps.json().error.code, 'INVALID_BROWSER_ORIGIN');
  const withPath = await call('POST', sessions, {
    key,
    body: { browserOrigin: 'https://erp.example.com/upload' },
  });
  assert.equal(withPath.json().error.code, 'INVALID_BROWSER_ORIGIN');
  // A wildcard is no exact origin (400, not 422), even one stored before the validator refused it.
  await api.database.partnerBrowserOrigin.create({
    data: { partnerId: partner.id, origin: 'https://*.erp.example.com' },
  });
  for (const browserOrigin of [
    'https://*.erp.example.com',
    'https://*.example.com',
    'https://%2A.example.com',
  ]) {
    const wildcard = await call('POST', sessions, { key, body: { browserOrigin } });
    assert.equal(wildcard.statusCode, 400, `${browserOrigin}: ${wildcard.body}`);
    assert.equal(wildcard.json().error.code, 'INVALID_BROWSER_ORIGIN');
  }
  const notRegistered = await call('POST', sessions, {
    key,
    body: { browserOrigin: 'https://other.example.com' },
  });
  assert.equal(notRegistered.statusCode, 422);
  assert.equal(notRegistered.json().error.code, 'BROWSER_ORIGIN_NOT_ALLOWED');
  const rotationFirst = await call(
    'POST',
    `/partner/v1/fiscal-accounts/${account.id}/certificate-rotation-requests`,
    {
      key,
      body: { browserOrigin: 'https://erp.example.com' },
    },
  );
  assert.equal(rotationFirst.json().error.code, 'CERTIFICATE_NOT_ACTIVE');

  const session = await call('POST', sessions, { key, body: { browserOrigin: 'https://erp.example.com' } });
  assert.equal(session.statusCode, 201, session.body);
  const { uploadId, uploadToken } = session.json();
  const good = createTestCertificate({ rnc: account.rnc, commonName: 'Cliente' });

  // CORS preflight: only the session's origin.
  const preflight = await api.app.inject({
    method: 'OPTIONS',
    url: `/partner/v1/certificate-upload-sessions/${uploadId}`,
    headers: { origin: 'https://erp.example.com', 'access-control-request-method': 'PUT' },
  });
  assert.equal(preflight.statusCode, 204);
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://erp.example.com');
  const otherPreflight = await api.app.inject({
    method: 'OPTIONS',
    url: `/partner/v1/certificate-upload-sessions/${uploadId}`,
    headers: { origin: 'https://evil.example.com' },
  });
  assert.equal(otherPreflight.headers['access-control-allow-origin'], undefined);
  const wrongOrigin = await upload(
    uploadId,
    uploadToken,
    good.p12,
    good.password,
    'https://evil.example.com',
  );
  assert.equal(wrongOrigin.statusCode, 403);
  assert.equal((await upload(uploadId, 'ecfu_wrong', good.p12, good.password)).statusCode, 401);

  // Wrong password four times, a wrong file once: five attempts, each saying how many are left.
  const remaining = [];
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const refused = await upload(uploadId, uploadToken, good.p12, 'wrong', 'https://erp.example.com');
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.json().error.code, 'CERTIFICATE_PASSWORD_INVALID');
    assert.equal(refused.headers['access-control-allow-origin'], 'https://erp.example.com');
    remaining.push(refused.json().error.details.attemptsRemaining);
  }
  const notAFile = await upload(uploadId, uploadToken, Buffer.from('not a pkcs12'), 'x');
  assert.equal(notAFile.json().error.code, 'CERTIFICATE_FILE_INVALID');
  remaining.push(notAFile.json().error.details.attemptsRemaining);
  assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
  const exhausted = await upload(uploadId, uploadToken, good.p12, good.password, 'https://erp.example.com');
  assert.equal(exhausted.statusCode, 409);
  assert.equal(
    exhausted.headers['access-control-allow-origin'],
    'https://erp.example.com',
    'readable by the page',
  );
  assert.equal(exhausted.json().error.code, 'UPLOAD_SESSION_EXHAUSTED');

  // A new session: an expired certificate uses an attempt, the good one installs it.
  const second = (
    await call('POST', sessions, { key, body: { browserOrigin: 'https://erp.example.com' } })
  ).json();
  const expired = createTestCertificate({
    rnc: account.rnc,
    commonName: 'Vieja',
    validFrom: new Date('2020-01-01'),
    validTo: new Date('2021-01-01'),
  });
  const old = await upload(second.uploadId, second.uploadToken, expired.p12, expired.password);
  assert.equal(old.json().error.code, 'CERTIFICATE_EXPIRED');
  assert.equal(old.json().error.details.attemptsRemaining, 4);
  const installed = await upload(second.uploadId, second.uploadToken, good.p12, good.password);
  assert.equal(installed.statusCode, 200, installed.body);
  assert.equal(installed.json().certificate.holderId, account.rnc);
  const reused = await upload(second.uploadId, second.uploadToken, good.p12, good.password);
  assert.equal(reused.json().error.code, 'UPLOAD_SESSION_INVALID');
  const metadata = await call('GET', `/partner/v1/fiscal-accounts/${account.id}/certificate`, { key });
  assert.equal(metadata.json().certificate.id, installed.json().certificate.id);
  assert.ok(!/privateKey|p12|password|BEGIN/i.test(metadata.body), 'never the key');

  // Rotation now has a certificate to replace; a suspended Partner's session stops working.
  const rotation = await call(
    'POST',
    `/partner/v1/fiscal-accounts/${account.id}/certificate-rotation-requests`,
    {
      key,
      body: { browserOrigin: 'https://erp.example.com' },
    },
  );
  assert.equal(rotation.statusCode, 201, rotation.body);
  assert.equal(rotation.json().purpose, 'rotation');
  await updatePartner({ database: api.database, partnerId: partner.id, input: { status: 'suspended' } });
  const suspended = await upload(
    rotation.json().uploadId,
    rotation.json().uploadToken,
    good.p12,
    good.password,
  );
  assert.equal(suspended.statusCode, 403);
  assert.equal(suspended.json().error.code, 'PARTNER_INACTIVE');
});

test('the registry import: an RNC in it ACTIVE links; another import replaces it at once', async () => {
  const { keys } = await seedPartner(api.database);
  const rnc = freshRnc();
  await loadRegistryWith(api.database, rnc);
  const linked = await call('PUT', '/partner/v1/fiscal-accounts/by-external-id/reg-1', {
    key: keys.full,
    body: { rnc },
  });
  assert.equal(linked.statusCode, 201, linked.body);
  const later = freshRnc();
  await loadRegistryWith(api.database, `${later}:DADO DE BAJA`);
  const refused = await call('PUT', '/partner/v1/fiscal-accounts/by-external-id/reg-2', {
    key: keys.full,
    body: { rnc: later },
  });
  assert.equal(refused.json().error.details.status, 'DADO DE BAJA');
});

test("rule 18 for every account: a direct account's preflight warns of a buyer not ACTIVE in the registry", async () => {
  const { seedTenantWithKey } = await import('../../test/test-api.ts');
  const { tenant, key } = await seedTenantWithKey(api.database);
  const buyer = freshRnc();
  await loadRegistryWith(api.database, `${buyer}:SUSPENDIDO`);
  const response = await api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf?validate=true',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify(
      simplifiedE31({ issuer: { rnc: tenant.rnc }, buyer: { rnc: buyer, name: 'Comprador SRL' } }),
    ),
  });
  assert.equal(response.statusCode, 200, response.body);
  const warning = response
    .json()
    .warnings.find((item: { code: string }) => item.code === 'BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH');
  assert.equal(warning?.details.status, 'SUSPENDIDO', response.body);
});

test("Partner webhooks name the request that caused the change, in the Partner API's environment names", async () => {
  const { partner, keys } = await seedPartner(api.database, { paid: false });
  const account = await seedAccount(api.database, partner.id);
  const created = await call('POST', '/partner/v1/webhook-endpoints', {
    key: keys.webhooks,
    body: { name: 'runtime', url: 'http://127.0.0.1:9/runtime', eventTypes: ['ecf.queued'] },
  });
  assert.equal(created.statusCode, 201, created.body);
  const endpointId = created.json().endpoint.id;
  const issued = await call('POST', `/partner/v1/fiscal-accounts/${account.id}/testecf/documents`, {
    key: keys.runtime,
    body: { document: simplifiedE31() },
    headers: { 'x-correlation-id': 'erp-req-42' },
  });
  assert.equal(issued.statusCode, 202, issued.body);
  // A change no request made (the worker's, here a test's) names none.
  await api.database.document.update({
    where: { id: issued.json().documentId },
    data: { status: 'signed' },
  });
  await fanOutWebhookEvents({ database: api.database, enqueue: recordingEnqueue(), now: () => new Date() });
  const [queued, ...others] = (await api.database.webhookDelivery.findMany({ where: { endpointId } })).map(
    payloadOf,
  );
  assert.equal(others.length, 0, 'only the subscribed type');
  assert.ok(queued);
  assert.equal(queued.type, 'ecf.queued');
  assert.equal(queued.resource.id, issued.json().documentId);
  assert.equal(queued.correlationId, 'erp-req-42');
  const changed = await api.database.webhookEvent.findFirstOrThrow({
    where: { documentId: issued.json().documentId, type: 'document.state_changed' },
  });
  assert.equal(changed.correlationId, null);
  // The payload's environment is a value the Partner API takes: the test route accepts it back.
  assert.equal(queued.environment, 'testecf');
  assert.ok(ZPartnerEnvironment.safeParse(queued.environment).success);
  const tested = await call('POST', `/partner/v1/webhook-endpoints/${endpointId}/test`, {
    key: keys.webhooks,
    body: { fiscalAccountId: account.id, environment: queued.environment },
  });
  assert.equal(tested.statusCode, 202, tested.body);
  const test_ = payloadOf(
    await api.database.webhookDelivery.findUniqueOrThrow({ where: { id: tested.json().deliveryId } }),
  );
  assert.equal(test_.environment, 'testecf');
  assert.equal(test_.correlationId, tested.headers['x-correlation-id']);
});
