import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { seedTenant } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { issueDocument, type TEnqueueJob } from '@ecf/services';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { createJobQueue } from './job-queue.ts';
import { TEST_XSD_DIRECTORY } from './testing/test-api.ts';
import { simplifiedE31 } from './testing/submissions.ts';
import { loadXsdValidators } from '@ecf/services';

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
  const [jobs] = await database.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM pgboss.job WHERE name = 'document.sign'`;
  return {
    documents: await database.document.count({ where: { tenantId } }),
    fingerprints: await database.documentFingerprint.count({ where: { document: { tenantId } } }),
    events: await database.documentEvent.count({ where: { tenantId } }),
    jobs: Number(jobs?.count ?? 0),
  };
}

async function issue(tenantId: string, enqueue: TEnqueueJob) {
  const tenant = await context.database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
  const body = simplifiedE31();
  return issueDocument({ database: context.database, tenant, environment: 'TesteCF', xsd, now: new Date(), rawBody: JSON.stringify(body), body, enqueue });
}

test('a failure after the job was inserted rolls back the job and the document', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  await assert.rejects(
    issue(tenant.id, async (name, payload, executor) => {
      await queue.enqueue(name, payload, executor);
      // The job row is visible inside the transaction...
      const { rows } = await executor.executeSql(`SELECT count(*)::int AS count FROM pgboss.job WHERE data->>'documentId' = $1`, [(payload as { documentId: string }).documentId]);
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
  await assert.rejects(issue(tenant.id, async () => Promise.reject(new Error('queue down'))), /queue down/);
  assert.deepEqual(await state(tenant.id), before);
});

test('a committed document always has its job', async () => {
  const tenant = await seedTenant(context.database);
  const before = await state(tenant.id);
  const { document } = await issue(tenant.id, queue.enqueue);
  assert.deepEqual(await state(tenant.id), { documents: before.documents + 1, fingerprints: before.fingerprints + 1, events: before.events + 1, jobs: before.jobs + 1 });
  const [job] = await context.database.$queryRaw<Array<{ data: unknown; state: string }>>`SELECT data, state::text FROM pgboss.job WHERE name = 'document.sign' AND data->>'documentId' = ${document.id}`;
  assert.deepEqual(job, { data: { documentId: document.id }, state: 'created' });
});
