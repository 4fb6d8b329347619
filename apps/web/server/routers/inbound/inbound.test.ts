// The received documents' procedures (issue 18, task L): the owner, the developer and the
// accountant read "Recibidos" and "Aprobaciones recibidas" with the API's filters and cursor;
// another tenant's ids are NOT_FOUND, an ACECF's id is not a received e-CF; bad filters are
// BAD_REQUEST with the code of the REST API.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';
import { seedInbound } from '@ecf/db';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test('the accountant pages the received e-CF with filters; the item has its deadline and view', async () => {
  const world = await seedWorld(harness.database);
  const accountant = callerOf(harness, world.sessions.accountant);
  const older = await seedInbound(harness.database, {
    tenantId: world.tenant.id,
    receivedAt: new Date('2026-11-03T15:00:00Z'),
    issueDate: '2026-11-02',
  });
  const newer = await seedInbound(harness.database, {
    tenantId: world.tenant.id,
    receivedAt: new Date('2026-11-04T15:00:00Z'),
    issuerRnc: '101999999',
  });
  const refused = await seedInbound(harness.database, {
    tenantId: world.tenant.id,
    status: 'not_received',
    notReceivedCode: 3,
    receivedAt: new Date('2026-11-05T15:00:00Z'),
  });
  const first = await accountant.inbound.listDocuments({ environment: 'TesteCF', query: { limit: '2' } });
  assert.deepEqual(
    first.items.map((item) => item.inboundDocumentId),
    [refused.id, newer.id],
  );
  assert.ok(first.nextCursor);
  const second = await accountant.inbound.listDocuments({
    environment: 'TesteCF',
    query: { limit: '2', cursor: first.nextCursor },
  });
  assert.deepEqual(
    second.items.map((item) => item.inboundDocumentId),
    [older.id],
  );
  assert.equal(second.nextCursor, null);
  const pending = await accountant.inbound.listDocuments({
    environment: 'TesteCF',
    query: { group: 'pending_approval', issuerRnc: '101999999' },
  });
  assert.deepEqual(
    pending.items.map((item) => item.inboundDocumentId),
    [newer.id],
  );

  const item = await accountant.inbound.getDocument({ environment: 'TesteCF', inboundDocumentId: older.id });
  assert.equal(item.commercialApprovalDeadline, '2026-12-15');
  assert.equal(item.group, 'pending_approval');
  assert.equal(item.totalAmount, '11800.00');
  assert.equal(item.view, `/TesteCF/received/${older.id}`);

  const bad = await trpcFailureOf(
    accountant.inbound.listDocuments({ environment: 'TesteCF', query: { group: 'nope' as 'accepted' } }),
  );
  assert.equal(bad.code, 'BAD_REQUEST');
  const badCursor = await trpcFailureOf(
    accountant.inbound.listDocuments({
      environment: 'TesteCF',
      query: { group: 'accepted', cursor: first.nextCursor },
    }),
  );
  assert.equal(badCursor.code, 'BAD_REQUEST');
  assert.equal((badCursor.cause as { code?: string }).code, 'INVALID_RECEIVED_DOCUMENTS_QUERY');
});

test('another tenant, another environment, an ACECF id, an unknown id: NOT_FOUND', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const mine = await seedInbound(harness.database, { tenantId: world.tenant.id });
  const acecf = await seedInbound(harness.database, {
    tenantId: world.tenant.id,
    kind: 'commercial_approval',
    issuerRnc: world.tenant.rnc,
    decision: 'rejected',
    decisionReason: 'Precio',
  });
  const other = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  // Thunks: each call starts only when its refusal is awaited.
  for (const call of [
    () => other.inbound.getDocument({ environment: 'TesteCF', inboundDocumentId: mine.id }),
    () => owner.inbound.getDocument({ environment: 'eCF', inboundDocumentId: mine.id }),
    () => owner.inbound.getDocument({ environment: 'TesteCF', inboundDocumentId: acecf.id }),
    () => owner.inbound.getDocument({ environment: 'TesteCF', inboundDocumentId: randomUUID() }),
    () => owner.inbound.getDocument({ environment: 'TesteCF', inboundDocumentId: 'nope' }),
    () => other.inbound.getApproval({ environment: 'TesteCF', inboundDocumentId: acecf.id }),
    () => owner.inbound.getApproval({ environment: 'TesteCF', inboundDocumentId: mine.id }),
  ]) {
    const failure = await trpcFailureOf(call());
    assert.equal(failure.code, 'NOT_FOUND');
  }
  assert.deepEqual((await other.inbound.listDocuments({ environment: 'TesteCF', query: {} })).items, []);
  assert.deepEqual((await other.inbound.listApprovals({ environment: 'TesteCF', query: {} })).items, []);
  const approval = await owner.inbound.getApproval({ environment: 'TesteCF', inboundDocumentId: acecf.id });
  assert.equal(approval.decision, 'rejected');
  assert.equal(approval.decisionReason, 'Precio');
  const listed = await owner.inbound.listApprovals({ environment: 'TesteCF', query: {} });
  assert.deepEqual(
    listed.items.map((item) => item.inboundDocumentId),
    [acecf.id],
  );
});
