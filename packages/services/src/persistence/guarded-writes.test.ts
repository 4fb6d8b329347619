// Longer than ~300 lines on purpose: the one write style of the services (guards, CTE parts, group
// commit, follow-ups, episodes) is tested statement by statement against one database.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf, type TEnqueue } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { changeDocument } from './documents/change-document.ts';
import { openEpisode } from './transmission/episodes.ts';
import { changeDelivery, type TDeliveryChange } from './receiver-delivery/receiver-deliveries.ts';
import { artifactInput } from './statements.ts';
import { loadTransmissionDocument } from './documents/step-reads.ts';
import { statementTexts } from '../../test/statement-texts.ts';

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
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000009001',
    status: 'signed',
  });
  const at = new Date('2026-11-22T10:00:00.000Z');
  const artifact = artifactInput({
    tenantId: tenant.id,
    documentId: document.id,
    kind: 'taxauth_response',
    contentType: 'application/json',
    content: '{"trackId":"t-1"}',
    createdAt: at,
  });
  const events = Array.from({ length: 5 }, (_, index) => ({
    type: `step_${index}`,
    data: { index, nested: { text: 'ñ "quoted"' } },
    at,
  }));
  const result = await changeDocument(sqlPoolOf(database), {
    documentId: document.id,
    from: ['signed', 'contingency'],
    attempts: 0,
    set: {
      status: 'sent',
      track_id: 't-1',
      attempts: 1,
      last_error: null,
      taxauth_messages: [{ codigo: 1, valor: 'ok' }],
      contingency_since: null,
    },
    artifacts: [artifact],
    events: [
      ...events,
      { type: 'sent', fromStatus: 'signed', toStatus: 'sent', data: { trackId: 't-1' }, at },
    ],
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

  const log = await database.documentEvent.findMany({
    where: { documentId: document.id },
    orderBy: { id: 'asc' },
  });
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
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000009002',
    status: 'accepted',
  });
  const pool = sqlPoolOf(database);
  assert.equal(
    await openEpisode(pool, {
      environment: 'TesteCF',
      service: 'recepcion',
      code: 'TAXAUTH_UNAVAILABLE',
      at: new Date('2026-11-22T09:00:00.000Z'),
    }),
    true,
  );
  const at = new Date('2026-11-22T10:00:00.000Z');
  const attempt = {
    documentId: document.id,
    from: ['signed' as const],
    set: { status: 'sent' as const },
    artifacts: [
      artifactInput({
        tenantId: tenant.id,
        documentId: document.id,
        kind: 'taxauth_response',
        contentType: 'application/json',
        content: '{}',
      }),
    ],
    events: [{ type: 'sent', data: {}, at }],
    closeEpisode: { environment: 'TesteCF' as const, service: 'recepcion' as const, requestedAt: at, at },
  };
  assert.deepEqual(await changeDocument(pool, attempt), { moved: false, restored: true });
  // A second close finds no open episode.
  assert.deepEqual(await changeDocument(pool, attempt), { moved: false, restored: false });

  const stale = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000009003',
    status: 'signed',
  });
  assert.deepEqual(
    await changeDocument(pool, {
      documentId: stale.id,
      from: ['signed'],
      attempts: 3,
      set: { attempts: 4 },
      events: [{ type: 'transmission_attempt', data: {}, at }],
    }),
    {
      moved: false,
      restored: false,
    },
  );

  assert.equal(
    (await database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'accepted',
  );
  assert.equal((await database.document.findUniqueOrThrow({ where: { id: stale.id } })).attempts, 0);
  assert.equal(await database.artifact.count({ where: { documentId: { in: [document.id, stale.id] } } }), 0);
  assert.equal(
    await database.documentEvent.count({ where: { documentId: { in: [document.id, stale.id] } } }),
    0,
  );
  await assert.rejects(
    changeDocument(pool, { documentId: document.id, from: ['accepted'], set: { encf: 'E31X' } as never }),
    /cannot be set/,
  );
});

test('changeDelivery: moves the delivery row only from the status and attempts read, with its events', async () => {
  const { database } = context;
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000009004',
    status: 'accepted',
  });
  await database.receiverDelivery.create({
    data: { documentId: document.id, tenantId: tenant.id, status: 'pending' },
  });
  const at = new Date('2026-11-22T10:00:00.000Z');
  const pool = sqlPoolOf(database);
  const claim: TDeliveryChange = {
    documentId: document.id,
    from: { status: 'pending', attempts: 0 },
    set: {
      status: 'sending',
      attempts: 1,
      target_url: 'https://buyer.example/fe/recepcion/api/ecf',
      next_attempt_at: at,
      last_error: { code: 'X' },
    },
    events: [{ type: 'receiver_delivery_attempt', data: { attempt: 1 }, at }],
  };
  assert.equal(await changeDelivery(pool, claim), true);
  assert.equal(await changeDelivery(pool, claim), false, 'a second claim from the same read loses');
  const delivery = await database.receiverDelivery.findUniqueOrThrow({ where: { documentId: document.id } });
  assert.equal(delivery.status, 'sending');
  assert.equal(delivery.attempts, 1);
  assert.deepEqual(delivery.lastError, { code: 'X' });
  assert.equal(delivery.nextAttemptAt?.toISOString(), at.toISOString());
  assert.equal(
    await database.documentEvent.count({
      where: { documentId: document.id, type: 'receiver_delivery_attempt' },
    }),
    1,
  );
});

test('loadTransmissionDocument: the document as Prisma reads it, with RNC, sent time and active certificate', async () => {
  const { database } = context;
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E320000009005',
    status: 'sent',
    totalAmount: '1234.50',
  });
  await database.documentEvent.create({
    data: {
      documentId: document.id,
      tenantId: tenant.id,
      type: 'sent',
      toStatus: 'sent',
      createdAt: new Date('2026-11-22T08:00:00.000Z'),
    },
  });
  const loaded = await loadTransmissionDocument(database, document.id);
  assert.ok(loaded);
  const { tenant: owner, sentAt, buyerEmailEnabled, activeCertificate, ...state } = loaded;
  const { submittedPayload: _payload, ...expected } = await database.document.findUniqueOrThrow({
    where: { id: document.id },
  });
  assert.deepEqual(
    { ...state, totalAmount: state.totalAmount.toFixed(2) },
    { ...expected, totalAmount: expected.totalAmount.toFixed(2) },
  );
  assert.equal(owner.rnc, tenant.rnc);
  assert.equal(sentAt?.toISOString(), '2026-11-22T08:00:00.000Z');
  assert.equal(buyerEmailEnabled, false);
  assert.equal(activeCertificate, null);
  assert.equal(await loadTransmissionDocument(database, '00000000-0000-4000-8000-000000000000'), undefined);
});

/** Counts the round trips made on the pool while `work` runs. */
test('changeDocument on the pool: concurrent changes of distinct documents go as one statement, each guarded on its own', async () => {
  const { database } = context;
  const pool = sqlPoolOf(database);
  const tenant = await seedTenant(database);
  const documents = await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      seedDocument(database, {
        tenantId: tenant.id,
        encf: `E31000000910${index}`,
        status: index === 5 ? 'accepted' : 'signed',
      }),
    ),
  );
  const at = new Date('2026-11-22T11:00:00.000Z');
  const { result, texts } = await statementTexts(pool, () =>
    Promise.all(
      documents.map((document, index) =>
        changeDocument(pool, {
          documentId: document.id,
          from: ['signed'],
          set: { status: 'sent', track_id: `t-${index}` },
          artifacts: [
            artifactInput({
              tenantId: tenant.id,
              documentId: document.id,
              kind: 'taxauth_response',
              contentType: 'application/json',
              content: `{"n":${index}}`,
            }),
          ],
          events: [
            { type: 'transmission_outcome', data: { index }, at },
            { type: 'sent', fromStatus: 'signed', toStatus: 'sent', data: { index }, at },
          ],
        }),
      ),
    ),
  );
  assert.equal(texts.length, 1, 'one round trip for the six changes');
  assert.deepEqual(
    result.map((change) => change.moved),
    [true, true, true, true, true, false],
    'the accepted document kept its status: its guard failed alone',
  );
  for (const [index, document] of documents.entries()) {
    const stored = await database.document.findUniqueOrThrow({ where: { id: document.id } });
    const log = await database.documentEvent.findMany({
      where: { documentId: document.id },
      orderBy: { id: 'asc' },
    });
    const artifacts = await database.artifact.findMany({ where: { documentId: document.id } });
    if (index === 5) {
      assert.equal(stored.status, 'accepted');
      assert.equal(log.length + artifacts.length, 0);
      continue;
    }
    assert.equal(stored.trackId, `t-${index}`);
    assert.deepEqual(
      log.map((event) => [event.type, (event.data as { index: number }).index]),
      [
        ['transmission_outcome', index],
        ['sent', index],
      ],
    );
    assert.equal(Buffer.from(artifacts[0]?.content ?? []).toString('utf8'), `{"n":${index}}`);
  }
});

test('changeDocument on the pool: the same change twice at once moves the document once; a failing change fails only its caller', async () => {
  const { database } = context;
  const pool = sqlPoolOf(database);
  const tenant = await seedTenant(database);
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000009201',
    status: 'signed',
  });
  const other = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000009202',
    status: 'signed',
  });
  const at = new Date('2026-11-22T11:00:00.000Z');
  const claim = {
    documentId: document.id,
    from: ['signed' as const],
    attempts: 0,
    set: { attempts: 1 },
    events: [{ type: 'transmission_attempt', data: {}, at }],
  };
  const results = await Promise.all([
    changeDocument(pool, claim),
    changeDocument(pool, claim),
    changeDocument(pool, claim),
  ]);
  assert.deepEqual(results.map((result) => result.moved).sort(), [false, false, true]);
  assert.equal((await database.document.findUniqueOrThrow({ where: { id: document.id } })).attempts, 1);
  assert.equal(
    await database.documentEvent.count({ where: { documentId: document.id, type: 'transmission_attempt' } }),
    1,
  );

  // An artifact id already taken breaks its own change (unique violation); the batch's others still apply.
  const taken = artifactInput({
    tenantId: tenant.id,
    documentId: document.id,
    kind: 'taxauth_response',
    contentType: 'application/json',
    content: '{}',
  });
  await changeDocument(pool, { documentId: document.id, from: ['signed'], set: {}, artifacts: [taken] });
  const settled = await Promise.allSettled([
    changeDocument(pool, {
      documentId: document.id,
      from: ['signed'],
      set: { status: 'sent' },
      artifacts: [{ ...taken }],
    }),
    changeDocument(pool, {
      documentId: other.id,
      from: ['signed'],
      set: { status: 'sent' },
      events: [{ type: 'sent', data: {}, at }],
    }),
  ]);
  assert.equal(settled[0]?.status, 'rejected');
  assert.deepEqual(settled[1], { status: 'fulfilled', value: { moved: true, restored: false } });
  assert.equal(
    (await database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'signed',
    'the failed change wrote nothing',
  );
  assert.equal((await database.document.findUniqueOrThrow({ where: { id: other.id } })).status, 'sent');
});

test('changeDocument followUp: a delivery row and jobs only when the guard matched, committed or rolled back with the change; one enqueue per queue for a batch', async () => {
  const { database } = context;
  const pool = sqlPoolOf(database);
  await pool.query(
    'CREATE TABLE IF NOT EXISTS follow_up_jobs (name text NOT NULL, document_id uuid NOT NULL)',
  );
  const tenant = await seedTenant(database);
  const [moving, stuck, failing, other] = await Promise.all(
    ['E310000009301', 'E310000009302', 'E310000009303', 'E310000009304'].map((encf, index) =>
      seedDocument(database, { tenantId: tenant.id, encf, status: index === 1 ? 'rejected' : 'sent' }),
    ),
  );
  assert.ok(moving && stuck && failing && other);
  const calls: Array<{ name: string; documentIds: string[] }> = [];
  // Like the real enqueue (@ecf/db/job-queue): one insert per queue, on the caller's transaction.
  const enqueue: TEnqueue = async (jobs, options) => {
    const executor = options?.executor;
    assert.ok(executor, "follow-ups are enqueued on the change's transaction");
    for (const name of [...new Set(jobs.map((job) => job.name))]) {
      const documentIds = jobs
        .filter((job) => job.name === name)
        .map((job) => (job.payload as { documentId: string }).documentId);
      calls.push({ name, documentIds });
      for (const documentId of documentIds)
        await executor.executeSql('INSERT INTO follow_up_jobs (name, document_id) VALUES ($1, $2::uuid)', [
          name,
          documentId,
        ]);
      if (documentIds.includes(failing.id)) throw new Error('queue refused the job');
    }
  };
  const accept = (documentId: string) => ({
    documentId,
    from: ['sent' as const],
    set: { status: 'accepted' as const },
    followUp: {
      receiverDelivery: true,
      jobs: [
        { name: 'document.deliver-to-receiver' as const, payload: { documentId } },
        { name: 'document.email-buyer' as const, payload: { documentId } },
      ],
      enqueue,
    },
  });
  const settled = await Promise.allSettled(
    [moving, stuck, failing, other].map((document) => changeDocument(pool, accept(document.id))),
  );
  assert.deepEqual(settled[0], { status: 'fulfilled', value: { moved: true, restored: false } });
  assert.deepEqual(settled[1], { status: 'fulfilled', value: { moved: false, restored: false } });
  assert.equal(settled[2]?.status, 'rejected');
  assert.deepEqual(settled[3], { status: 'fulfilled', value: { moved: true, restored: false } });
  // The batch tried its three moved changes' deliveries in one call; refused, each change was retried alone.
  assert.equal(calls[0]?.name, 'document.deliver-to-receiver');
  assert.deepEqual(calls[0]?.documentIds.slice().sort(), [moving.id, failing.id, other.id].sort());

  const statuses = new Map(
    (
      await database.document.findMany({ where: { id: { in: [moving.id, stuck.id, failing.id, other.id] } } })
    ).map((row) => [row.id, row.status]),
  );
  assert.equal(statuses.get(moving.id), 'accepted');
  assert.equal(statuses.get(other.id), 'accepted');
  assert.equal(statuses.get(stuck.id), 'rejected');
  assert.equal(statuses.get(failing.id), 'sent', 'the change rolled back with its refused job');
  const deliveries = await database.receiverDelivery.findMany({
    where: { documentId: { in: [moving.id, stuck.id, failing.id, other.id] } },
    orderBy: { documentId: 'asc' },
  });
  assert.deepEqual(
    deliveries.map((row) => [row.documentId, row.status]),
    [moving.id, other.id].sort().map((id) => [id, 'pending']),
  );
  const { rows } = await pool.query<{ name: string; document_id: string }>(
    'SELECT name, document_id FROM follow_up_jobs ORDER BY name, document_id',
  );
  assert.deepEqual(
    rows.map((row) => [row.name, row.document_id]),
    ['document.deliver-to-receiver', 'document.email-buyer'].flatMap((name) =>
      [moving.id, other.id].sort().map((id) => [name, id]),
    ),
    'jobs exist exactly for the changes that committed',
  );
});

test('loadTransmissionDocument: concurrent reads go as one query, each caller gets its own document', async () => {
  const { database } = context;
  const pool = sqlPoolOf(database);
  const tenant = await seedTenant(database);
  const documents = await Promise.all(
    ['E310000009401', 'E310000009402', 'E310000009403'].map((encf) =>
      seedDocument(database, { tenantId: tenant.id, encf, status: 'signed' }),
    ),
  );
  const missing = '00000000-0000-4000-8000-000000000001';
  const { result, texts } = await statementTexts(pool, () =>
    Promise.all([
      ...documents.map((document) => loadTransmissionDocument(database, document.id.toUpperCase())),
      loadTransmissionDocument(database, missing),
    ]),
  );
  assert.equal(texts.length, 1);
  assert.deepEqual(
    result.map((document) => document?.encf),
    ['E310000009401', 'E310000009402', 'E310000009403', undefined],
  );
});
