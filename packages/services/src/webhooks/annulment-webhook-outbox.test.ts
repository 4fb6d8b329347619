// The annulments' outbox (migration 0014's trigger on `annulments`): a state the tax authority's
// answer or a reconciliation gives writes `annulment.state_changed` in the same transaction; `built`
// and `sending` write nothing; a rolled-back change leaves no event; the fan-out turns the row into a
// direct body that parses with its schema, and the Partner builder accepts the same row.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { inSqlTransaction, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { insertTestEndpoint, recordingEnqueue } from '../../test/webhook-engine.ts';
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

const now = () => new Date('2026-11-25T10:00:00.000Z');

async function insertAnnulment(tenantId: string, state = 'built'): Promise<string> {
  const id = randomUUID();
  await sqlPoolOf(context.database).query(
    `INSERT INTO annulments (id, tenant_id, environment, idempotency_key, request_fingerprint, request, state)
     VALUES ($1, $2, 'TesteCF', $3, $4, $5, $6::"AnnulmentState")`,
    [
      id,
      tenantId,
      `key-${id}`,
      'a'.repeat(64),
      JSON.stringify({ ranges: [{ type: '31', from: 'E310000000001', to: 'E310000000009' }] }),
      state,
    ],
  );
  return id;
}

async function eventsOf(annulmentId: string) {
  const rows = await context.database.webhookEvent.findMany({
    where: { type: 'annulment.state_changed', data: { path: ['annulment', 'id'], equals: annulmentId } },
    orderBy: { sequence: 'asc' },
  });
  return rows;
}

test('no event for built and sending, one per answered state, with the snapshot at the change', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101170001' });
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: ['annulment.state_changed'],
  });
  const pool = sqlPoolOf(context.database);
  const id = await insertAnnulment(tenant.id);
  await pool.query(`UPDATE annulments SET state = 'sending' WHERE id = $1`, [id]);
  assert.deepEqual(await eventsOf(id), []);

  // A partial annulment: uncertain, with the tax authority's answer.
  await pool.query(
    `UPDATE annulments SET state = 'uncertain', answered_at = $2, taxauth_answer = $3 WHERE id = $1`,
    [
      id,
      new Date('2026-11-25T09:00:00.000Z'),
      JSON.stringify({
        codigo: '3',
        nombre: 'Aceptado Parcialmente',
        mensajes: [
          'Las secuencias fueron anuladas correctamente. Con excepción de las secuencias del detalle',
        ],
      }),
    ],
  );
  // Another column changing without the state: no event.
  await pool.query(`UPDATE annulments SET updated_at = now() WHERE id = $1`, [id]);
  // Reconciled to accepted, with its covered documents.
  await pool.query(
    `UPDATE annulments SET state = 'accepted', reconciliation = $2, covered_documents = $3 WHERE id = $1`,
    [
      id,
      JSON.stringify({ outcome: 'accepted' }),
      JSON.stringify({
        cancelled: [{ documentId: randomUUID(), encf: 'E310000000002' }],
        skipped: [
          {
            documentId: randomUUID(),
            encf: 'E310000000003',
            status: 'sent',
            reason: 'document_already_submitted_or_taxauth_validated',
          },
          {
            documentId: randomUUID(),
            encf: 'E310000000004',
            status: 'contingency',
            reason: 'document_in_contingency',
          },
        ],
      }),
    ],
  );
  const recorded = await eventsOf(id);
  assert.deepEqual(
    recorded.map((event) => event.data),
    [
      {
        annulment: { id, state: 'uncertain', fromState: 'sending', reconciled: false },
        taxauth: {
          codigo: '3',
          nombre: 'Aceptado Parcialmente',
          mensajes: [
            'Las secuencias fueron anuladas correctamente. Con excepción de las secuencias del detalle',
          ],
        },
        coveredDocuments: null,
        answeredAt: '2026-11-25T09:00:00+00:00',
      },
      {
        annulment: { id, state: 'accepted', fromState: 'uncertain', reconciled: true },
        taxauth: {
          codigo: '3',
          nombre: 'Aceptado Parcialmente',
          mensajes: [
            'Las secuencias fueron anuladas correctamente. Con excepción de las secuencias del detalle',
          ],
        },
        coveredDocuments: { cancelled: 1, skipped: 2 },
        answeredAt: '2026-11-25T09:00:00+00:00',
      },
    ],
  );
  assert.ok(recorded.every((event) => event.tenantId === tenant.id && event.environment === 'TesteCF'));
  assert.ok(recorded.every((event) => event.documentId === null));

  // A row born answered (e.g. a rejection recorded at once) has its event too; a transport failure
  // stored instead of an answer gives taxauth null.
  const rejected = await insertAnnulment(tenant.id, 'rejected');
  assert.equal((await eventsOf(rejected)).length, 1);
  const lost = await insertAnnulment(tenant.id, 'sending');
  await pool.query(`UPDATE annulments SET state = 'uncertain', taxauth_answer = $2 WHERE id = $1`, [
    lost,
    JSON.stringify({ failure: { reason: 'timeout' } }),
  ]);
  const [lostEvent] = await eventsOf(lost);
  assert.equal((lostEvent?.data as { taxauth: unknown }).taxauth, null);
});

test('the event is written in the transaction of the change: a rollback leaves neither', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101170002' });
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: ['annulment.state_changed'],
  });
  const id = await insertAnnulment(tenant.id, 'sending');
  await assert.rejects(
    inSqlTransaction(context.database, async (sql) => {
      await sql.query(`UPDATE annulments SET state = 'accepted' WHERE id = $1`, [id]);
      const inside = await sql.query(
        `SELECT count(*)::int AS n FROM webhook_events WHERE type = 'annulment.state_changed' AND data->'annulment'->>'id' = $1`,
        [id],
      );
      assert.equal(inside.rows[0].n, 1, 'the event is written with the change');
      throw new Error('abort');
    }),
    /abort/,
  );
  assert.deepEqual(await eventsOf(id), []);
  const row = await sqlPoolOf(context.database).query(
    `SELECT state::text AS state FROM annulments WHERE id = $1`,
    [id],
  );
  assert.equal(row.rows[0].state, 'sending');
});

test('nobody to receive it (no endpoint of the tenant and environment): no event', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101170003' });
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    environment: 'eCF',
    eventTypes: ['annulment.state_changed'],
  });
  const id = await insertAnnulment(tenant.id, 'sending');
  await sqlPoolOf(context.database).query(`UPDATE annulments SET state = 'rejected' WHERE id = $1`, [id]);
  assert.deepEqual(await eventsOf(id), []);
});

test('fanned out to subscribed endpoints only, as a direct body that parses; the Partner builder takes the row', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101170004' });
  const subscribed = await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: ['annulment.state_changed'],
  });
  // Subscribed to everything that existed before annulments: not sent (Versioning 4).
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: [
      'document.state_changed',
      'ecf.queued',
      'taxauth.service_degraded',
      'taxauth.service_restored',
    ],
  });
  const id = await insertAnnulment(tenant.id, 'sending');
  await sqlPoolOf(context.database).query(
    `UPDATE annulments SET state = 'accepted', answered_at = now(), taxauth_answer = $2 WHERE id = $1`,
    [
      id,
      JSON.stringify({
        codigo: '1',
        nombre: 'Aceptado',
        mensajes: ['Las secuencias fueron anuladas correctamente.'],
      }),
    ],
  );
  await fanOutWebhookEvents({ database: context.database, enqueue: recordingEnqueue(), now });
  const [event] = await eventsOf(id);
  assert.ok(event !== undefined);
  const deliveries = await context.database.webhookDelivery.findMany({ where: { eventId: event.id } });
  assert.deepEqual(
    deliveries.map((delivery) => delivery.endpointId),
    [subscribed.id],
  );
  const body = ZDirectWebhookPayload.parse(JSON.parse(Buffer.from(deliveries[0]!.body).toString('utf8')));
  assert.equal(body.type, 'annulment.state_changed');
  assert.equal(body.document, null);
  assert.equal(body.data.severity, 'info');
  assert.equal(body.data.payload['annulmentId'], id);
  assert.equal(body.data.payload['state'], 'accepted');

  const record: TWebhookEventRecord = {
    id: event.id,
    sequence: String(event.sequence),
    type: event.type,
    tenantId: event.tenantId,
    environment: event.environment,
    documentId: null,
    episodeId: null,
    data: event.data as Record<string, unknown>,
    createdAt: event.createdAt,
  };
  const partner = buildPartnerWebhookPayload(record, {
    fiscalAccountId: tenant.id,
    externalTenantId: 'erp-1',
  });
  assert.ok(ZPartnerWebhookPayload.safeParse(partner).success);
  assert.deepEqual(partner.resource, { kind: 'annulment', id, state: 'accepted' });
});
