import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase, exitOfStart, type TTestDatabase } from '@ecf/db/testing';
import { workerConnectionBudget } from './connection-budget.ts';
import { readEnv } from './env.ts';

let testDatabase: TTestDatabase;
before(async () => {
  testDatabase = await createTestDatabase();
});
after(async () => {
  await testDatabase.drop();
});

test('the budget of a worker process is its pool, pg-boss and the outbox LISTEN, from the environment', () => {
  assert.deepEqual(workerConnectionBudget(readEnv({})).pools, {
    application: 20,
    jobQueue: 10,
    webhookOutbox: 1,
  });
  assert.deepEqual(
    workerConnectionBudget(readEnv({ WORKER_DB_POOL_MAX: '8', WORKER_JOB_QUEUE_POOL_MAX: '4' })).pools,
    { application: 8, jobQueue: 4, webhookOutbox: 1 },
  );
});

test('a worker whose budget exceeds max_connections − reserved refuses to start: exit code 1 and the sums on stderr', async () => {
  const { code, stderr } = await exitOfStart(path.join(import.meta.dirname, 'main.ts'), {
    cwd: path.join(import.meta.dirname, '..'),
    env: { DATABASE_URL: testDatabase.url, WORKER_HEALTH_PORT: '0', WORKER_DB_POOL_MAX: '1000' },
  });
  assert.equal(code, 1, stderr);
  assert.match(
    stderr,
    /^worker: its database connection budget \(application 1000 \+ jobQueue 10 \+ webhookOutbox 1 = 1011\) exceeds what the server allows/m,
  );
});
