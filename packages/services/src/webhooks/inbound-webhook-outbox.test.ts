// The receiving outbox (migration 0015's trigger on `inbound_documents`, issue 18 task L): a
// received e-CF writes `taxauth.public.receiver.ecf.received` and `document.received`; a refused
// one nothing; a received ACECF `document.commercial_approval_received` with its correspondence;
// the due sweep `document.commercial_approval_due` once per unanswered e-CF, in its own statement.
// The fan-out turns each row into a direct body that parses; the Partner builder takes each row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf, type WebhookEvent } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { insertTestEndpoint, recordingEnqueue } from '../../test/webhook-engine.ts';
import { seedEncf, seedInbound } from '@ecf/db';
import { announceCommercialApprovalsDue } from '../inbound/announce-commercial-approvals-due.ts';
import { fanOutWebhookEvents } from './fan-out-webhook-events.ts';
import {
  buildPartnerWebhookPayload,
  ZDirectWebhookPayload,
  ZPartnerWebhookPayload,
  type TWebhookEventRecord,
} from './payloads.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

const RECEIVING_TYPES = [
  'taxauth.public.receiver.ecf.received',
  'document.commercial_approval_received',
  'document.commercial_approval_due',
];

async function eventsOf(inboundDocumentId: string) {
  return context.database.webhookEvent.findMany({
    where: { data: { path: ['inbound', 'id'], equals: inboundDocumentId } },
    orderBy: { sequence: 'asc' },
  });
}

function recordOf(event: WebhookEvent): TWebhookEventRecord {
  return {
    id: event.id,
    sequence: String(event.sequence),
    type: event.type,
    tenantId: event.tenantId,
    environment: event.environment,
    documentId: event.documentId,
    episodeId: null,
    data: event.data as Record<string, unknown>,
    createdAt: event.createdAt,
  };
}

async function directBodiesOf(eventId: string) {
  const deliveries = await context.database.webhookDelivery.findMany({ where: { eventId } });
  return deliveries.map((delivery) =>
    ZDirectWebhookPayload.parse(JSON.parse(Buffer.from(delivery.body).toString('utf8'))),
  );
}

test('a received e-CF: the direct and the Partner event, with the inboundDocumentId; a refused one: none', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101180001' });
  await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: RECEIVING_TYPES });
  const received = await seedInbound(context.database, {
    tenantId: tenant.id,
    issuerRnc: '131880681',
    issuerName: 'Proveedor SRL',
    issueDate: '2026-11-02',
    totalAmount: '11800.50',
  });
  const refused = await seedInbound(context.database, {
    tenantId: tenant.id,
    status: 'not_received',
    xml: null,
  });
  assert.deepEqual(await eventsOf(refused.id), []);
  const events = await eventsOf(received.id);
  assert.deepEqual(
    events.map((event) => event.type),
    ['taxauth.public.receiver.ecf.received', 'document.received'],
  );
  await fanOutWebhookEvents({
    database: context.database,
    enqueue: recordingEnqueue(),
    now: () => new Date(),
  });
  const [direct] = await directBodiesOf(events[0]!.id);
  assert.ok(direct);
  assert.equal(direct.document, null);
  assert.deepEqual(direct.data.payload, {
    inboundDocumentId: received.id,
    encf: received.encf,
    type: 'E31',
    issuerRnc: '131880681',
    issuerName: 'Proveedor SRL',
    buyerRnc: '101000001',
    issueDate: '2026-11-02',
    totalAmount: '11800.50',
    receivedAt: received.row.receivedAt.toISOString(),
  });
  // The Partner name is not a direct subscription: no direct delivery of it.
  assert.deepEqual(await directBodiesOf(events[1]!.id), []);
  const partner = buildPartnerWebhookPayload(recordOf(events[1]!), {
    fiscalAccountId: tenant.id,
    externalTenantId: 'erp-1',
  });
  assert.ok(ZPartnerWebhookPayload.safeParse(partner).success);
  assert.equal(partner.type, 'document.received');
  assert.deepEqual(partner.resource, { kind: 'inbound_document', id: received.id, state: 'received' });
});

test('a received ACECF: document.commercial_approval_received with correspondence and the issued document', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101180002' });
  await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: RECEIVING_TYPES });
  const issued = await seedDocument(context.database, { tenantId: tenant.id, encf: seedEncf('31') });
  const acecf = await seedInbound(context.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    encf: issued.encf,
    issuerRnc: tenant.rnc,
    buyerRnc: '101000009',
    decision: 'rejected',
    decisionReason: 'Precio no acordado',
    decidedAtText: '05-11-2026 10:00:00',
    documentId: issued.id,
    correspondence: {
      result: 'mismatch',
      mismatches: [{ field: 'MontoTotal', received: '10.00', issued: '11.00' }],
    },
  });
  const duplicate = await seedInbound(context.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    status: 'duplicate',
    encf: issued.encf,
    issuerRnc: tenant.rnc,
  });
  assert.deepEqual(await eventsOf(duplicate.id), [], 'a refused ACECF announces nothing');
  const [event] = await eventsOf(acecf.id);
  assert.ok(event);
  assert.equal(event.type, 'document.commercial_approval_received');
  assert.equal(event.documentId, issued.id);
  await fanOutWebhookEvents({
    database: context.database,
    enqueue: recordingEnqueue(),
    now: () => new Date(),
  });
  const [body] = await directBodiesOf(event.id);
  assert.ok(body);
  assert.equal(body.document?.id, issued.id);
  assert.equal(body.document?.encf, issued.encf);
  assert.equal(body.data.severity, 'warning');
  assert.deepEqual(body.data.payload, {
    inboundDocumentId: acecf.id,
    encf: issued.encf,
    buyerRnc: '101000009',
    documentId: issued.id,
    decision: 'rejected',
    rejectionReason: 'Precio no acordado',
    approvedAt: '05-11-2026 10:00:00',
    correspondence: {
      result: 'mismatch',
      mismatches: [{ field: 'MontoTotal', received: '10.00', issued: '11.00' }],
    },
    receivedAt: acecf.row.receivedAt.toISOString(),
  });
  const partner = buildPartnerWebhookPayload(recordOf(event), {
    fiscalAccountId: tenant.id,
    externalTenantId: 'erp-2',
  });
  assert.deepEqual(partner.resource, { kind: 'inbound_document', id: acecf.id, state: 'rejected' });
  assert.equal(partner.data['rejectionReason'], 'Precio no acordado');

  // An ACECF on an e-CF we never issued: ecf_not_found, no document.
  const orphan = await seedInbound(context.database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    issuerRnc: tenant.rnc,
    decision: 'accepted',
    correspondence: { result: 'ecf_not_found' },
  });
  const [orphanEvent] = await eventsOf(orphan.id);
  assert.equal(orphanEvent?.documentId, null);
  await fanOutWebhookEvents({
    database: context.database,
    enqueue: recordingEnqueue(),
    now: () => new Date(),
  });
  const [orphanBody] = await directBodiesOf(orphanEvent.id);
  assert.equal(orphanBody?.document, null);
  assert.deepEqual(orphanBody?.data.payload['correspondence'], { result: 'ecf_not_found' });
});

test('the due sweep: once per unanswered e-CF within 3 Dominican days of its deadline; never past, never answered', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101180003' });
  await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: RECEIVING_TYPES });
  // Deadline of an e-CF issued in November: 15 December.
  const dueSoon = await seedInbound(context.database, {
    tenantId: tenant.id,
    issueDate: '2026-11-20',
    issuerName: 'Prov A',
  });
  const dueLater = await seedInbound(context.database, {
    tenantId: tenant.id,
    issueDate: '2026-11-20',
    approvalDeadline: '2026-12-20',
  });
  const answered = await seedInbound(context.database, { tenantId: tenant.id, issueDate: '2026-11-20' });
  await context.database.commercialApproval.create({
    data: {
      inboundDocumentId: answered.id,
      tenantId: tenant.id,
      environment: 'TesteCF',
      decision: 'accept',
      approvalDate: new Date('2026-12-01T12:00:00Z'),
      targetSource: 'directory',
    },
  });
  const past = await seedInbound(context.database, { tenantId: tenant.id, issueDate: '2026-10-20' });
  const refused = await seedInbound(context.database, {
    tenantId: tenant.id,
    status: 'not_received',
    issueDate: '2026-11-20',
  });

  // 11 December 23:30 in Santo Domingo (12 December UTC): 4 days left, nothing yet.
  const first = await announceCommercialApprovalsDue({
    database: context.database,
    now: () => new Date('2026-12-12T03:30:00Z'),
  });
  const mine = (ids: string[]) =>
    ids.filter((id) => [dueSoon.id, dueLater.id, answered.id, past.id, refused.id].includes(id));
  assert.deepEqual(mine(first.inboundDocumentIds), []);
  // 12 December in Santo Domingo: 3 days left.
  const at = new Date('2026-12-12T05:00:00Z');
  const second = await announceCommercialApprovalsDue({ database: context.database, now: () => at });
  // (e-CF of the other tests, issued in November too, are due as well.)
  assert.deepEqual(mine(second.inboundDocumentIds), [dueSoon.id]);
  const again = await announceCommercialApprovalsDue({ database: context.database, now: () => at });
  assert.deepEqual(again.inboundDocumentIds, [], 'once per e-CF');

  const events = (await eventsOf(dueSoon.id)).filter(
    (event) => event.type === 'document.commercial_approval_due',
  );
  assert.equal(events.length, 1);
  await fanOutWebhookEvents({ database: context.database, enqueue: recordingEnqueue(), now: () => at });
  const [body] = await directBodiesOf(events[0]!.id);
  assert.ok(body);
  assert.equal(body.data.severity, 'warning');
  assert.deepEqual(body.data.payload, {
    inboundDocumentId: dueSoon.id,
    encf: dueSoon.encf,
    type: 'E31',
    issuerRnc: '131880681',
    issuerName: 'Prov A',
    issueDate: '2026-11-20',
    deadline: '2026-12-15',
    daysRemaining: 3,
  });
  const partner = buildPartnerWebhookPayload(recordOf(events[0]!), {
    fiscalAccountId: tenant.id,
    externalTenantId: 'erp-3',
  });
  assert.deepEqual(partner.resource, {
    kind: 'inbound_document',
    id: dueSoon.id,
    state: 'commercial_approval_due',
  });
  assert.equal(partner.data['daysRemaining'], 3);

  const rows = await sqlPoolOf(context.database).query<{ id: string; notified: Date | null }>(
    `SELECT id, approval_due_notified_at AS notified FROM inbound_documents WHERE id = ANY($1::uuid[])`,
    [[dueSoon.id, answered.id, past.id, refused.id, dueLater.id]],
  );
  const notified = Object.fromEntries(rows.rows.map((row) => [row.id, row.notified?.toISOString() ?? null]));
  assert.equal(notified[dueSoon.id], at.toISOString());
  for (const id of [answered.id, past.id, refused.id, dueLater.id]) assert.equal(notified[id], null);
});

test('an event without anyone to receive it is not written; a rolled-back reception leaves none', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101180004' });
  const lonely = await seedInbound(context.database, { tenantId: tenant.id });
  assert.deepEqual(await eventsOf(lonely.id), []);
  await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: RECEIVING_TYPES });
  await assert.rejects(
    context.database.$transaction(async (transaction) => {
      await seedInbound(transaction as unknown as typeof context.database, {
        tenantId: tenant.id,
        encf: 'E310000077777',
        xml: null,
      });
      throw new Error('abort');
    }),
    /abort/,
  );
  const count = await context.database.webhookEvent.count({
    where: { data: { path: ['inbound', 'encf'], equals: 'E310000077777' } },
  });
  assert.equal(count, 0);
});
