import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import type { TEnqueue } from '@ecf/db';
import { issueDocument } from '@ecf/services';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { createJobQueue } from './job-queue.ts';
import { TEST_XSD_DIRECTORY } from '../test/test-api.ts';
import { simplifiedE31 } from '../test/submissions.ts';
import { loadXsdValidators } from '@ecf/config';

// The document, its fingerprint, its event and its document.sign job commit or roll back together.
let context: Awaited<ReturnType<typeof openTestDatabase>>;
let queue: ReturnType<typeof createJobQueue>;
let xsd: TXsdValidators;
before(async () => {
  context = await openTestDatabase();
  queue = createJobQueue({ databaseUrl: context.url, log: pino({ level: 'silent' }) });
  await queue.start();
  xsd = await loadXsdValidators(TEST_XSD_DIRECTORY);
});
after(async () => {
  xsd.dispose();
  await queue.close();
  await context.close();
});

async function state(tenantId: string) {
  const database = context.database;
  const [jobs] = await database.$queryRaw<
    Array<{ count: bigint }>
  >`SELECT count(*) AS count FROM pgboss.job WHERE name = 'document.sign'`;
  return {
    documents: await database.document.count({ where: { tenantId } }),
    fingerprints: await database.documentFingerprint.count({ where: { document: { tenantId } } }),
    events: await database.documentEvent.count({ where: { tenantId } }),
    jobs: Number(jobs?.count ?? 0),
  };
}

/** The counts after exactly one more stored submission: document, fingerprint, event and job. */
function oneMore(before: Awaited<ReturnType<typeof state>>) {
  return {
    documents: before.documents + 1,
    fingerprints: before.fingerprints + 1,
    events: before.events + 1,
    jobs: before.jobs + 1,
  };
}

async function issue(tenantId: string, enqueue: TEnqueue, body: Record<string, unknown> = simplifiedE31()) {
  const tenant = await context.database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
  return issueDocument({
    database: context.database,
    tenant,
    environment: 'TesteCF',
    xsd,
    now: new Date(),
    rawBody: JSON.stringify(body),
    body,
    enqueue,
  });
}

/**
 * An enqueue that holds its transaction open (the document inserted, not committed) until
 * `release`, so other submissions of the same eNCF can be made to wait on it.
 */
function heldEnqueue(options: { fail?: boolean } = {}) {
  let reached!: () => void;
  let release!: () => void;
  const inserted = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const enqueue: TEnqueue = async (jobs, enqueueOptions) => {
    await queue.enqueue(jobs, enqueueOptions);
    reached();
    await released;
    if (options.fail) throw new Error('crash before commit');
  };
  return { enqueue, inserted, release };
}

/** Resolves once `count` sessions of the test database wait on a lock (an insert blocked on the eNCF key). */
async function sessionsWaitingOnALock(count: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const [row] = await context.database.$queryRaw<Array<{ waiting: number }>>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if ((row?.waiting ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} sessions ever waited on a lock`);
}

test('a failure after the job was inserted rolls back the job and the document', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  await assert.rejects(
    issue(tenant.id, async (jobs, options) => {
      await queue.enqueue(jobs, options);
      const executor = options?.executor;
      const job = jobs[0];
      assert.ok(executor && job && 'documentId' in job.payload);
      // The job row is visible inside the transaction...
      const { rows } = await executor.executeSql(
        `SELECT count(*)::int AS count FROM pgboss.job WHERE data->>'documentId' = $1`,
        [job.payload.documentId],
      );
      assert.deepEqual(rows, [{ count: 1 }]);
      throw new Error('crash after enqueue');
    }),
    /crash after enqueue/,
  );
  // ...and gone with everything else after the rollback.
  assert.deepEqual(await state(tenant.id), before);
});

test('a failing enqueue stores no document', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  await assert.rejects(
    issue(tenant.id, async () => Promise.reject(new Error('queue down'))),
    /queue down/,
  );
  assert.deepEqual(await state(tenant.id), before);
});

test('a committed document always has its job', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  const { document } = await issue(tenant.id, queue.enqueue);
  assert.deepEqual(await state(tenant.id), oneMore(before));
  const [job] = await context.database.$queryRaw<
    Array<{ data: unknown; state: string }>
  >`SELECT data, state::text FROM pgboss.job WHERE name = 'document.sign' AND data->>'documentId' = ${document.id}`;
  assert.deepEqual(job, { data: { documentId: document.id }, state: 'created' });
});

test('the returned document is the stored row as Prisma reads it', async () => {
  const tenant = await seedTenant(context.database);
  const body = simplifiedE31();
  const { outcome, document } = await issue(tenant.id, queue.enqueue, body);
  assert.equal(outcome, 'created');
  const stored = await context.database.document.findUniqueOrThrow({
    where: { id: document.id },
    include: { events: true },
  });
  const { events, ...row } = stored;
  // Strict: same field types too (Prisma.Decimal, Date, parsed JSON).
  assert.deepEqual(document, row);
  assert.deepEqual(document.updatedAt, document.submittedAt);
  // The submitted event carries the validated tree the signer signs.
  const data = events[0]?.data as {
    format?: unknown;
    warnings?: unknown;
    document?: { ECF?: { Encabezado?: { IdDoc?: { eNCF?: unknown } } } };
  };
  assert.deepEqual([events.length, data.format, Array.isArray(data.warnings)], [1, 'simplified', true]);
  assert.equal(data.document?.ECF?.Encabezado?.IdDoc?.eNCF, body['encf']);
});

test('a submission racing an uncommitted one of its eNCF waits for it: same JSON is its replay, other JSON is 409', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  const body = simplifiedE31();
  const first = heldEnqueue();
  const winner = issue(tenant.id, first.enqueue, body);
  await first.inserted;
  const same = issue(tenant.id, queue.enqueue, body);
  // Settled into a value at once: it rejects while the others are still awaited.
  const other = issue(tenant.id, queue.enqueue, { ...body, paymentType: 'cash' }).then(
    () => 'stored',
    (error: unknown) => (error as { code?: unknown }).code,
  );
  // The racing inserts block on the winner's uncommitted row of the (tenant, environment, eNCF)
  // key (emissions arriving together share one transaction, so one session may wait for both).
  await sessionsWaitingOnALock(1);
  first.release();
  const created = await winner;
  const replayed = await same;
  assert.deepEqual([created.outcome, replayed.outcome], ['created', 'replayed']);
  assert.equal(replayed.document.id, created.document.id);
  assert.equal(await other, 'ENCF_CONFLICT');
  assert.deepEqual(await state(tenant.id), oneMore(before));
});

test('a submission racing one that rolls back is stored', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  const body = simplifiedE31();
  const first = heldEnqueue({ fail: true });
  const loser = issue(tenant.id, first.enqueue, body);
  await first.inserted;
  const second = issue(tenant.id, queue.enqueue, body);
  await sessionsWaitingOnALock(1);
  first.release();
  await assert.rejects(loser, /crash before commit/);
  assert.equal((await second).outcome, 'created');
  assert.deepEqual(await state(tenant.id), oneMore(before));
});

test('emissions arriving together commit in one transaction, each with its document and job; a taken eNCF among them fails alone', async () => {
  const tenant = await seedTenant(context.database);
  const taken = simplifiedE31();
  await issue(tenant.id, queue.enqueue, taken);
  const before = await state(tenant.id);
  const account = await context.database.tenant.findUniqueOrThrow({ where: { id: tenant.id } });
  // The account read once: only emission's own transactions take connections below.
  const emit = (body: Record<string, unknown> = simplifiedE31()) =>
    issueDocument({
      database: context.database,
      tenant: account,
      environment: 'TesteCF',
      xsd,
      now: new Date(),
      rawBody: JSON.stringify(body),
      body,
      enqueue: queue.enqueue,
    });
  const pool = sqlPoolOf(context.database);
  const original = pool.connect.bind(pool);
  let connections = 0;
  // Every transaction takes a connection of its own: counting them counts the transactions.
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    connections += 1;
    return (original as (...all: unknown[]) => unknown)(...args);
  };
  let results: Array<PromiseSettledResult<Awaited<ReturnType<typeof issue>>>>;
  try {
    results = await Promise.allSettled([
      ...Array.from({ length: 8 }, () => emit()),
      emit({ ...taken, paymentType: 'cash' }),
    ]);
  } finally {
    (pool as { connect: unknown }).connect = original;
  }
  const stored = results
    .slice(0, 8)
    .map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  assert.ok(stored.every((issued) => issued?.outcome === 'created'));
  assert.equal(new Set(stored.map((issued) => issued?.document.id)).size, 8);
  assert.equal(results[8]?.status, 'rejected');
  assert.equal((results[8].reason as { code?: unknown }).code, 'ENCF_CONFLICT');
  const after = await state(tenant.id);
  assert.deepEqual(after, {
    documents: before.documents + 8,
    fingerprints: before.fingerprints + 8,
    events: before.events + 8,
    jobs: before.jobs + 8,
  });
  // The batch failed on the taken eNCF and each emission was retried alone (the batch plus nine);
  // the conflict's own look-up of the stored document reads through Prisma (a few more).
  assert.ok(connections <= 14, `${connections} connections`);

  // Without a conflict, the nine go in one or two transactions (a batch may already be on the wire).
  connections = 0;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    connections += 1;
    return (original as (...all: unknown[]) => unknown)(...args);
  };
  try {
    const clean = await Promise.all(Array.from({ length: 9 }, () => emit()));
    assert.ok(clean.every((issued) => issued.outcome === 'created'));
  } finally {
    (pool as { connect: unknown }).connect = original;
  }
  assert.ok(connections >= 1 && connections <= 2, `${connections} transactions for nine emissions`);
  const [jobs] = await context.database.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM pgboss.job j JOIN documents d ON d.id = (j.data->>'documentId')::uuid WHERE j.name = 'document.sign' AND d.tenant_id = ${tenant.id}::uuid`;
  assert.equal(Number(jobs?.count), before.documents + 8 + 9, 'exactly one sign job per stored document');
});
