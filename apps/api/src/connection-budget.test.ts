import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createDatabaseClient, sqlPoolOf, type TDatabase } from '@ecf/db';
import { createTestDatabase, exitOfStart, type TTestDatabase } from '@ecf/db/testing';
import type { FastifyInstance } from 'fastify';
import { seedTenantWithKey, TEST_XSD_DIRECTORY } from '../test/test-api.ts';
import { buildApp } from './app.ts';
import { apiConnectionBudget } from './connection-budget.ts';
import { readEnv } from './env.ts';

const POOL_TIMEOUT_MS = 300;

let testDatabase: TTestDatabase;
let database: TDatabase;
let app: FastifyInstance;
let key: string;
before(async () => {
  testDatabase = await createTestDatabase();
  const env = readEnv({
    DATABASE_URL: testDatabase.url,
    LOG_LEVEL: 'silent',
    XSD_DIRECTORY: TEST_XSD_DIRECTORY,
    API_DB_POOL_MAX: '1',
    API_DB_POOL_TIMEOUT_MS: String(POOL_TIMEOUT_MS),
  });
  // As main.ts builds it: the pool's size and timeout from the environment.
  database = createDatabaseClient({
    databaseUrl: env.DATABASE_URL,
    maxConnections: env.API_DB_POOL_MAX,
    poolTimeoutMs: env.API_DB_POOL_TIMEOUT_MS,
  });
  app = await buildApp({ env, database });
  await app.ready();
  ({ key } = await seedTenantWithKey(database));
});
after(async () => {
  await app.close();
  await database.$disconnect();
  await testDatabase.drop();
});

test('the budget of an API process is its pools and the LISTEN connection, from the environment', () => {
  const env = readEnv({ API_DB_POOL_MAX: '7', API_JOB_QUEUE_POOL_MAX: '3', API_READINESS_POOL_MAX: '1' });
  assert.deepEqual(apiConnectionBudget(env).pools, {
    application: 7,
    jobQueue: 3,
    readiness: 1,
    documentWaiter: 1,
  });
  assert.deepEqual(apiConnectionBudget(readEnv({})).pools, {
    application: 10,
    jobQueue: 2,
    readiness: 2,
    documentWaiter: 1,
  });
});

test('a pool of 1 held busy: the next request waits for the pool timeout, then 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
  const held = await sqlPoolOf(database).connect();
  try {
    const started = Date.now();
    const response = await app.inject({
      method: 'GET',
      url: '/TesteCF/documentos-ecf?limit=1',
      headers: { 'x-api-key': key },
    });
    const elapsed = Date.now() - started;
    assert.equal(response.statusCode, 503, response.body);
    assert.equal(response.headers['retry-after'], '5');
    const body = response.json<{
      ok: boolean;
      error: { code: string; details: Record<string, unknown> };
      correlationId: string;
    }>();
    assert.equal(body.ok, false);
    assert.equal(body.error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(body.error.details.reason, 'database_busy');
    assert.equal(body.correlationId, response.headers['x-correlation-id']);
    assert.ok(elapsed >= POOL_TIMEOUT_MS - 50, `waited ${elapsed} ms for a connection`);
  } finally {
    held.release();
  }
  // The connection back in the pool: the same request is served.
  const served = await app.inject({
    method: 'GET',
    url: '/TesteCF/documentos-ecf?limit=1',
    headers: { 'x-api-key': key },
  });
  assert.equal(served.statusCode, 200, served.body);
});

test('an API whose budget exceeds max_connections − reserved refuses to start: exit code 1 and the sums on stderr', async () => {
  const { code, stderr } = await exitOfStart(path.join(import.meta.dirname, 'main.ts'), {
    cwd: path.join(import.meta.dirname, '..'),
    env: { DATABASE_URL: testDatabase.url, API_PORT: '0', API_DB_POOL_MAX: '1000' },
  });
  assert.equal(code, 1, stderr);
  assert.match(
    stderr,
    /^api: its database connection budget \(application 1000 \+ jobQueue 2 \+ readiness 2 \+ documentWaiter 1 = 1005\) exceeds what the server allows: max_connections \d+/m,
  );
});
