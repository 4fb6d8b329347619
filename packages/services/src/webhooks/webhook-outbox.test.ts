// The outbox (migration 0012's triggers): every change that deserves an event writes it in the
// same transaction, whoever makes the change; a rolled-back change leaves no event.
import { randomUUID } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  createDatabaseClient,
  inSqlTransaction,
  runWithCorrelationId,
  seedDocument,
  seedTenant,
  sqlPoolOf,
  type TEnqueue,
} from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { changeDocument } from '../persistence/documents/change-document.ts';
import { closeEpisode, openEpisode } from '../persistence/transmission/episodes.ts';
import { insertSubmittedDocument } from '../persistence/emission/submissions.ts';
import { insertTestEndpoint } from '../../test/webhook-engine.ts';
import { DIRECT_WEBHOOK_EVENT_TYPES } from '@ecf/contract';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

const events = (documentId: string) =>
  context.database.webhookEvent.findMany({ where: { documentId }, orderBy: { sequence: 'asc' } });

test('no event is recorded where nobody could receive it (no endpoint, or only a retired one)', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101000001' });
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: [...DIRECT_WEBHOOK_EVENT_TYPES],
    status: 'retired',
  });
  // Another environment's endpoint does not count either.
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    eventTypes: [...DIRECT_WEBHOOK_EVENT_TYPES],
  });
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf: 'E310000000001' });
  assert.deepEqual(await events(document.id), []);
});

test('every state change has its event, in order, with the snapshot at the change', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101000002' });
  // A paused endpoint still wants its events (its deliveries wait).
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: ['ecf.queued'],
    status: 'paused',
  });
  const pool = sqlPoolOf(context.database);
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf: 'E310000000002' });
  const steps = [
    { from: 'queued_for_signing', set: { status: 'signed', security_code: 'ABC123' } },
    { from: 'signed', set: { status: 'sent', track_id: 'track-1' } },
    {
      from: 'sent',
      set: { status: 'contingency', last_error: { code: 'TAXAUTH_UNAVAILABLE', retrying: true } },
    },
    // Same status, a new reason it does not advance: an event.
    { from: 'contingency', set: { last_error: { code: 'TAXAUTH_TIMEOUT', retrying: true } } },
    // Same status, same reason again (a retry): no event.
    { from: 'contingency', set: { last_error: { code: 'TAXAUTH_TIMEOUT', retrying: true }, attempts: 3 } },
    { from: 'contingency', set: { status: 'accepted', last_error: null } },
  ] as const;
  for (const step of steps) {
    const result = await changeDocument(pool, {
      documentId: document.id,
      from: [step.from],
      set: step.set,
    });
    assert.equal(result.moved, true);
  }
  const recorded = await events(document.id);
  assert.deepEqual(
    recorded.map((event) => [event.type, (event.data as { document: { status: string } }).document.status]),
    [
      ['ecf.queued', 'queued_for_signing'],
      ['document.state_changed', 'signed'],
      ['document.state_changed', 'sent'],
      ['document.state_changed', 'contingency'],
      ['document.state_changed', 'contingency'],
      ['document.state_changed', 'accepted'],
    ],
  );
  const sent = recorded[2]!.data as Record<string, unknown>;
  assert.deepEqual(sent.document, {
    id: document.id,
    type: 31,
    encf: 'E310000000002',
    status: 'sent',
    trackId: 'track-1',
  });
  assert.equal(sent.fromStatus, 'signed');
  assert.equal(sent.securityCode, 'ABC123');
  assert.equal((recorded[4]!.data as { lastError: { code: string } }).lastError.code, 'TAXAUTH_TIMEOUT');
  // Sequence strictly increasing (the Partner stateVersion), each event its own id.
  for (let index = 1; index < recorded.length; index += 1)
    assert.ok(recorded[index]!.sequence > recorded[index - 1]!.sequence);
  assert.equal(new Set(recorded.map((event) => event.id)).size, recorded.length);
  assert.ok(recorded.every((event) => event.tenantId === tenant.id && event.environment === 'TesteCF'));
});

test('a rolled-back change leaves no event, and its document unchanged', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101000003' });
  await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: ['document.state_changed'] });
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf: 'E310000000003' });
  const before_ = await events(document.id);
  await assert.rejects(
    inSqlTransaction(context.database, async (sql) => {
      const result = await changeDocument(sql, {
        documentId: document.id,
        from: ['queued_for_signing'],
        set: { status: 'signed' },
      });
      assert.equal(result.moved, true);
      const inside = await sql.query(`SELECT count(*)::int AS n FROM webhook_events WHERE document_id = $1`, [
        document.id,
      ]);
      assert.equal(inside.rows[0].n, before_.length + 1, 'the event is written with the change');
      throw new Error('abort');
    }),
    /abort/,
  );
  assert.deepEqual(await events(document.id), before_);
  const row = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(row.status, 'queued_for_signing');
  // A document whose creation rolls back leaves no ecf.queued either.
  await assert.rejects(
    context.database.$transaction(async (tx) => {
      await tx.document.create({
        data: {
          tenantId: tenant.id,
          environment: 'TesteCF',
          type: 31,
          encf: 'E310000000004',
          format: 'simplified',
          issueDate: new Date('2026-11-20'),
          totalAmount: '1.00',
          submittedPayload: {},
        },
      });
      throw new Error('abort');
    }),
    /abort/,
  );
  assert.equal(
    await context.database.webhookEvent.count({
      where: { data: { path: ['document', 'encf'], equals: 'E310000000004' } },
    }),
    0,
  );
});

test('an outage episode records one degraded event when it opens and one restored when it closes', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101000004' });
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    environment: 'eCF',
    eventTypes: ['taxauth.service_degraded'],
  });
  const pool = sqlPoolOf(context.database);
  const opened = new Date('2026-11-22T09:00:00.000Z');
  const later = new Date('2026-11-22T09:05:00.000Z');
  assert.equal(
    await openEpisode(pool, {
      environment: 'eCF',
      service: 'recepcion',
      code: 'TAXAUTH_UNAVAILABLE',
      at: opened,
    }),
    true,
  );
  // Further failures during the same outage open nothing and record nothing.
  assert.equal(
    await openEpisode(pool, { environment: 'eCF', service: 'recepcion', code: 'TAXAUTH_TIMEOUT', at: later }),
    false,
  );
  assert.equal(
    await closeEpisode(pool, { environment: 'eCF', service: 'recepcion', requestedAt: later, at: later }),
    true,
  );
  assert.equal(
    await closeEpisode(pool, { environment: 'eCF', service: 'recepcion', requestedAt: later, at: later }),
    false,
  );
  const recorded = await context.database.webhookEvent.findMany({
    where: { episodeId: { not: null }, environment: 'eCF' },
    orderBy: { sequence: 'asc' },
  });
  assert.deepEqual(
    recorded.map((event) => [event.type, event.tenantId]),
    [
      ['taxauth.service_degraded', null],
      ['taxauth.service_restored', null],
    ],
  );
  const restored = recorded[1]!.data as Record<string, string>;
  assert.equal(restored.code, 'TAXAUTH_UNAVAILABLE');
  assert.equal(new Date(restored.degradedSince!).toISOString(), opened.toISOString());
  assert.equal(new Date(restored.restoredAt!).toISOString(), later.toISOString());
});

test('an outbox row names the request whose change wrote it (Prisma, plain SQL, group commit); none outside a request, even on a reused connection', async () => {
  const tenant = await seedTenant(context.database, { rnc: '101000009' });
  await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: [...DIRECT_WEBHOOK_EVENT_TYPES],
  });
  // One connection: each use below reuses the one before it (a request's setting must not leak).
  const database = createDatabaseClient({ databaseUrl: context.url, maxConnections: 1 });
  try {
    const pool = sqlPoolOf(database);
    const correlationOf = async (documentId: string) =>
      (await events(documentId)).map((event) => [event.type, event.correlationId]);
    // A Prisma insert, then plain SQL (autocommit and a transaction) inside requests, then a job's change.
    const document = await runWithCorrelationId('req-prisma', () =>
      seedDocument(database, { tenantId: tenant.id, encf: 'E310000000009' }),
    );
    await runWithCorrelationId('req-sql', () =>
      changeDocument(pool, {
        documentId: document.id,
        from: ['queued_for_signing'],
        set: { status: 'signed' },
      }),
    );
    await runWithCorrelationId('req-tx', () =>
      inSqlTransaction(database, (sql) =>
        changeDocument(sql, { documentId: document.id, from: ['signed'], set: { status: 'sent' } }),
      ),
    );
    await changeDocument(pool, { documentId: document.id, from: ['sent'], set: { status: 'accepted' } });
    assert.deepEqual(await correlationOf(document.id), [
      ['ecf.queued', 'req-prisma'],
      ['document.state_changed', 'req-sql'],
      ['document.state_changed', 'req-tx'],
      ['document.state_changed', null],
    ]);

    // Emissions of three requests stored by one group commit: each row names its own request.
    const submission = (encf: string) => ({
      id: randomUUID(),
      tenantId: tenant.id,
      environment: 'TesteCF' as const,
      type: 31,
      encf,
      format: 'simplified',
      issueDate: '2026-11-25',
      totalAmount: '100.00',
      buyerRnc: null,
      payloadText: '{}',
      fingerprint: { algorithm: 'v1', value: randomUUID() },
      eventDataText: '{}',
      enqueue: (async () => undefined) as TEnqueue,
    });
    const batch = [submission('E310000000010'), submission('E310000000011'), submission('E310000000012')];
    await Promise.all([
      runWithCorrelationId('req-one', () => insertSubmittedDocument(database, batch[0]!)),
      runWithCorrelationId('req-two', () => insertSubmittedDocument(database, batch[1]!)),
      insertSubmittedDocument(database, batch[2]!),
    ]);
    assert.deepEqual(await Promise.all(batch.map(async (item) => (await correlationOf(item.id))[0])), [
      ['ecf.queued', 'req-one'],
      ['ecf.queued', 'req-two'],
      ['ecf.queued', null],
    ]);
  } finally {
    await database.$disconnect();
  }
});
