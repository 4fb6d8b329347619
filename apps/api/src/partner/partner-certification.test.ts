// The Partner API's certification routes (issue 20 over the engine of issue 19): a test set
// uploaded as JSON rows, the case with its checklist, runs with Idempotency-Key (428 without,
// replay, 409 on another body), the run and its evidence, attestations in order, the close rules,
// the application data, the XML signatures, the embedded page's link, the production activation,
// the direct routes refusing an account its Partner manages, and a run's files (consumer invoices,
// their summaries, printed PDFs) once the tax authority simulator accepted its consumer invoices.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { readCertificationWorkbook, type TWorkbookRow } from '@ecf/certification-sets';
import { loadXsdValidators } from '@ecf/config';
import { seedApiKey, sqlPoolOf } from '@ecf/db';
import { createTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, verifyXmlSignature } from '@ecf/fiscal-core';
import {
  advanceCertificationRun,
  checkCertificationEmbedToken,
  createCertificateKeyring,
  loadOfficialSet,
  pollDocumentStatus,
  retireOfficialSet,
  signQueuedDocument,
  storeTenantCertificate,
  transmitSignedDocument,
} from '@ecf/services';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { pdfText } from '../../test/printed-documents.ts';
import { startTestApi, TEST_XSD_DIRECTORY, type TTestApi } from '../../test/test-api.ts';
import { seedAccount, seedPartner } from '../../test/partner-support.ts';

const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');
const EMBED_SECRET = 'test-embed-secret-of-enough-length-0000';
const WORKBOOK = readFileSync(
  new URL(import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx')),
);
/** The tax authority's model commercial approvals workbook: buyer RNC 131256432, eleven ACECF rows. */
const APPROVALS_WORKBOOK = readFileSync(
  new URL(import.meta.resolve('@ecf/certification-sets/model/131256432-set-aprobaciones-comerciales.xlsx')),
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

async function accountWithCertificate(partnerId: string, rnc?: string) {
  const account = await seedAccount(api.database, partnerId, rnc === undefined ? {} : { rnc });
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
  // What the Partner declared is kept and shown with the case, never dropped.
  assert.deepEqual(
    {
      notes: created.json().case.notes,
      actorRef: created.json().case.actorRef,
      ecfTypes: created.json().case.ecfTypes,
      b2bSimulation: created.json().case.b2bSimulation,
    },
    { notes: 'Inicio', actorRef: 'ana@erp', ecfTypes: [], b2bSimulation: null },
  );
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

  // One step of the run as the worker takes it issues the originals; one not signed yet is resent:
  // it goes to signing now.
  const { rows: generation } = await sqlPoolOf(api.database).query<{ value: number }>(
    `SELECT advance_generation AS value FROM certification_runs WHERE id = $1`,
    [runId],
  );
  const xsd = await loadXsdValidators(TEST_XSD_DIRECTORY);
  try {
    await advanceCertificationRun({
      database: api.database,
      runId,
      generation: generation[0]?.value ?? -1,
      enqueue: async () => {},
      xsd,
      now: () => new Date(),
    });
  } finally {
    xsd.dispose();
  }
  const issued = (await call('GET', `${runs}/${runId}`, keys.onboarding))
    .json()
    .run.items.find((item: { documentId: string | null }) => item.documentId !== null);
  assert.ok(issued, 'the run issued its originals');
  const resent = await call(
    'POST',
    `${base}/certification-cases/${caseId}/documents/${issued.documentId}/resend`,
    keys.full,
  );
  assert.equal(resent.statusCode, 202, resent.body);
  assert.deepEqual(
    { action: resent.json().action, status: resent.json().status, encf: resent.json().encf },
    { action: 'signing', status: 'queued_for_signing', encf: issued.encf },
  );
  const { rows: signJobs } = await sqlPoolOf(api.database).query<{ count: number }>(
    `SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'document.sign' AND data->>'documentId' = $1`,
    [issued.documentId],
  );
  assert.equal(signJobs[0]?.count, 1);

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

test('official sets loaded by the operator: the catalogue, a case on one with its declarations, its run, a change of set, a retired set', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await accountWithCertificate(partner.id);
  const base = `/partner/v1/fiscal-accounts/${account.id}`;
  const now = new Date();
  await loadOfficialSet({ database: api.database, ref: 'dgii-a', name: 'Set A', content: WORKBOOK, now });
  await loadOfficialSet({
    database: api.database,
    ref: 'dgii-b',
    name: 'Set B',
    description: 'otro',
    content: WORKBOOK,
    now,
  });
  const catalogue = await call('GET', '/partner/v1/certification/official-sets', keys.onboarding);
  assert.equal(catalogue.statusCode, 200);
  assert.deepEqual(
    { items: catalogue.json().items, defaultRef: catalogue.json().defaultRef },
    {
      items: [
        { ref: 'dgii-a', name: 'Set A', description: '' },
        { ref: 'dgii-b', name: 'Set B', description: 'otro' },
      ],
      defaultRef: 'dgii-b',
    },
  );

  // A type that is none: 400 naming the member; both sets at once: 400 naming officialSetRef.
  const badType = await call('POST', `${base}/certification-cases`, keys.full, {
    officialSetRef: 'dgii-a',
    ecfTypes: ['31', 'E99'],
  });
  assert.equal(badType.statusCode, 400);
  assert.equal(badType.json().error.details.path, 'ecfTypes.1');
  const both = await call('POST', `${base}/certification-cases`, keys.full, {
    officialSetRef: 'dgii-a',
    testSetRef: randomUUID(),
  });
  assert.equal(both.statusCode, 400);
  assert.equal(both.json().error.details.path, 'officialSetRef');
  assert.equal(
    (await call('POST', `${base}/certification-cases`, keys.full, { officialSetRef: 'nope' })).statusCode,
    404,
  );
  const created = await call('POST', `${base}/certification-cases`, keys.full, {
    officialSetRef: 'dgii-a',
    ecfTypes: ['E31', '32'],
    b2bSimulation: false,
    notes: 'Con el set oficial',
    actorRef: 'luis@erp',
  });
  assert.equal(created.statusCode, 201, created.body);
  const view = created.json().case;
  assert.deepEqual(
    [view.officialSetRef, view.testSetRef, view.ecfTypes, view.b2bSimulation, view.notes, view.actorRef],
    ['dgii-a', null, ['31', '32'], false, 'Con el set oficial', 'luis@erp'],
  );
  const read = await call('GET', `${base}/certification-cases/${view.caseId}`, keys.onboarding);
  assert.deepEqual(read.json().case.ecfTypes, ['31', '32']);
  const differs = await call('POST', `${base}/certification-cases`, keys.full, {
    officialSetRef: 'dgii-a',
    notes: 'otra nota',
  });
  assert.equal(differs.statusCode, 409);
  assert.deepEqual(differs.json().error.details.members, ['notes']);

  // Another set for the case (no run yet): the data tests restart on it.
  const changed = await call('POST', `${base}/certification-cases/${view.caseId}/official-set`, keys.full, {
    officialSetRef: 'dgii-b',
  });
  assert.equal(changed.statusCode, 200, changed.body);
  assert.equal(changed.json().case.officialSetRef, 'dgii-b');
  // The run sends the official set, its rows for this account's RNC.
  const runs = `${base}/certification-cases/${view.caseId}/runs`;
  const started = await call('POST', runs, keys.full, { part: 'data' }, { 'idempotency-key': 'official-1' });
  assert.equal(started.statusCode, 202, started.body);
  assert.equal(started.json().run.items.length, 25);
  const kept = await call('GET', `${base}/certification-test-sets`, keys.onboarding);
  assert.deepEqual(
    kept
      .json()
      .items.map((set: { testSetRef: string; issuerRnc: string }) => [set.testSetRef, set.issuerRnc]),
    [[started.json().run.setId, account.rnc]],
  );
  const evidence = await call('GET', `${runs}/${started.json().run.runId}/evidence`, keys.onboarding);
  assert.equal(evidence.statusCode, 200);

  // Retired: gone from the catalogue and from new choices; the case on it keeps it.
  await retireOfficialSet({ database: api.database, ref: 'dgii-a', now });
  const afterRetire = await call('GET', '/partner/v1/certification/official-sets', keys.onboarding);
  assert.deepEqual(
    afterRetire.json().items.map((item: { ref: string }) => item.ref),
    ['dgii-b'],
  );
  const toRetired = await call('POST', `${base}/certification-cases/${view.caseId}/official-set`, keys.full, {
    officialSetRef: 'dgii-a',
  });
  assert.equal(toRetired.statusCode, 404);
  assert.equal(toRetired.json().error.details.officialSetRef, 'dgii-a');
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
  const wildcard = await call('POST', `${base}/certification-sessions`, keys.onboarding, {
    browserOrigin: 'https://*.example.com',
  });
  assert.equal(wildcard.statusCode, 400, wildcard.body);
  assert.equal(wildcard.json().error.code, 'INVALID_BROWSER_ORIGIN');
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

  // A case without a test set: a run that names none is 422 CERTIFICATION_OWN_SET_REQUIRED, nothing created.
  const bare = await call('POST', `${base}/certification-cases`, keys.full, {});
  assert.equal(bare.statusCode, 201, bare.body);
  const bareRun = await call(
    'POST',
    `${base}/certification-cases/${bare.json().case.caseId}/runs`,
    keys.full,
    { part: 'data' },
    { 'idempotency-key': 'bare-1' },
  );
  assert.equal(bareRun.statusCode, 422, bareRun.body);
  assert.equal(bareRun.json().error.code, 'CERTIFICATION_OWN_SET_REQUIRED');
  assert.equal(
    (await call('GET', `${base}/certification-cases/${bare.json().case.caseId}/runs`, keys.full)).json().items
      .length,
    0,
  );

  const activation = await call('POST', `${base}/production-activation-requests`, keys.onboarding);
  assert.equal(activation.statusCode, 409);
  assert.equal(activation.json().error.code, 'CERTIFICATION_NOT_APPROVED');
  assert.equal((await call('POST', `${base}/production-activation-requests`, keys.runtime)).statusCode, 403);
  // A suspended production is the operator's decision: asking again conflicts and changes nothing.
  await api.database.tenant.update({
    where: { id: account.tenant.id },
    data: { productionState: 'suspended' },
  });
  const whileSuspended = await call('POST', `${base}/production-activation-requests`, keys.onboarding);
  assert.equal(whileSuspended.statusCode, 409, whileSuspended.body);
  assert.equal(whileSuspended.json().error.code, 'PRODUCTION_STATE_CONFLICT');
  assert.equal(whileSuspended.json().error.details.productionState, 'suspended');
  const stored = await api.database.tenant.findUniqueOrThrow({ where: { id: account.tenant.id } });
  assert.equal(stored.productionState, 'suspended');
  await api.database.tenant.update({
    where: { id: account.tenant.id },
    data: { productionState: 'not_requested' },
  });

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

test('commercial approval tests: 428 without Idempotency-Key, 409 before the data tests, 202 with the rows queued for the worker, replay 200, the key with another workbook 409 IDEMPOTENCY_CONFLICT, 409 while in progress, GET progress', async () => {
  const { partner, keys } = await seedPartner(api.database);
  const account = await accountWithCertificate(partner.id, '131256432');
  const base = `/partner/v1/fiscal-accounts/${account.id}`;
  const uploaded = await call('POST', `${base}/certification-test-sets`, keys.onboarding, {
    set: await jsonSetFor(account.rnc),
  });
  assert.equal(uploaded.statusCode, 201, uploaded.body);
  const created = await call('POST', `${base}/certification-cases`, keys.full, {
    testSetRef: uploaded.json().testSet.testSetRef,
  });
  assert.equal(created.statusCode, 201, created.body);
  const caseId = created.json().case.caseId as string;
  const url = `${base}/certification-cases/${caseId}/commercial-approvals`;
  const workbook = { workbookBase64: APPROVALS_WORKBOOK.toString('base64') };
  const send = (body: unknown, key?: string) =>
    call('POST', url, keys.onboarding, body, key === undefined ? {} : { 'idempotency-key': key });

  const none = await call('GET', url, keys.onboarding);
  assert.equal(none.statusCode, 200, none.body);
  assert.equal(none.json().commercialApprovals, null);
  assert.equal(none.json().environment, 'certecf');
  const withoutKey = await send(workbook);
  assert.equal(withoutKey.statusCode, 428);
  assert.equal(withoutKey.json().error.code, 'IDEMPOTENCY_KEY_REQUIRED');
  const pending = await send(workbook, 'approvals-early');
  assert.equal(pending.statusCode, 409);
  assert.equal(pending.json().error.code, 'CERTIFICATION_DATA_TESTS_PENDING');

  // The tax authority accepted the data tests (the worker's tests run them against the simulator).
  const pool = sqlPoolOf(api.database);
  await pool.query(
    `INSERT INTO certification_step_completions (case_id, step, source) VALUES ($1, 'data_tests_ecf', 'run')`,
    [caseId],
  );
  const sent = await send(workbook, 'approvals-1');
  assert.equal(sent.statusCode, 202, sent.body);
  assert.equal(sent.json().environment, 'certecf');
  assert.equal(sent.json().fiscalAccountId, account.id);
  const approvals = sent.json().commercialApprovals;
  assert.equal(approvals.state, 'queued');
  assert.equal(approvals.totals.approvals, 11);
  assert.equal(approvals.items.length, 11);
  assert.ok(
    approvals.items.every(
      (item: { state: string; encf: string; issuerRnc: string }) =>
        item.state === 'pending' && /^E\d{12}$/.test(item.encf) && /^\d{9}$/.test(item.issuerRnc),
    ),
    JSON.stringify(approvals.items),
  );
  // The worker's first step is queued with the send.
  const jobs = await pool.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'certification.send-approvals' AND data->>'sendId' = $1`,
    [approvals.sendId],
  );
  assert.equal(jobs.rows[0]?.count, 1);

  const replay = await send(workbook, 'approvals-1');
  assert.equal(replay.statusCode, 200, replay.body);
  assert.equal(replay.json().commercialApprovals.sendId, approvals.sendId);
  const otherWorkbook = await send({ workbookBase64: WORKBOOK.toString('base64') }, 'approvals-1');
  assert.equal(otherWorkbook.statusCode, 409);
  assert.equal(otherWorkbook.json().error.code, 'IDEMPOTENCY_CONFLICT');
  const busy = await send(workbook, 'approvals-2');
  assert.equal(busy.statusCode, 409);
  assert.equal(busy.json().error.code, 'COMMERCIAL_APPROVALS_IN_PROGRESS');

  const progress = await call('GET', url, keys.onboarding);
  assert.equal(progress.statusCode, 200, progress.body);
  assert.equal(progress.json().commercialApprovals.sendId, approvals.sendId);
  assert.deepEqual(progress.json().commercialApprovals.items, approvals.items);
  // The runtime profile has no certification permission; another case id is not found.
  assert.equal((await call('GET', url, keys.runtime)).statusCode, 403);
  const otherCase = await call(
    'GET',
    `${base}/certification-cases/${randomUUID()}/commercial-approvals`,
    keys.onboarding,
  );
  assert.equal(otherCase.statusCode, 404);
});

test("a run's consumer invoices the tax authority accepted: their ZIPs, each ?encf= file and the printed PDFs over the Partner routes", async () => {
  // The run's consumer invoices go through the steps the worker's jobs take (advance, sign,
  // send, ask), against the tax authority simulator; the worker's own test runs whole runs.
  const simulatorDatabase = await createTestDatabase({ migrated: false });
  const simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 0,
    port: 0,
  });
  const xsd = await loadXsdValidators(TEST_XSD_DIRECTORY);
  try {
    const { partner, keys } = await seedPartner(api.database);
    const account = await accountWithCertificate(partner.id);
    const base = `/partner/v1/fiscal-accounts/${account.id}`;
    const uploaded = await call('POST', `${base}/certification-test-sets`, keys.onboarding, {
      set: await jsonSetFor(account.rnc),
    });
    const created = await call('POST', `${base}/certification-cases`, keys.full, {
      testSetRef: uploaded.json().testSet.testSetRef,
    });
    const caseId = created.json().case.caseId as string;
    const runs = `${base}/certification-cases/${caseId}/runs`;
    const started = await call('POST', runs, keys.full, { part: 'data' }, { 'idempotency-key': 'files' });
    assert.equal(started.statusCode, 202, started.body);
    const runId = started.json().run.runId as string;

    const { rows: generation } = await sqlPoolOf(api.database).query<{ value: number }>(
      `SELECT advance_generation AS value FROM certification_runs WHERE id = $1`,
      [runId],
    );
    await advanceCertificationRun({
      database: api.database,
      runId,
      generation: generation[0]?.value ?? -1,
      enqueue: async () => {},
      xsd,
      now: () => new Date(),
    });
    type TItem = { encf: string; type: string; documentId: string | null };
    const issued = (await call('GET', `${runs}/${runId}`, keys.onboarding)).json().run.items as TItem[];
    const e32 = issued.filter((item) => item.type === '32' && item.documentId !== null);
    assert.ok(e32.length >= 4, JSON.stringify(issued));
    const keyring = createCertificateKeyring({ currentKey: MASTER_KEY });
    const transmission = {
      database: api.database,
      keyring,
      clientFor: createTaxauthClients({
        baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl },
        timeoutMs: 5000,
      }),
    };
    const summarised: string[] = [];
    for (const item of e32) {
      const documentId = item.documentId ?? '';
      const signed = await signQueuedDocument({
        database: api.database,
        documentId,
        keyring,
        xsdValidators: xsd,
      });
      assert.equal(signed.outcome, 'signed', JSON.stringify(signed));
      const sent = await transmitSignedDocument({ ...transmission, documentId });
      // Below RD$250,000 the RFCE answer is final at once; above, the e-CF's result is asked for.
      if (sent.next === 'done') summarised.push(item.encf);
      const final = sent.next === 'poll' ? await pollDocumentStatus({ ...transmission, documentId }) : sent;
      assert.equal(final.outcome, 'accepted', JSON.stringify(final));
    }
    assert.equal(summarised.length, 4, 'the four consumer invoices below RD$250,000 went as their RFCE');

    for (const [route, folder, root] of [
      ['consumer-invoices', 'xml/', 'ECF'],
      ['consumer-summaries', 'rfce/', 'RFCE'],
    ] as const) {
      const zipped = await call('GET', `${runs}/${runId}/${route}`, keys.onboarding);
      assert.equal(zipped.statusCode, 200, zipped.body);
      assert.equal(zipped.headers['content-type'], 'application/zip');
      assert.equal(
        zipped.headers['content-disposition'],
        `attachment; filename="certificacion-data-${route}-${runId}.zip"`,
      );
      const { 'manifest.json': manifest, ...files } = unzipSync(zipped.rawPayload);
      assert.ok(manifest);
      assert.deepEqual(
        Object.keys(files).sort(),
        summarised.map((encf) => `${folder}${account.rnc}${encf}.xml`).sort(),
      );
      for (const encf of summarised) {
        const one = await call('GET', `${runs}/${runId}/${route}?encf=${encf}`, keys.onboarding);
        assert.equal(one.statusCode, 200, one.body);
        assert.equal(one.headers['content-type'], 'application/xml; charset=utf-8');
        assert.equal(one.headers['content-disposition'], `attachment; filename="${account.rnc}${encf}.xml"`);
        assert.deepEqual(one.rawPayload, Buffer.from(files[`${folder}${account.rnc}${encf}.xml`] ?? []));
        assert.match(one.body, new RegExp(`<${root}[ >]`));
        assert.match(one.body, new RegExp(`<eNCF>${encf}</eNCF>`));
        assert.ok(verifyXmlSignature(one.body).valid, `${route} ${encf}: signature`);
      }
    }
    // An accepted E32 of RD$250,000 or more went in full: no consumer invoice of the run.
    const full = e32.find((item) => !summarised.includes(item.encf));
    assert.ok(full, 'the set has an E32 of RD$250,000 or more');
    const notConsumer = await call(
      'GET',
      `${runs}/${runId}/consumer-invoices?encf=${full.encf}`,
      keys.onboarding,
    );
    assert.equal(notConsumer.statusCode, 404);
    assert.equal(notConsumer.json().error.code, 'NOT_FOUND');

    // The printed PDFs: one per accepted receipt, each naming its own eNCF.
    const pdfs = await call('GET', `${runs}/${runId}/printed-pdfs`, keys.onboarding);
    assert.equal(pdfs.statusCode, 200, pdfs.body);
    assert.equal(pdfs.headers['content-type'], 'application/zip');
    assert.equal(
      pdfs.headers['content-disposition'],
      `attachment; filename="certificacion-data-printed-pdfs-${runId}.zip"`,
    );
    const { 'manifest.json': _manifest, ...printed } = unzipSync(pdfs.rawPayload);
    assert.equal(Object.keys(printed).length, e32.length);
    const texts = await Promise.all(Object.values(printed).map((pdf) => pdfText(Buffer.from(pdf))));
    for (const item of e32)
      assert.ok(
        texts.some((text) => text.includes(item.encf)),
        `a printed PDF shows ${item.encf}`,
      );
    assert.ok(Object.keys(printed).every((name) => /^pdf\/.+\.pdf$/.test(name)));
  } finally {
    xsd.dispose();
    await simulator.close();
    await simulatorDatabase.drop();
  }
});
