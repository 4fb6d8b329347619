import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NO_BODY_LIMITS } from '@ecf/services';
import { ZErrorResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';

let api: TTestApi;
let key: string;
before(async () => {
  api = await startTestApi({ API_BODY_LIMIT_BYTES: '4096' }, (app) => {
    app.get('/__boom', { config: { edgeLimits: NO_BODY_LIMITS } }, async () => {
      throw new Error('secret internal detail at /srv/app.ts:42');
    });
  });
  ({ key } = await seedTenantWithKey(api.database));
});
after(async () => {
  await api.close();
});

function assertError(
  response: { statusCode: number; json: () => unknown; headers: Record<string, unknown> },
  status: number,
  code: string,
) {
  assert.equal(response.statusCode, status);
  const body = ZErrorResponse.parse(response.json());
  assert.equal(body.error.code, code);
  assert.equal(body.error.details.code, code);
  assert.equal(body.correlationId, response.headers['x-correlation-id']);
  return body;
}

const batchUrl = '/TesteCF/documentos-ecf/status/batch';

test('an unknown route is a 404 ErrorResponse', async () => {
  assertError(await api.app.inject({ method: 'GET', url: '/no/such/route' }), 404, 'ROUTE_NOT_FOUND');
  assertError(await api.app.inject({ method: 'DELETE', url: '/healthz' }), 404, 'ROUTE_NOT_FOUND');
});

test('an unknown environment segment is a 404, before any key check', async () => {
  const body = assertError(
    await api.app.inject({ method: 'GET', url: '/testecf/contingencia' }),
    404,
    'ROUTE_NOT_FOUND',
  );
  assert.equal(body.error.details.reason, 'unknown_environment');
});

test('malformed JSON is a 400 INVALID_JSON, never a 500', async () => {
  for (const payload of ['{"encfs": [', '{encfs: 1}', 'null,', '\u0000']) {
    const response = await api.app.inject({
      method: 'POST',
      url: batchUrl,
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      payload,
    });
    assertError(response, 400, 'INVALID_JSON');
  }
});

test('an empty JSON body is a 400 INVALID_JSON', async () => {
  const response = await api.app.inject({
    method: 'POST',
    url: batchUrl,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    payload: '',
  });
  assertError(response, 400, 'INVALID_JSON');
});

test('a wrong content type is a 400 UNSUPPORTED_CONTENT_TYPE', async () => {
  for (const contentType of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
    const response = await api.app.inject({
      method: 'POST',
      url: batchUrl,
      headers: { 'content-type': contentType, 'x-api-key': key },
      payload: '{"encfs":["E310000000001"]}',
    });
    assertError(response, 400, 'UNSUPPORTED_CONTENT_TYPE');
  }
});

test('an oversized body is a 400 BODY_TOO_LARGE with the limit, and the service stays up', async () => {
  const payload = JSON.stringify({ encfs: Array.from({ length: 1000 }, () => 'E310000000001') });
  assert.ok(payload.length > 4096);
  const response = await api.app.inject({
    method: 'POST',
    url: batchUrl,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    payload,
  });
  const body = assertError(response, 400, 'BODY_TOO_LARGE');
  assert.equal(body.error.details.limitBytes, 4096);
  assert.equal((await api.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
});

test('wrong types and unknown properties are a 400 INVALID_REQUEST with the field path', async () => {
  const cases: Array<[unknown, string]> = [
    [{ encfs: 'E310000000001' }, 'encfs'],
    [{ encfs: [1, 2] }, 'encfs.0'],
    [{ encfs: ['E310000000001'], extra: true }, ''],
    [[], ''],
    [{}, ''],
  ];
  for (const [payload, path] of cases) {
    const response = await api.app.inject({
      method: 'POST',
      url: batchUrl,
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      payload: JSON.stringify(payload),
    });
    const body = assertError(response, 400, 'INVALID_REQUEST');
    const issues = body.error.details.issues as Array<{ path: string }>;
    assert.ok(
      issues.some((issue) => issue.path === path),
      `issue at "${path}" for ${JSON.stringify(payload)}`,
    );
  }
});

test('more than 100 references is a 400', async () => {
  const response = await api.app.inject({
    method: 'POST',
    url: batchUrl,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    payload: JSON.stringify({
      encfs: Array.from({ length: 101 }, (_, index) => `E31${String(index).padStart(10, '0')}`),
    }),
  });
  const body = assertError(response, 400, 'INVALID_REQUEST');
  assert.match(JSON.stringify(body.error.details), /at most 100/);
});

test('an unexpected failure is an opaque 500 with only the correlation id', async () => {
  const response = await api.app.inject({ method: 'GET', url: '/__boom' });
  const body = assertError(response, 500, 'INTERNAL_ERROR');
  assert.doesNotMatch(JSON.stringify(body), /secret internal detail|app\.ts|stack/);
  assert.match(api.logs.text, /secret internal detail/, 'the detail is logged for support, not answered');
});
