// The certification procedures: the case step by step with the URLs to register; the tax
// authority's workbook prevalidated (every problem located) and run; a run row by row, never
// another tenant's; steps attested in order; a part restarted; the commercial approvals, a resend
// and production refused until their turn; an accountant reads, support reads (audited).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TRPCError } from '@trpc/server';
import {
  ATTESTABLE_STEPS as SERVICE_ATTESTABLE_STEPS,
  ATTESTATION_LIMITS,
  CERTIFICATION_STEPS as SERVICE_STEPS,
  WORKBOOK_BASE64_MAX_CHARACTERS as SERVICE_WORKBOOK_LIMIT,
} from '@ecf/services';
import {
  ATTESTABLE_STEPS,
  ATTESTATION_NOTES_MAX_LENGTH,
  CERTIFICATION_STEPS,
  WORKBOOK_BASE64_MAX_CHARACTERS,
} from '../../../lib/certification-schemas.ts';
import {
  claimRnc,
  MODEL_APPROVALS_RNC,
  MODEL_SET_RNC,
  modelWorkbookBase64,
  REJECTION_MESSAGE,
  seedIssuedRun,
  seedRejectedRun,
  seedOpenCase,
  seedSigningCertificate,
} from '../../../test/certification-seed.ts';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  TEST_PUBLIC_BASE_URL,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

const detailsOf = (error: TRPCError) => error.cause as { code?: string; details?: Record<string, unknown> };
const environment = 'CerteCF' as const;

test('the page’s client-safe lists are the services’ own', () => {
  assert.deepEqual(CERTIFICATION_STEPS, SERVICE_STEPS);
  assert.deepEqual(ATTESTABLE_STEPS, SERVICE_ATTESTABLE_STEPS);
  assert.equal(WORKBOOK_BASE64_MAX_CHARACTERS, SERVICE_WORKBOOK_LIMIT);
  assert.equal(ATTESTATION_NOTES_MAX_LENGTH, ATTESTATION_LIMITS.notes);
});

test('a case not started: fifteen steps, the first current, the URLs to register; CerteCF only', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const { case: view, canManage } = await owner.certification.case({ environment });
  assert.equal(canManage, true);
  assert.equal(view.state, 'not_started');
  assert.equal(view.steps.length, 15);
  assert.deepEqual(view.steps.map((step) => [step.number, step.state]).slice(0, 3), [
    [1, 'current'],
    [2, 'pending'],
    [3, 'pending'],
  ]);
  assert.equal(view.steps[0]?.title, 'Registrado');
  assert.equal(view.nextAction?.step, 'registered');
  assert.deepEqual(view.serviceUrls?.test, {
    reception: `${TEST_PUBLIC_BASE_URL}/CerteCF`,
    commercialApproval: `${TEST_PUBLIC_BASE_URL}/CerteCF`,
    authentication: `${TEST_PUBLIC_BASE_URL}/CerteCF`,
  });
  assert.equal(view.serviceUrls?.production.reception, `${TEST_PUBLIC_BASE_URL}/eCF`);
  assert.equal(view.production.state, 'not_requested');
  assert.deepEqual(view.runs, []);
  assert.equal(view.commercialApprovals, null);

  const elsewhere = await trpcFailureOf(owner.certification.case({ environment: 'TesteCF' }));
  assert.equal(elsewhere.code, 'CONFLICT');
  assert.equal(detailsOf(elsewhere).code, 'CERTIFICATION_ENVIRONMENT_REQUIRED');

  // The accountant reads without managing; support reads, and its view is in the tenant's log.
  const accountant = await callerOf(harness, world.sessions.accountant).certification.case({ environment });
  assert.equal(accountant.canManage, false);
  const support = await callerOf(harness, world.sessions.support).certification.case({ environment });
  assert.equal(support.canManage, false);
  assert.equal(
    await harness.database.portalAuditEntry.count({
      where: { tenantId: world.tenant.id, action: 'support.viewed', targetId: 'certification.case' },
    }),
    1,
  );
  const refused = await trpcFailureOf(
    callerOf(harness, world.sessions.accountant).certification.prevalidate({
      environment,
      workbookBase64: modelWorkbookBase64('ecf'),
    }),
  );
  assert.equal(refused.code, 'FORBIDDEN');
});

test('prevalidate: the model workbook read row by row; another taxpayer’s, a broken file and the model before its turn refused with their codes', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  const workbookBase64 = modelWorkbookBase64('ecf');

  // The workbook names RNC 132641566: for this tenant it is another taxpayer's set.
  const mismatch = await trpcFailureOf(developer.certification.prevalidate({ environment, workbookBase64 }));
  assert.equal(mismatch.code, 'UNPROCESSABLE_CONTENT');
  assert.equal(detailsOf(mismatch).code, 'CERTIFICATION_SET_ISSUER_MISMATCH');
  const errors = detailsOf(mismatch).details?.['errors'] as Array<Record<string, unknown>>;
  assert.ok(errors.length > 0);
  assert.equal(errors[0]?.['sheet'], 'ECF');
  assert.equal(typeof errors[0]?.['row'], 'number');
  assert.equal(typeof errors[0]?.['code'], 'string');

  await claimRnc(harness.database, world.tenant.id, MODEL_SET_RNC);
  const checked = await developer.certification.prevalidate({ environment, workbookBase64 });
  assert.equal(checked.part, 'data');
  assert.equal(checked.source, 'workbook');
  assert.equal(checked.issuerRnc, MODEL_SET_RNC);
  assert.deepEqual(checked.rows, { ecf: 25, rfce: 4 });
  assert.equal(checked.documents.length, 25);
  assert.equal(checked.types['32'], 6);
  assert.ok(checked.documents.every((document) => document.sheetRow !== null && document.sheetRow >= 2));
  assert.ok(checked.documents.some((document) => document.dependsOn !== null));
  assert.deepEqual(checked.alreadyUsedEncfs, []);
  // Nothing was stored.
  assert.equal(await harness.database.certificationSet.count({ where: { tenantId: world.tenant.id } }), 0);

  const broken = await trpcFailureOf(
    developer.certification.prevalidate({
      environment,
      workbookBase64: Buffer.from('no es un libro').toString('base64'),
    }),
  );
  assert.equal(broken.code, 'UNPROCESSABLE_CONTENT');
  assert.equal(detailsOf(broken).code, 'CERTIFICATION_SET_INVALID');

  const tooLarge = await trpcFailureOf(
    developer.certification.prevalidate({
      environment,
      workbookBase64: 'A'.repeat(WORKBOOK_BASE64_MAX_CHARACTERS + 4),
    }),
  );
  assert.equal(tooLarge.code, 'BAD_REQUEST');

  const model = await trpcFailureOf(
    developer.certification.prevalidate({ environment, taxauthModel: true, part: 'simulation' }),
  );
  assert.equal(model.code, 'CONFLICT');
  assert.equal(detailsOf(model).code, 'CERTIFICATION_OWN_SET_REQUIRED');
});

test('start a run: the case at step 1 done, the run row by row in the page; one at a time; another tenant’s run is NOT_FOUND; a restart stops it', async () => {
  const world = await seedWorld(harness.database);
  await claimRnc(harness.database, world.tenant.id, MODEL_SET_RNC);
  const owner = callerOf(harness, world.sessions.owner);
  const workbookBase64 = modelWorkbookBase64('ecf');

  const noCertificate = await trpcFailureOf(owner.certification.startRun({ environment, workbookBase64 }));
  assert.equal(noCertificate.code, 'CONFLICT');
  assert.equal(detailsOf(noCertificate).code, 'CERTIFICATE_NOT_ACTIVE');

  await seedSigningCertificate(harness.database, { id: world.tenant.id, rnc: MODEL_SET_RNC });
  const { run: started } = await owner.certification.startRun({ environment, workbookBase64 });
  assert.equal(started.state, 'queued');
  assert.equal(started.part, 'data');
  assert.equal(started.totals.documents, 25);
  // The run's first job is on its queue (the worker drives it).
  const jobs = await harness.database.$queryRawUnsafe<Array<{ count: bigint }>>(
    `SELECT count(*) AS count FROM pgboss.job WHERE name = 'certification.advance' AND data->>'runId' = $1`,
    started.runId,
  );
  assert.equal(Number(jobs[0]?.count), 1);

  const { case: view } = await owner.certification.case({ environment });
  assert.equal(view.state, 'in_progress');
  assert.equal(view.steps[0]?.state, 'done');
  assert.equal(view.steps[0]?.source, 'set');
  assert.equal(view.step, 'data_tests_ecf');
  assert.equal(view.nextAction?.completedBy, 'service');
  assert.deepEqual(
    view.runs.map((run) => run.runId),
    [started.runId],
  );

  const { run, canManage } = await callerOf(harness, world.sessions.accountant).certification.run({
    environment,
    runId: started.runId,
  });
  assert.equal(canManage, false);
  assert.equal(run.items.length, 25);
  assert.ok(
    run.items.every((item) => item.state === 'pending' && item.row !== null && item.caseRef !== null),
  );
  assert.ok(run.items[0]?.caseRef?.startsWith(MODEL_SET_RNC));

  const again = await trpcFailureOf(owner.certification.startRun({ environment, workbookBase64 }));
  assert.equal(again.code, 'CONFLICT');
  assert.equal(detailsOf(again).code, 'CERTIFICATION_RUN_IN_PROGRESS');

  // Another tenant's owner: NOT_FOUND, exactly as a run that does not exist.
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  for (const runId of [started.runId, '00000000-0000-4000-8000-000000000000']) {
    const hidden = await trpcFailureOf(intruder.certification.run({ environment, runId }));
    assert.equal(hidden.code, 'NOT_FOUND');
  }
  assert.deepEqual((await intruder.certification.case({ environment })).case.runs, []);

  const restarted = await owner.certification.restart({ environment, part: 'data' });
  assert.equal(restarted.stoppedRunId, started.runId);
  assert.equal((await owner.certification.run({ environment, runId: started.runId })).run.state, 'stopped');
  const after = (await owner.certification.case({ environment })).case;
  assert.equal(after.step, 'data_tests_ecf');
  assert.equal(after.steps[0]?.state, 'done', 'the application stays');
});

test('attestations in order: an early step is refused with the missing steps; the first one completes step 1', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  const early = await trpcFailureOf(
    developer.certification.attest({ environment, step: 'test_service_urls', notes: 'Registradas' }),
  );
  assert.equal(early.code, 'CONFLICT');
  assert.equal(detailsOf(early).code, 'CERTIFICATION_PREREQUISITES_MISSING');

  await seedOpenCase(harness.database, world.tenant.id);
  const missing = await trpcFailureOf(
    developer.certification.attest({ environment, step: 'test_service_urls' }),
  );
  assert.equal(detailsOf(missing).code, 'CERTIFICATION_PREREQUISITES_MISSING');
  assert.deepEqual((detailsOf(missing).details?.['missingSteps'] as string[]).slice(0, 2), [
    'registered',
    'data_tests_ecf',
  ]);

  const recorded = await developer.certification.attest({
    environment,
    step: 'registered',
    notes: 'Postulación aprobada',
  });
  assert.equal(recorded.step, 'data_tests_ecf');
  const attestation = await harness.database.certificationAttestation.findFirstOrThrow({
    where: { tenantId: world.tenant.id },
  });
  assert.equal(attestation.notes, 'Postulación aprobada');
  assert.equal(attestation.recordedBy, `user:${world.users.developer.id}`);
  const { case: view } = await developer.certification.case({ environment });
  assert.equal(view.steps[0]?.source, 'attestation');

  const notAttestable = await trpcFailureOf(
    developer.certification.attest({ environment, step: 'data_tests_ecf' as 'registered' }),
  );
  assert.equal(notAttestable.code, 'BAD_REQUEST');
});

test('commercial approvals after the data tests; resend of a stuck receipt, never another tenant’s; production after the sworn declaration', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  await claimRnc(harness.database, world.tenant.id, MODEL_APPROVALS_RNC);
  await seedSigningCertificate(harness.database, { id: world.tenant.id, rnc: MODEL_APPROVALS_RNC });
  assert.deepEqual(await owner.certification.approvals({ environment }), { commercialApprovals: null });
  const early = await trpcFailureOf(
    owner.certification.sendApprovals({ environment, workbookBase64: modelWorkbookBase64('approvals') }),
  );
  assert.equal(detailsOf(early).code, 'CERTIFICATION_DATA_TESTS_PENDING');

  const production = await trpcFailureOf(owner.certification.requestActivation({ environment }));
  assert.equal(production.code, 'CONFLICT');
  assert.equal(detailsOf(production).code, 'CERTIFICATION_NOT_APPROVED');

  await seedOpenCase(harness.database, world.tenant.id, ['registered', 'data_tests_ecf']);
  const { commercialApprovals } = await owner.certification.sendApprovals({
    environment,
    workbookBase64: modelWorkbookBase64('approvals'),
  });
  assert.equal(commercialApprovals.state, 'queued');
  assert.equal(commercialApprovals.items.length, 11);
  assert.ok(commercialApprovals.items.every((item) => item.state === 'pending' && item.row >= 2));
  assert.equal(
    (await owner.certification.approvals({ environment })).commercialApprovals?.sendId,
    commercialApprovals.sendId,
  );
  const dataSet = await trpcFailureOf(
    owner.certification.sendApprovals({ environment, workbookBase64: modelWorkbookBase64('ecf') }),
  );
  assert.equal(detailsOf(dataSet).code, 'COMMERCIAL_APPROVALS_IN_PROGRESS');

  const other = await seedWorld(harness.database);
  const { documentId } = await seedIssuedRun(harness.database, other.tenant.id);
  const hidden = await trpcFailureOf(owner.certification.resend({ environment, documentId }));
  assert.equal(hidden.code, 'NOT_FOUND');
  const resent = await callerOf(harness, other.sessions.developer).certification.resend({
    environment,
    documentId,
  });
  assert.deepEqual([resent.action, resent.status], ['status_queried', 'sent']);
});

test('a rejected row: the run says which row and the tax authority’s message; the case failed; a restart opens it again', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  const { runId, encf } = await seedRejectedRun(harness.database, world.tenant.id);
  const { run } = await developer.certification.run({ environment, runId });
  assert.equal(run.state, 'failed');
  assert.deepEqual(run.failure, {
    code: 'TAXAUTH_REJECTED',
    message: `The tax authority rejected ${encf} (row 2): restart the data tests with a new set.`,
    encf,
    row: 2,
    messages: [{ code: REJECTION_MESSAGE.codigo, message: REJECTION_MESSAGE.valor }],
  });
  const [rejected, stopped] = run.items;
  assert.deepEqual(rejected?.taxauthMessages, [
    { code: REJECTION_MESSAGE.codigo, message: REJECTION_MESSAGE.valor },
  ]);
  assert.equal(rejected?.problem, null);
  assert.equal(rejected?.documentStatus, 'rejected');
  assert.deepEqual([stopped?.state, stopped?.documentId, stopped?.taxauthMessages], ['stopped', null, []]);

  const { case: view } = await developer.certification.case({ environment });
  assert.equal(view.state, 'failed');
  assert.equal(view.runs[0]?.failure?.encf, encf);
  // The receipt is resolved: nothing to resend.
  const resolved = await trpcFailureOf(
    developer.certification.resend({ environment, documentId: rejected?.documentId ?? '' }),
  );
  assert.equal(detailsOf(resolved).code, 'CERTIFICATION_DOCUMENT_NOT_RESENDABLE');

  const restarted = await developer.certification.restart({ environment, part: 'data' });
  assert.equal(restarted.state, 'in_progress');
  assert.equal(restarted.stoppedRunId, null);
  const again = (await developer.certification.case({ environment })).case;
  assert.equal(again.state, 'in_progress');
  assert.ok(again.runs[0]?.replacedAt !== null, 'the failed run was replaced');
});
