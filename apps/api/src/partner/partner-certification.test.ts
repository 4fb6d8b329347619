// The Partner API's certification routes (issue 20 over the engine of issue 19): a test set
// uploaded as JSON rows, the case with its checklist, runs with Idempotency-Key (428 without,
// replay, 409 on another body), the run and its evidence, attestations in order, the close rules,
// the application data, the XML signatures, the embedded page's link, the production activation,
// and the direct routes refusing an account its Partner manages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { readCertificationWorkbook, type TWorkbookRow } from '@ecf/certification-sets';
import { seedApiKey } from '@ecf/db';
import { createTestCertificate, verifyXmlSignature } from '@ecf/fiscal-core';
import {
  checkCertificationEmbedToken,
  createCertificateKeyring,
  storeTenantCertificate,
} from '@ecf/services';
import { startTestApi, type TTestApi } from '../../test/test-api.ts';
import { seedAccount, seedPartner } from '../../test/partner-support.ts';

const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');
const EMBED_SECRET = 'test-embed-secret-of-enough-length-0000';
const WORKBOOK = readFileSync(
  new URL(import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx')),
);
let api: TTestApi;

before(async () => {
  api = await startTestApi({
    PSFE_PARTNER_API_ENABLED: 'true',
    CERTIFICATE_MASTER_KEY: MASTER_KEY,
    CERTIFICATION_EMBED_SECRET: EMBED_SECRET,
    PORTAL_BASE_URL: 'https://portal.example.com',
  });
});
after(async () => {
  await api.close();
});

function call(
  method: string,
  url: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  return api.app.inject({
    method: method as 'GET',
    url,
    headers: { 'x-partner-key': key, ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(hasBody ? { payload: JSON.stringify(body ?? {}) } : {}),
  });
}

/** The model's rows as the JSON form for `rnc`. */
async function jsonSetFor(rnc: string) {
  const read = await readCertificationWorkbook({ content: WORKBOOK });
  if (!read.ok || read.workbook.kind !== 'ecf_set') throw new Error('model workbook');
  const rewrite = (row: TWorkbookRow) =>
    Object.fromEntries(
      Object.entries(row.values).map(([column, value]) => [
        column,
        column === 'RNCEmisor' ? rnc : column === 'CasoPrueba' ? `${rnc}${value.slice(9)}` : value,
      ]),
    );
  return { ecf: read.workbook.ecf.map(rewrite), rfce: read.workbook.rfce.map(rewrite) };
}

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

test('test set → case → run with Idempotency-Key → run, evidence, attestations, close rules; another Partner sees nothing', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const other = await seedPartner(api.database);
  const account = await accountWithCertificate(partner.id);
  const base = `/partner/v1/fiscal-accounts/${account.id}`;

  // Closed contracts: an unknown property is INVALID_PARTNER_PAYLOAD with its path.
  const unknown = await call('POST', `${base}/certification-test-sets`, keys.onboarding, {
    set: { ecf: [] },
    colour: 1,
  });
  assert.equal(unknown.statusCode, 400);
  assert.equal(unknown.json().error.code, 'INVALID_PARTNER_PAYLOAD');
  assert.equal(unknown.json().error.details.path, 'colour');
  // The runtime profile has no certification permission.
  assert.equal((await call('GET', `${base}/certification-test-sets`, keys.runtime)).statusCode, 403);

  const uploaded = await call('POST', `${base}/certification-test-sets`, keys.onboarding, {
    set: await jsonSetFor(account.rnc),
  });
  assert.equal(uploaded.statusCode, 201, uploaded.body);
  const testSetRef = uploaded.json().testSet.testSetRef as string;
  assert.equal(uploaded.json().testSet.rows, 29);
  const list = await call('GET', `${base}/certification-test-sets`, keys.full);
  assert.deepEqual(
    list.json().items.map((set: { testSetRef: string }) => set.testSetRef),
    [testSetRef],
  );
  // Another RNC's set: 422 located.
  const foreign = await call('POST', `${base}/certification-test-sets`, keys.full, {
    workbookBase64: WORKBOOK.toString('base64'),
  });
  assert.equal(foreign.statusCode, 422);
  assert.equal(foreign.json().error.code, 'CERTIFICATION_SET_ISSUER_MISMATCH');
  const catalogue = await call('GET', '/partner/v1/certification/official-sets', keys.onboarding);
  assert.deepEqual(
    { items: catalogue.json().items, defaultRef: catalogue.json().defaultRef },
    { items: [], defaultRef: null },
  );

  const created = await call('POST', `${base}/certification-cases`, keys.full, {
    testSetRef,
    notes: 'Inicio',
    actorRef: 'ana@erp',
  });
  assert.equal(created.statusCode, 201, created.body);
  const caseId = created.json().case.caseId as string;
  assert.equal(created.json().case.checklist.length, 15);
  assert.equal(created.json().case.testSetRef, testSetRef);
  const again = await call('POST', `${base}/certification-cases`, keys.full, { testSetRef });
  assert.equal(again.statusCode, 200);
  assert.equal(again.json().case.caseId, caseId);
  const conflicting = await call('POST', `${base}/certification-cases`, keys.full, {});
  assert.equal(conflicting.statusCode, 409);
  assert.equal(conflicting.json().error.code, 'CERTIFICATION_CASE_ALREADY_OPEN');
  // Another Partner: the account is not found, never leaked.
  assert.equal(
    (await call('GET', `${base}/certification-cases/${caseId}`, other.keys.full)).json().error.code,
    'FISCAL_ACCOUNT_NOT_FOUND',
  );

  // Runs need an Idempotency-Key.
  const runs = `${base}/certification-cases/${caseId}/runs`;
  const withoutKey = await call('POST', runs, keys.full, { part: 'data' });
  assert.equal(withoutKey.statusCode, 428);
  assert.equal(withoutKey.json().error.code, 'IDEMPOTENCY_KEY_REQUIRED');
  const started = await call('POST', runs, keys.full, { part: 'data' }, { 'idempotency-key': 'run-a' });
  assert.equal(started.statusCode, 202, started.body);
  assert.equal(started.json().environment, 'certecf');
  const runId = started.json().run.runId as string;
  assert.equal(started.json().run.items.length, 25);
  const replay = await call('POST', runs, keys.full, { part: 'data' }, { 'idempotency-key': 'run-a' });
  assert.equal(replay.statusCode, 200);
  assert.equal(replay.json().run.runId, runId);
  const conflict = await call(
    'POST',
    runs,
    keys.full,
    { part: 'simulation' },
    { 'idempotency-key': 'run-a' },
  );
  assert.equal(conflict.statusCode, 409);
  assert.equal(conflict.json().error.code, 'IDEMPOTENCY_CONFLICT');
  const busy = await call('POST', runs, keys.full, { part: 'data' }, { 'idempotency-key': 'run-b' });
  assert.equal(busy.statusCode, 409);
  assert.equal(busy.json().error.code, 'CERTIFICATION_RUN_IN_PROGRESS');

  const listed = await call('GET', runs, keys.onboarding);
  assert.deepEqual(
    listed.json().items.map((run: { runId: string }) => run.runId),
    [runId],
  );
  const read = await call('GET', `${runs}/${runId}`, keys.onboarding);
  assert.equal(read.statusCode, 200);
  assert.equal(read.json().run.state, 'queued');
  assert.equal((await call('GET', `${runs}/${randomUUID()}`, keys.onboarding)).statusCode, 404);
  const evidence = await call('GET', `${runs}/${runId}/evidence`, keys.onboarding);
  assert.equal(evidence.statusCode, 200);
  const files = unzipSync(Buffer.from(evidence.json().content, 'base64'));
  assert.ok(files['manifest.json'] && files['run.json']);
  const pdfs = await call('GET', `${runs}/${runId}/printed-pdfs`, keys.onboarding);
  assert.equal(pdfs.statusCode, 200);
  assert.equal(pdfs.headers['content-type'], 'application/zip');
  const invoices = await call(
    'GET',
    `${runs}/${runId}/consumer-invoices?encf=E320000000005`,
    keys.onboarding,
  );
  assert.equal(invoices.statusCode, 404, 'nothing accepted yet');

  // Attestations in order; a step no person attests is INVALID_PARTNER_PAYLOAD.
  const attest = (step: string) =>
    call('POST', `${base}/certification-cases/${caseId}/attestations`, keys.onboarding, {
      step,
      evidenceRefs: ['s3://evidencia/1.pdf'],
      actorRef: 'ana@erp',
    });
  assert.equal((await attest('finished')).json().error.code, 'INVALID_PARTNER_PAYLOAD');
  const early = await attest('test_service_urls');
  assert.equal(early.statusCode, 409);
  assert.equal(early.json().error.code, 'CERTIFICATION_PREREQUISITES_MISSING');
  assert.ok(early.json().error.details.missingSteps.includes('data_tests_ecf'));
  const tooMany = await call('POST', `${base}/certification-cases/${caseId}/attestations`, keys.onboarding, {
    step: 'registered',
    evidenceRefs: Array.from({ length: 51 }, (_, index) => `ref-${index}`),
  });
  assert.equal(tooMany.statusCode, 400);

  // Not closed while its run is on its way; restart stops it; then closed.
  const close = `${base}/certification-cases/${caseId}/close`;
  assert.equal((await call('POST', close, keys.full)).json().error.code, 'CERTIFICATION_RUN_IN_PROGRESS');
  const restarted = await call('POST', `${base}/certification-cases/${caseId}/restart`, keys.full, {
    part: 'data',
  });
  assert.equal(restarted.statusCode, 200, restarted.body);
  assert.equal(restarted.json().stoppedRunId, runId);
  const closed = await call('POST', close, keys.full);
  assert.equal(closed.statusCode, 200, closed.body);
  assert.equal(closed.json().case.state, 'closed');
  const account2 = await call('GET', base, keys.onboarding);
  assert.equal(account2.json().fiscalAccount.certification.state, 'closed');
});

test('the application data, signatures, the embed link, activation; the direct routes refuse a Partner account', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await accountWithCertificate(partner.id);
  const base = `/partner/v1/fiscal-accounts/${account.id}`;

  const registration = await call('GET', `${base}/taxauth-registration`, keys.onboarding);
  assert.equal(registration.statusCode, 200);
  assert.equal(registration.json().registration.rnc, account.rnc);
  assert.equal(registration.json().registration.serviceUrls.test.reception, 'http://127.0.0.1:3000/CerteCF');

  const xml = `<DeclaracionJurada><RNC>${account.rnc}</RNC></DeclaracionJurada>`;
  const signed = await call('POST', `${base}/certification-xml-signatures`, keys.onboarding, {
    kind: 'sworn_declaration',
    xml,
  });
  assert.equal(signed.statusCode, 200, signed.body);
  assert.ok(verifyXmlSignature(signed.json().signedXml).valid);
  const bad = await call('POST', `${base}/certification-xml-signatures`, keys.onboarding, {
    kind: 'sworn_declaration',
    xml: 'no xml',
  });
  assert.equal(bad.statusCode, 422);
  assert.equal(bad.json().error.code, 'CERTIFICATION_XML_INVALID');
  assert.equal(
    (await call('POST', `${base}/certification-xml-signatures`, keys.onboarding, { kind: 'other', xml }))
      .statusCode,
    400,
  );

  const notHttps = await call('POST', `${base}/certification-sessions`, keys.onboarding, {
    browserOrigin: 'http://erp.example.com',
  });
  assert.equal(notHttps.statusCode, 400);
  assert.equal(notHttps.json().error.code, 'INVALID_BROWSER_ORIGIN');
  const notRegistered = await call('POST', `${base}/certification-sessions`, keys.onboarding, {
    browserOrigin: 'https://other.example.com',
  });
  assert.equal(notRegistered.statusCode, 422);
  assert.equal(notRegistered.json().error.code, 'BROWSER_ORIGIN_NOT_ALLOWED');
  const session = await call('POST', `${base}/certification-sessions`, keys.onboarding, {
    browserOrigin: 'https://erp.example.com',
  });
  assert.equal(session.statusCode, 201, session.body);
  const url = new URL(session.json().url as string);
  assert.equal(url.origin, 'https://portal.example.com');
  const token = url.pathname.split('/').at(-1) ?? '';
  assert.deepEqual(
    { ...checkCertificationEmbedToken({ token, now: new Date(), secret: EMBED_SECRET }), expiresAt: 0 },
    { tenantId: account.tenant.id, origin: 'https://erp.example.com', expiresAt: 0 },
  );

  const activation = await call('POST', `${base}/production-activation-requests`, keys.onboarding);
  assert.equal(activation.statusCode, 409);
  assert.equal(activation.json().error.code, 'CERTIFICATION_NOT_APPROVED');
  assert.equal((await call('POST', `${base}/production-activation-requests`, keys.runtime)).statusCode, 403);

  // The direct API: this account's certification is its Partner's.
  const { key } = await seedApiKey(api.database, {
    tenantId: account.tenant.id,
    environment: 'CerteCF',
    scopes: ['tenant:admin'],
  });
  const direct = await api.app.inject({
    method: 'POST',
    url: '/CerteCF/certificacion',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: JSON.stringify({ taxauthModel: true }),
  });
  assert.equal(direct.statusCode, 409);
  assert.equal(direct.json().error.code, 'CERTIFICATION_MANAGED_BY_PARTNER');
});
