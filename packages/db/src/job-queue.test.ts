import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { PgBoss } from 'pg-boss';
import { sqlPoolOf } from './client.ts';
import { createEnqueue } from './job-queue.ts';
import { JOB_QUEUE_SCHEMA } from './jobs.ts';
import { inSqlTransaction, jobExecutorOfSql } from './sql.ts';
import { openTestDatabase } from './testing.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let boss: PgBoss;
before(async () => {
  context = await openTestDatabase();
  boss = new PgBoss({
    connectionString: context.url,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => undefined);
  await boss.start();
  for (const name of ['document.sign', 'document.transmit', 'document.poll-status'])
    await boss.createQueue(name);
});
after(async () => {
  await boss.stop({ graceful: false, close: true });
  await context.close();
});

async function jobsOf(documentId: string): Promise<Array<{ name: string; delayed: boolean }>> {
  const { rows } = await sqlPoolOf(context.database).query<{ name: string; delayed: boolean }>(
    `SELECT name, start_after > now() + interval '30 seconds' AS delayed FROM pgboss.job
     WHERE data->>'documentId' = $1 ORDER BY name`,
    [documentId],
  );
  return rows;
}

test('with an executor, the jobs of several queues commit with the caller’s transaction, or roll back with it', async () => {
  const enqueue = createEnqueue(() => boss);
  const committed = randomUUID();
  await inSqlTransaction(context.database, async (sql) => {
    await enqueue(
      [
        { name: 'document.sign', payload: { documentId: committed } },
        { name: 'document.transmit', payload: { documentId: committed } },
      ],
      { executor: jobExecutorOfSql(sql) },
    );
    // Not visible outside the transaction before it commits.
    assert.deepEqual(await jobsOf(committed), []);
  });
  assert.deepEqual(
    (await jobsOf(committed)).map((job) => job.name),
    ['document.sign', 'document.transmit'],
  );

  const rolledBack = randomUUID();
  await assert.rejects(
    inSqlTransaction(context.database, async (sql) => {
      await enqueue([{ name: 'document.sign', payload: { documentId: rolledBack } }], {
        executor: jobExecutorOfSql(sql),
      });
      throw new Error('the write failed');
    }),
    /the write failed/,
  );
  assert.deepEqual(await jobsOf(rolledBack), []);
});

test('without an executor, concurrent calls are inserted at once (one insert per queue), each with its own start', async () => {
  const inserts: Array<{ name: string; count: number }> = [];
  const counted = new Proxy(boss, {
    get(target, property, receiver) {
      if (property === 'insert') {
        return (name: string, jobs: unknown[], options: unknown) => {
          inserts.push({ name, count: jobs.length });
          return target.insert(name, jobs as never, options as never);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  const enqueue = createEnqueue(() => counted);
  const documentIds = Array.from({ length: 6 }, () => randomUUID());
  await Promise.all(
    documentIds.map((documentId, index) =>
      enqueue([
        {
          name: index % 2 === 0 ? 'document.poll-status' : 'document.transmit',
          payload: { documentId },
          ...(index === 0 ? { startAfterSeconds: 600 } : {}),
        },
      ]),
    ),
  );
  for (const [index, documentId] of documentIds.entries()) {
    assert.deepEqual(await jobsOf(documentId), [
      { name: index % 2 === 0 ? 'document.poll-status' : 'document.transmit', delayed: index === 0 },
    ]);
  }
  assert.deepEqual(
    inserts.sort((a, b) => a.name.localeCompare(b.name)),
    [
      { name: 'document.poll-status', count: 3 },
      { name: 'document.transmit', count: 3 },
    ],
  );
});

test('a queue that does not exist fails the call that asked for it', async () => {
  const enqueue = createEnqueue(() => boss);
  await assert.rejects(enqueue([{ name: 'document.email-buyer', payload: { documentId: randomUUID() } }]));
});
