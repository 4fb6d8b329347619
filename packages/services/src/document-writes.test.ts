import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { artifactInput, changeDelivery, changeDocument } from './document-writes.ts';
import { loadTransmissionDocument } from './document-state.ts';
import { openEpisode } from './transmission-records.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

test('changeDocument: guard matched → update, artifact and events (in the order given) in one statement', async () => {
  const { database } = context;
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, { tenantId: tenant.id, encf: 'E310000009001', status: 'signed' });
  const at = new Date('2026-11-22T10:00:00.000Z');
  const artifact = artifactInput({ tenantId: tenant.id, documentId: document.id, kind: 'taxauth_response', contentType: 'application/json', content: '{"trackId":"t-1"}', createdAt: at });
  const events = Array.from({ length: 5 }, (_, index) => ({ type: `step_${index}`, data: { index, nested: { text: 'ñ "quoted"' } }, at }));
  const result = await changeDocument(sqlPoolOf(database), {
    documentId: document.id,
    from: ['signed', 'contingency'],
    attempts: 0,
    set: { status: 'sent', track_id: 't-1', attempts: 1, last_error: null, taxauth_messages: [{ codigo: 1, valor: 'ok' }], contingency_since: null },
    artifacts: [artifact],
    events: [...events, { type: 'sent', fromStatus: 'signed', toStatus: 'sent', data: { trackId: 't-1' }, at }],
  });
  assert.deepEqual(result, { moved: true, restored: false });

  const stored = await database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(stored.status, 'sent');
  assert.equal(stored.trackId, 't-1');
  assert.equal(stored.attempts, 1);
  assert.equal(stored.lastError, null);
  assert.deepEqual(stored.taxauthMessages, [{ codigo: 1, valor: 'ok' }]);
  assert.ok(stored.updatedAt.getTime() > document.updatedAt.getTime(), 'updated_at moves with the change');

  const kept = await database.artifact.findUniqueOrThrow({ where: { id: artifact.id } });
  assert.equal(Buffer.from(kept.content).toString('utf8'), '{"trackId":"t-1"}');
  assert.equal(kept.sha256, artifact.sha256);
  assert.equal(kept.createdAt.toISOString(), at.toISOString());

  const log = await database.documentEvent.findMany({ where: { documentId: document.id }, orderBy: { id: 'asc' } });
  assert.deepEqual(
    log.map((event) => event.type),
    ['step_0', 'step_1', 'step_2', 'step_3', 'step_4', 'sent'],
  );
  assert.deepEqual(log[2]?.data, { index: 2, nested: { text: 'ñ "quoted"' } });
  assert.equal(log[5]?.fromStatus, 'signed');
  assert.equal(log[5]?.toStatus, 'sent');
  assert.equal(log[5]?.createdAt.toISOString(), at.toISOString());
});

test('changeDocument: guard not matched (status or attempts) → nothing written; the episode closes anyway', async () => {
  const { database } = context;
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, { tenantId: tenant.id, encf: 'E310000009002', status: 'accepted' });
  const pool = sqlPoolOf(database);
  assert.equal(await openEpisode(pool, 'TesteCF', 'TAXAUTH_UNAVAILABLE', new Date('2026-11-22T09:00:00.000Z')), true);
  const at = new Date('2026-11-22T10:00:00.000Z');
  const attempt = {
    documentId: document.id,
    from: ['signed' as const],
    set: { status: 'sent' as const },
    artifacts: [artifactInput({ tenantId: tenant.id, documentId: document.id, kind: 'taxauth_response', contentType: 'application/json', content: '{}' })],
    events: [{ type: 'sent', data: {}, at }],
    closeEpisode: { environment: 'TesteCF' as const, at },
  };
  assert.deepEqual(await changeDocument(pool, attempt), { moved: false, restored: true });
  // A second close finds no open episode.
  assert.deepEqual(await changeDocument(pool, attempt), { moved: false, restored: false });

  const stale = await seedDocument(database, { tenantId: tenant.id, encf: 'E310000009003', status: 'signed' });
  assert.deepEqual(await changeDocument(pool, { documentId: stale.id, from: ['signed'], attempts: 3, set: { attempts: 4 }, events: [{ type: 'transmission_attempt', data: {}, at }] }), {
    moved: false,
    restored: false,
  });

  assert.equal((await database.document.findUniqueOrThrow({ where: { id: document.id } })).status, 'accepted');
  assert.equal((await database.document.findUniqueOrThrow({ where: { id: stale.id } })).attempts, 0);
  assert.equal(await database.artifact.count({ where: { documentId: { in: [document.id, stale.id] } } }), 0);
  assert.equal(await database.documentEvent.count({ where: { documentId: { in: [document.id, stale.id] } } }), 0);
  await assert.rejects(changeDocument(pool, { documentId: document.id, from: ['accepted'], set: { encf: 'E31X' } as never }), /cannot be set/);
});

test('changeDelivery: moves the delivery row only from the status and attempts read, with its events', async () => {
  const { database } = context;
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, { tenantId: tenant.id, encf: 'E310000009004', status: 'accepted' });
  await database.receiverDelivery.create({ data: { documentId: document.id, tenantId: tenant.id, status: 'pending' } });
  const at = new Date('2026-11-22T10:00:00.000Z');
  const pool = sqlPoolOf(database);
  const claim = {
    documentId: document.id,
    from: { status: 'pending', attempts: 0 },
    set: { status: 'sending', attempts: 1, target_url: 'https://buyer.example/fe/recepcion/api/ecf', next_attempt_at: at, last_error: { code: 'X' } },
    events: [{ type: 'receiver_delivery_attempt', data: { attempt: 1 }, at }],
  };
  assert.equal(await changeDelivery(pool, claim), true);
  assert.equal(await changeDelivery(pool, claim), false, 'a second claim from the same read loses');
  const delivery = await database.receiverDelivery.findUniqueOrThrow({ where: { documentId: document.id } });
  assert.equal(delivery.status, 'sending');
  assert.equal(delivery.attempts, 1);
  assert.deepEqual(delivery.lastError, { code: 'X' });
  assert.equal(delivery.nextAttemptAt?.toISOString(), at.toISOString());
  assert.equal(await database.documentEvent.count({ where: { documentId: document.id, type: 'receiver_delivery_attempt' } }), 1);
});

test('loadTransmissionDocument: the document as Prisma reads it, with RNC, sent time and active certificate', async () => {
  const { database } = context;
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, { tenantId: tenant.id, encf: 'E320000009005', status: 'sent', totalAmount: '1234.50' });
  await database.documentEvent.create({ data: { documentId: document.id, tenantId: tenant.id, type: 'sent', toStatus: 'sent', createdAt: new Date('2026-11-22T08:00:00.000Z') } });
  const loaded = await loadTransmissionDocument(database, document.id);
  assert.ok(loaded);
  const { tenant: owner, sentAt, buyerEmailEnabled, activeCertificate, ...state } = loaded;
  const { submittedPayload: _payload, ...expected } = await database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.deepEqual({ ...state, totalAmount: state.totalAmount.toFixed(2) }, { ...expected, totalAmount: expected.totalAmount.toFixed(2) });
  assert.equal(owner.rnc, tenant.rnc);
  assert.equal(sentAt?.toISOString(), '2026-11-22T08:00:00.000Z');
  assert.equal(buyerEmailEnabled, false);
  assert.equal(activeCertificate, null);
  assert.equal(await loadTransmissionDocument(database, '00000000-0000-4000-8000-000000000000'), undefined);
});
