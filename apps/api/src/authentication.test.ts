import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedDocument, seedTenant } from '@ecf/db';
import { revokeApiKey } from '@ecf/services';
import { ZContingencyResponse, ZErrorResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const get = (url: string, key?: string) =>
  api.app.inject({ method: 'GET', url, headers: key === undefined ? {} : { 'x-api-key': key } });

function errorOf(response: { json: () => unknown }) {
  return ZErrorResponse.parse(response.json()).error;
}

test('a missing key is 401 API_KEY_MISSING', async () => {
  const response = await get('/TesteCF/contingencia');
  assert.equal(response.statusCode, 401);
  assert.equal(errorOf(response).code, 'API_KEY_MISSING');
});

test('an unknown key is 401 API_KEY_INVALID', async () => {
  for (const key of ['ecf_test_notarealkeyatallnotarealkey00', '', 'x'.repeat(5000)]) {
    const response = await get('/TesteCF/contingencia', key);
    assert.equal(response.statusCode, 401, `key ${key.slice(0, 20)}`);
  }
  assert.equal(errorOf(await get('/TesteCF/contingencia', 'ecf_test_unknown')).code, 'API_KEY_INVALID');
});

test('a revoked key is 401 API_KEY_INVALID', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  assert.equal((await get('/TesteCF/contingencia', key)).statusCode, 200);
  await revokeApiKey({ database: api.database, tenantId: tenant.id, reference: key.slice(0, 17) });
  const response = await get('/TesteCF/contingencia', key);
  assert.equal(response.statusCode, 401);
  assert.equal(errorOf(response).code, 'API_KEY_INVALID');
});

test('a key of another environment is 403 INSUFFICIENT_SCOPE with reason environment_mismatch', async () => {
  const { key } = await seedTenantWithKey(api.database);
  for (const environment of ['CerteCF', 'eCF']) {
    const response = await get(`/${environment}/contingencia`, key);
    assert.equal(response.statusCode, 403);
    const error = errorOf(response);
    assert.equal(error.code, 'INSUFFICIENT_SCOPE');
    assert.equal(error.details.reason, 'environment_mismatch');
  }
});

test('a key without the route scope is 403 INSUFFICIENT_SCOPE', async () => {
  const tenant = await seedTenant(api.database);
  const { key } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate'],
  });
  const response = await api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf/status/batch',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload: { encfs: ['E310000000001'] },
  });
  assert.equal(response.statusCode, 403);
  const error = errorOf(response);
  assert.equal(error.code, 'INSUFFICIENT_SCOPE');
  assert.deepEqual(error.details.requiredScopes, ['status:read']);
});

test('a valid key reaches the route, sees only its own tenant, and its use is recorded', async () => {
  const mine = await seedTenantWithKey(api.database);
  const theirs = await seedTenantWithKey(api.database);
  const document = await seedDocument(api.database, {
    tenantId: theirs.tenant.id,
    encf: 'E310000000077',
    status: 'contingency',
    contingencySince: new Date('2026-11-20T10:00:00Z'),
  });
  const response = await get('/TesteCF/contingencia', mine.key);
  assert.equal(response.statusCode, 200);
  assert.deepEqual(ZContingencyResponse.parse(response.json()).items, []);
  const theirsResponse = ZContingencyResponse.parse((await get('/TesteCF/contingencia', theirs.key)).json());
  assert.deepEqual(
    theirsResponse.items.map((item) => item.documentId),
    [document.id],
  );

  const batch = await api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf/status/batch',
    headers: { 'x-api-key': mine.key, 'content-type': 'application/json' },
    payload: { encfs: ['E310000000077'], documentReferences: [document.id] },
  });
  assert.equal(batch.statusCode, 200);
  assert.deepEqual(batch.json().found, []);
  assert.deepEqual(batch.json().unfound, ['E310000000077', document.id]);

  const key = await api.database.apiKey.findFirstOrThrow({ where: { tenantId: mine.tenant.id } });
  assert.ok(key.lastUsedAt, 'lastUsedAt recorded');
});

test('credentials never reach the logs', async () => {
  const { key } = await seedTenantWithKey(api.database);
  await api.app.inject({
    method: 'GET',
    url: '/TesteCF/contingencia',
    headers: {
      'x-api-key': key,
      'x-partner-key': 'partner-secret-123',
      authorization: 'Bearer oauth-secret-456',
    },
  });
  const logs = api.logs.text;
  assert.ok(logs.includes('/TesteCF/contingencia'), 'the request was logged');
  assert.ok(logs.includes('[REDACTED]'), 'redaction marker present');
  for (const secret of [key, 'partner-secret-123', 'oauth-secret-456']) {
    assert.ok(!logs.includes(secret), `secret ${secret.slice(0, 12)}... not in logs`);
  }
});
