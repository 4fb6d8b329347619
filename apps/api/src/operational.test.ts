import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase } from '@ecf/db/testing';
import { createDatabaseClient } from '@ecf/db';
import { buildApp } from './app.ts';
import { readEnv } from './env.ts';
import { ZErrorResponse, ZHealthResponse, ZReadinessResponse } from '@ecf/contract';
import { startTestApi, type TTestApi } from '../test/test-api.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

test('GET /healthz answers a HealthResponse with a generated correlation id in body and header', async () => {
  const response = await api.app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(response.statusCode, 200);
  const body = ZHealthResponse.parse(response.json());
  assert.equal(response.headers['x-correlation-id'], body.correlationId);
  assert.match(body.correlationId, /^[0-9a-f-]{36}$/);
});

test('a valid incoming x-correlation-id is kept; an invalid one is replaced', async () => {
  const kept = await api.app.inject({
    method: 'GET',
    url: '/healthz',
    headers: { 'x-correlation-id': 'erp-batch-42.7' },
  });
  assert.equal(kept.headers['x-correlation-id'], 'erp-batch-42.7');
  assert.equal(kept.json().correlationId, 'erp-batch-42.7');
  const replaced = await api.app.inject({
    method: 'GET',
    url: '/healthz',
    headers: { 'x-correlation-id': 'bad id with spaces <script>' },
  });
  assert.notEqual(replaced.headers['x-correlation-id'], 'bad id with spaces <script>');
  assert.equal(replaced.json().correlationId, replaced.headers['x-correlation-id']);
});

test('GET /readyz is ready on a migrated database', async () => {
  const response = await api.app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(response.statusCode, 200);
  const body = ZReadinessResponse.parse(response.json());
  assert.equal(body.status, 'ready');
  assert.ok(body.checks.storage.ok && body.checks.migrations.ok && body.checks.rateLimit.ok);
});

test('GET /readyz answers 503 naming storage when the database is unreachable, within seconds', async () => {
  // Port 1 on loopback: nothing listens there, so connections are refused at once.
  const env = readEnv({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/ecf', LOG_LEVEL: 'silent' });
  const database = createDatabaseClient({ databaseUrl: env.DATABASE_URL });
  const app = await buildApp({ env, database });
  try {
    const started = Date.now();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    assert.ok(Date.now() - started < 5000, 'answers within the check timeout');
    assert.equal(response.statusCode, 503);
    const body = ZReadinessResponse.parse(response.json());
    ZErrorResponse.parse(response.json());
    assert.equal(body.checks.storage.ok, false);
    assert.deepEqual(response.json().error.details.failing, ['storage', 'migrations', 'rateLimit']);
    assert.match(response.json().error.message, /storage/);
  } finally {
    await app.close();
    await database.$disconnect();
  }
});

test('GET /readyz answers 503 naming migrations when migrations are pending', async () => {
  const empty = await createTestDatabase({ migrated: false });
  const env = readEnv({ DATABASE_URL: empty.url, LOG_LEVEL: 'silent' });
  const database = createDatabaseClient({ databaseUrl: env.DATABASE_URL });
  const app = await buildApp({ env, database });
  try {
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(response.statusCode, 503);
    const body = response.json();
    assert.equal(body.checks.storage.ok, true);
    assert.equal(body.checks.migrations.ok, false);
    assert.match(body.checks.migrations.error, /pending/);
    assert.deepEqual(body.error.details.failing, ['migrations', 'rateLimit']);
  } finally {
    await app.close();
    await database.$disconnect();
    await empty.drop();
  }
});

test('GET /metrics exposes request counts and latency histograms by route template', async () => {
  await api.app.inject({ method: 'GET', url: '/healthz' });
  await api.app.inject({ method: 'GET', url: '/TesteCF/contingencia' });
  const response = await api.app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^text\/plain/);
  assert.match(response.body, /http_requests_total\{method="GET",route="\/healthz",status_code="200"\} \d+/);
  assert.match(
    response.body,
    /http_requests_total\{method="GET",route="\/:environment\/contingencia",status_code="401"\} 1/,
  );
  assert.match(
    response.body,
    /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz",status_code="200"\}/,
  );
  assert.match(response.body, /process_cpu_user_seconds_total/);
});

test('the API answers over real HTTP with the correlation header', async () => {
  const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
  const response = await fetch(`${address}/healthz`, { headers: { 'x-correlation-id': 'http-check' } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('x-correlation-id'), 'http-check');
  assert.equal(((await response.json()) as { correlationId: string }).correlationId, 'http-check');
});
