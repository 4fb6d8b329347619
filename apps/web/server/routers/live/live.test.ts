import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SUPPORT_VIEW_REPEAT_WINDOW_MS } from '@ecf/services';
import {
  callerOf,
  contextOf,
  openPortalHarness,
  seedWorld,
  trpcFailureOf,
  type TPortalHarness,
  type TWorld,
} from '../../../test/portal-harness.ts';
import { createCallerFactory } from '../../trpc/init.ts';
import { appRouter } from '../root.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

let sequence = 0;
async function seedDocument(
  tenantId: string,
  status: 'queued_for_signing' | 'sent' | 'contingency' | 'accepted',
  options: { environment?: 'TesteCF' | 'CerteCF'; nextAttemptAt?: string } = {},
) {
  sequence += 1;
  return harness.database.document.create({
    data: {
      tenantId,
      environment: options.environment ?? 'TesteCF',
      type: 31,
      encf: `E31${String(Date.now() % 1e7).padStart(7, '0')}${String(sequence).padStart(3, '0')}`,
      status,
      format: 'simplified',
      issueDate: new Date('2026-11-20'),
      totalAmount: '118.00',
      submittedPayload: {},
      contingencySince: status === 'contingency' ? new Date() : null,
      lastError:
        options.nextAttemptAt === undefined
          ? undefined
          : {
              code: 'TAXAUTH_UNAVAILABLE',
              message: 'The tax authority did not answer (timeout): no answer',
              retrying: true,
              failures: 2,
              nextAttemptAt: options.nextAttemptAt,
            },
    },
  });
}

/** A caller whose clock reads `at` (the repeat window of support's views is measured on it). */
function callerAt(world: TWorld, at: Date) {
  return createCallerFactory(appRouter)({ ...contextOf(harness, world.sessions.support), now: () => at });
}

function supportViews(tenantId: string, targetId: string) {
  return harness.database.portalAuditEntry.count({
    where: { tenantId, action: 'support.viewed', targetId },
  });
}

test("live.documents answers the status and next retry of the active tenant's documents, and follows them", async () => {
  const world = await seedWorld(harness.database);
  const nextAttemptAt = new Date(Date.now() + 130_000).toISOString();
  const queued = await seedDocument(world.tenant.id, 'queued_for_signing');
  const waiting = await seedDocument(world.tenant.id, 'contingency', { nextAttemptAt });
  const otherEnvironment = await seedDocument(world.tenant.id, 'sent', { environment: 'CerteCF' });
  const otherTenant = await seedDocument(world.otherTenant.id, 'sent');
  const owner = callerOf(harness, world.sessions.owner);

  const first = await owner.live.documents({
    environment: 'TesteCF',
    documentIds: [queued.id, waiting.id.toUpperCase(), otherEnvironment.id, otherTenant.id],
  });
  assert.deepEqual(
    first.items.map((item) => [item.documentId, item.status, item.nextAttemptAt]),
    [
      [queued.id, 'queued_for_signing', null],
      [waiting.id, 'contingency', nextAttemptAt],
    ],
  );
  assert.ok(Date.parse(first.checkedAt) > 0);

  // The worker moves it: the next refresh sees the new status and a new updatedAt.
  await harness.database.document.update({ where: { id: queued.id }, data: { status: 'accepted' } });
  const second = await owner.live.documents({ environment: 'TesteCF', documentIds: [queued.id] });
  assert.equal(second.items[0]?.status, 'accepted');
  assert.notEqual(second.items[0]?.updatedAt, first.items[0]?.updatedAt);

  // An accountant reads documents too; bad input names the field, never a 5xx.
  const accountant = callerOf(harness, world.sessions.accountant);
  assert.equal(
    (await accountant.live.documents({ environment: 'TesteCF', documentIds: [waiting.id] })).items.length,
    1,
  );
  for (const documentIds of [[], ['no-es-un-id'], Array.from({ length: 101 }, () => queued.id)]) {
    const failure = await trpcFailureOf(owner.live.documents({ environment: 'TesteCF', documentIds }));
    assert.equal(failure.code, 'BAD_REQUEST');
  }
});

test("support's refreshes of a live page are audited once per 5 minutes, not once per poll", async () => {
  const world = await seedWorld(harness.database);
  const waiting = await seedDocument(world.tenant.id, 'contingency', {
    nextAttemptAt: new Date(Date.now() + 60_000).toISOString(),
  });
  const start = new Date();
  const input = { environment: 'TesteCF' as const, documentIds: [waiting.id] };

  // The document page polled 12 times (a minute at 5 s), two of them at once: one entry.
  for (let poll = 0; poll < 10; poll += 1)
    await callerAt(world, new Date(start.getTime() + poll * 5000)).live.documents(input);
  await Promise.all([
    callerAt(world, new Date(start.getTime() + 50_000)).live.documents(input),
    callerAt(world, new Date(start.getTime() + 50_000)).live.documents(input),
  ]);
  assert.equal(await supportViews(world.tenant.id, 'live.documents'), 1);

  // Another document is another view.
  const other = await seedDocument(world.tenant.id, 'sent');
  await callerAt(world, new Date(start.getTime() + 55_000)).live.documents({
    environment: 'TesteCF',
    documentIds: [other.id],
  });
  assert.equal(await supportViews(world.tenant.id, 'live.documents'), 2);

  // Once the window has passed, the same view is recorded again.
  await callerAt(world, new Date(start.getTime() + SUPPORT_VIEW_REPEAT_WINDOW_MS + 1000)).live.documents(
    input,
  );
  assert.equal(await supportViews(world.tenant.id, 'live.documents'), 3);

  // The owner's own reads are never audited as support views.
  await callerOf(harness, world.sessions.owner).live.documents(input);
  assert.equal(await supportViews(world.tenant.id, 'live.documents'), 3);
});

test('the support desk polled N times writes one support view per tenant, and a new one when its data changes', async () => {
  const world = await seedWorld(harness.database);
  await seedDocument(world.tenant.id, 'contingency');
  const start = new Date();
  for (let poll = 0; poll < 8; poll += 1) {
    const at = new Date(start.getTime() + poll * 5000);
    await callerAt(world, at).support.contingency({});
    await callerAt(world, at).support.episodes();
  }
  assert.equal(await supportViews(world.tenant.id, 'support.contingency'), 1);

  // A second document in contingency is new data for this tenant: recorded once more.
  await seedDocument(world.tenant.id, 'contingency');
  for (let poll = 0; poll < 3; poll += 1)
    await callerAt(world, new Date(start.getTime() + 60_000 + poll * 5000)).support.contingency({});
  assert.equal(await supportViews(world.tenant.id, 'support.contingency'), 2);
});
