import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TRPCError } from '@trpc/server';
import { artifactData } from '@ecf/db';
import { AppError } from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  type TPortalHarness,
  type TWorld,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

let sequence = 0;
async function seedDocument(tenantId: string, status: 'contingency' | 'accepted') {
  sequence += 1;
  return harness.database.document.create({
    data: {
      tenantId,
      environment: 'TesteCF',
      type: 31,
      encf: `E31${String(Date.now() % 1e7).padStart(7, '0')}${String(sequence).padStart(3, '0')}`,
      status,
      format: 'simplified',
      issueDate: new Date('2026-11-20'),
      totalAmount: '118.00',
      submittedPayload: {},
      contingencySince: status === 'contingency' ? new Date() : null,
    },
  });
}

function auditOf(tenantId: string, action: string, targetId: string) {
  return harness.database.portalAuditEntry.count({ where: { tenantId, action, targetId } });
}

function supportOf(world: TWorld) {
  return callerOf(harness, world.sessions.support);
}

test("support's reads of the desk write one support view per tenant whose data they return", async () => {
  const world = await seedWorld(harness.database);
  await seedDocument(world.tenant.id, 'contingency');
  await seedDocument(world.tenant.id, 'contingency');
  await seedDocument(world.otherTenant.id, 'contingency');
  const { items } = await supportOf(world).support.contingency({});
  assert.equal(items.filter((item) => item.tenant.id === world.tenant.id).length, 2);
  assert.equal(items.filter((item) => item.tenant.id === world.otherTenant.id).length, 1);
  assert.equal(await auditOf(world.tenant.id, 'support.viewed', 'support.contingency'), 1);
  assert.equal(await auditOf(world.otherTenant.id, 'support.viewed', 'support.contingency'), 1);

  // Episodes are per environment, nobody's data: no tenant's log gets an entry.
  const before = await harness.database.portalAuditEntry.count();
  await supportOf(world).support.episodes();
  assert.equal(await harness.database.portalAuditEntry.count(), before);
});

test('acknowledging a notification is idempotent and audited once in its tenant', async () => {
  const world = await seedWorld(harness.database);
  const notification = await harness.database.operatorNotification.create({
    data: { kind: 'contingency_72h', tenantId: world.tenant.id, data: { message: '72 horas' } },
  });
  const { notifications } = await supportOf(world).support.notifications();
  assert.ok(notifications.some((item) => item.id === notification.id && item.acknowledgedAt === null));
  assert.equal(await auditOf(world.tenant.id, 'support.viewed', 'support.notifications'), 1);

  const first = await supportOf(world).support.acknowledgeNotification({ notificationId: notification.id });
  assert.equal(first.acknowledged, true);
  assert.equal(first.notification.acknowledgedBy?.id, world.users.support.id);
  const again = await supportOf(world).support.acknowledgeNotification({ notificationId: notification.id });
  assert.equal(again.acknowledged, false);
  assert.equal(again.notification.acknowledgedAt, first.notification.acknowledgedAt);
  assert.equal(await auditOf(world.tenant.id, 'support.acted', 'notification.acknowledged'), 1);
});

test("an ARECF that does not fit is refused with the API use-case's code and reason; nothing changes", async () => {
  const world = await seedWorld(harness.database);
  const document = await seedDocument(world.otherTenant.id, 'accepted');
  await harness.database.receiverDelivery.create({
    data: { documentId: document.id, tenantId: world.otherTenant.id, status: 'uncertain', attempts: 6 },
  });
  // What the buyer's ARECF is compared with: the parties of the stored e-CF.
  await harness.database.artifact.create({
    data: artifactData({
      tenantId: world.otherTenant.id,
      documentId: document.id,
      kind: 'signed_xml',
      contentType: 'application/xml',
      content: `<?xml version="1.0" encoding="utf-8"?><ECF><Encabezado><IdDoc><eNCF>${document.encf}</eNCF></IdDoc><Emisor><RNCEmisor>${world.otherTenant.rnc}</RNCEmisor></Emisor><Comprador><RNCComprador>101672919</RNCComprador></Comprador></Encabezado></ECF>`,
    }),
  });
  const { deliveries } = await supportOf(world).support.uncertainDeliveries();
  assert.ok(deliveries.some((delivery) => delivery.documentId === document.id));
  assert.equal(await auditOf(world.otherTenant.id, 'support.viewed', 'support.uncertainDeliveries'), 1);

  await assert.rejects(
    supportOf(world).support.reconcileDelivery({
      documentId: document.id,
      outcome: 'sent',
      evidence: { arecfXml: 'no es XML' },
    }),
    (error: unknown) => {
      assert.ok(error instanceof TRPCError);
      assert.equal(error.code, 'CONFLICT');
      assert.ok(error.cause instanceof AppError);
      assert.equal(error.cause.code, 'RECEIVER_DELIVERY_EVIDENCE_INVALID');
      assert.equal(error.cause.details['reason'], 'not_xml');
      return true;
    },
  );
  // Bad input never reaches the use-case: a NUL in the note, an unknown property.
  for (const input of [
    { documentId: document.id, outcome: 'dispatch_failed', note: 'a\u0000b' },
    { documentId: document.id, outcome: 'dispatch_failed', tenantId: world.tenant.id },
  ])
    await assert.rejects(
      supportOf(world).support.reconcileDelivery(input as never),
      (error: unknown) => error instanceof TRPCError && error.code === 'BAD_REQUEST',
    );
  const delivery = await harness.database.receiverDelivery.findUniqueOrThrow({
    where: { documentId: document.id },
  });
  assert.equal(delivery.status, 'uncertain');
  assert.equal(await auditOf(world.otherTenant.id, 'support.acted', 'receiver_delivery.reconciled'), 0);

  // The named action works and is audited in the document's tenant (support named no tenant).
  const done = await supportOf(world).support.reconcileDelivery({
    documentId: document.id,
    outcome: 'dispatch_failed',
  });
  assert.equal(done.status, 'dispatch_failed');
  assert.equal(await auditOf(world.otherTenant.id, 'support.acted', 'receiver_delivery.reconciled'), 1);
  assert.equal(await auditOf(world.tenant.id, 'support.acted', 'receiver_delivery.reconciled'), 0);
});
