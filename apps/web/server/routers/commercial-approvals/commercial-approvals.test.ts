// The commercial approval procedures: an accountant reads and answers, a developer reads only, the
// dispatch state with the kept body is shown, an uncertain dispatch is reconciled once (replay,
// conflict), another tenant's e-CF is NOT_FOUND, bad input is BAD_REQUEST with the field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TRPCError } from '@trpc/server';
import { seedReceivedWithApproval } from '../../../test/commercial-approval-seed.ts';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
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

test('reading: the dispatch state with attempts and the kept body; canApprove by role; null when unanswered', async () => {
  const world = await seedWorld(harness.database);
  const { inboundDocumentId } = await seedReceivedWithApproval(harness.database, {
    tenantId: world.tenant.id,
    buyerRnc: world.tenant.rnc,
    approval: {
      dispatchStatus: 'retry_scheduled',
      dispatchAttempts: 2,
      lastResponse: {
        attempt: 2,
        httpStatus: 503,
        body: 'no disponible',
        responseTruncated: false,
        responseBytes: 13,
        reason: 'http_503',
        message: 'The issuer answered HTTP 503.',
      },
    },
  });
  const accountant = callerOf(harness, world.sessions.accountant);
  const seen = await accountant.commercialApprovals.get({ environment: 'TesteCF', inboundDocumentId });
  assert.equal(seen.canApprove, true);
  assert.equal(seen.commercialApproval?.dispatch.status, 'retry_scheduled');
  assert.equal(seen.commercialApproval?.dispatch.attempts, 2);
  assert.equal(seen.commercialApproval?.dispatch.httpStatus, 503);
  assert.equal(seen.commercialApproval?.dispatch.body, 'no disponible');
  assert.equal(seen.commercialApproval?.taxauth.status, 'accepted');
  const developer = callerOf(harness, world.sessions.developer);
  assert.equal(
    (await developer.commercialApprovals.get({ environment: 'TesteCF', inboundDocumentId })).canApprove,
    false,
  );
  const unanswered = await seedReceivedWithApproval(harness.database, {
    tenantId: world.tenant.id,
    buyerRnc: world.tenant.rnc,
  });
  assert.equal(
    (
      await accountant.commercialApprovals.get({
        environment: 'TesteCF',
        inboundDocumentId: unanswered.inboundDocumentId,
      })
    ).commercialApproval,
    null,
  );
});

test('answering: the same decision again answers its state; another decision is a conflict; a developer is refused', async () => {
  const world = await seedWorld(harness.database);
  const { inboundDocumentId } = await seedReceivedWithApproval(harness.database, {
    tenantId: world.tenant.id,
    buyerRnc: world.tenant.rnc,
    approval: { decision: 'accept' },
  });
  const owner = callerOf(harness, world.sessions.owner);
  const approvalDate = new Date(Date.now() - 60_000).toISOString();
  const again = await owner.commercialApprovals.submit({
    environment: 'TesteCF',
    inboundDocumentId,
    decision: 'accept',
    approvalDate,
  });
  assert.equal(again.status, 200);
  assert.equal(again.replayed, true);
  const conflict = await trpcFailureOf(
    owner.commercialApprovals.submit({
      environment: 'TesteCF',
      inboundDocumentId,
      decision: 'reject',
      approvalDate,
      rejectionReason: 'Dañado',
    }),
  );
  assert.equal(detailsOf(conflict).code, 'COMMERCIAL_APPROVAL_DECISION_CONFLICT');
  const developer = callerOf(harness, world.sessions.developer);
  const refused = await trpcFailureOf(
    developer.commercialApprovals.submit({
      environment: 'TesteCF',
      inboundDocumentId,
      decision: 'accept',
      approvalDate,
    }),
  );
  assert.equal(refused.code, 'FORBIDDEN');
  const noReason = await trpcFailureOf(
    owner.commercialApprovals.submit({
      environment: 'TesteCF',
      inboundDocumentId,
      decision: 'reject',
      approvalDate,
    }),
  );
  assert.equal(noReason.code, 'BAD_REQUEST');
  assert.ok(JSON.stringify(noReason.cause ?? noReason.message).includes('rejectionReason'));
  const badDate = await trpcFailureOf(
    owner.commercialApprovals.submit({
      environment: 'TesteCF',
      inboundDocumentId,
      decision: 'accept',
      approvalDate: '2026-02-30T10:00',
    }),
  );
  assert.equal(detailsOf(badDate).code, 'COMMERCIAL_APPROVAL_DATE_INVALID');
  assert.equal(detailsOf(badDate).details?.['reason'], 'invalid');
});

test("another tenant's received e-CF is NOT_FOUND", async () => {
  const world = await seedWorld(harness.database);
  const theirs = await seedReceivedWithApproval(harness.database, {
    tenantId: world.otherTenant.id,
    buyerRnc: world.otherTenant.rnc,
  });
  const owner = callerOf(harness, world.sessions.owner);
  const read = await trpcFailureOf(
    owner.commercialApprovals.get({ environment: 'TesteCF', inboundDocumentId: theirs.inboundDocumentId }),
  );
  assert.equal(read.code, 'NOT_FOUND');
  const submit = await trpcFailureOf(
    owner.commercialApprovals.submit({
      environment: 'TesteCF',
      inboundDocumentId: theirs.inboundDocumentId,
      decision: 'accept',
      approvalDate: new Date().toISOString(),
    }),
  );
  assert.equal(submit.code, 'NOT_FOUND');
});

test('reconciling an uncertain dispatch: once, replayed, another outcome refused, evidence kept', async () => {
  const world = await seedWorld(harness.database);
  const { inboundDocumentId } = await seedReceivedWithApproval(harness.database, {
    tenantId: world.tenant.id,
    buyerRnc: world.tenant.rnc,
    approval: { dispatchStatus: 'uncertain' },
  });
  const accountant = callerOf(harness, world.sessions.accountant);
  const input = {
    environment: 'TesteCF' as const,
    inboundDocumentId,
    outcome: 'sent' as const,
    evidence: 'Correo del emisor: recibido',
    note: 'Confirmado',
  };
  const first = await accountant.commercialApprovals.reconcile(input);
  assert.equal(first.replayed, false);
  assert.equal(first.commercialApproval.dispatch.status, 'sent');
  assert.equal(first.commercialApproval.reconciliation?.evidence?.contentType, 'text/plain');
  const artifact = await harness.database.artifact.findUniqueOrThrow({
    where: { id: first.commercialApproval.reconciliation?.evidence?.artifactId ?? '' },
  });
  assert.equal(Buffer.from(artifact.content).toString('utf8'), 'Correo del emisor: recibido');
  assert.ok(artifact.retainUntil !== null);
  assert.equal((await accountant.commercialApprovals.reconcile(input)).replayed, true);
  const other = await trpcFailureOf(
    accountant.commercialApprovals.reconcile({ ...input, outcome: 'dispatch_failed' }),
  );
  assert.equal(detailsOf(other).code, 'COMMERCIAL_APPROVAL_NOT_UNCERTAIN');
  const developer = callerOf(harness, world.sessions.developer);
  assert.equal((await trpcFailureOf(developer.commercialApprovals.reconcile(input))).code, 'FORBIDDEN');
});
