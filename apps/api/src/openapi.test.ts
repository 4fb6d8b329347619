import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openApiPath } from './openapi.ts';
import { startTestApi, type TTestApi } from '../test/test-api.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

test('GET /openapi.json serves contract 0.2.0 with every registered route', async () => {
  const response = await api.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(response.statusCode, 200);
  const document: {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, unknown>>;
  } = response.json();
  assert.equal(document.openapi, '3.1.0');
  assert.equal(document.info.version, '0.2.0');
  const routes = api.app.registeredRoutes.filter(
    (route) => route.method !== 'HEAD' && !route.url.startsWith('/__'),
  );
  assert.ok(routes.length >= 10);
  for (const route of routes) {
    assert.ok(
      document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()],
      `${route.method} ${route.url} is missing from /openapi.json`,
    );
  }
  // And nothing documented that the API does not serve.
  const served = new Set(routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`));
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations))
      assert.ok(served.has(`${method} ${path}`), `${method} ${path} is documented but not served`);
  }
});

test('request schemas in the document are the ones the handlers enforce', async () => {
  const document = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const list = document.paths['/{environment}/documentos-ecf'].get;
  const limit = list.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
  assert.equal(limit.in, 'query');
  assert.equal(limit.schema.type, 'string');
  const batch = document.paths['/{environment}/documentos-ecf/status/batch'].post;
  assert.equal(batch.requestBody.content['application/json'].schema.additionalProperties, false);
  const submit = document.paths['/{environment}/documentos-ecf'].post;
  for (const status of ['200', '201', '202', '400', '401', '403', '409', '422', '423', '429'])
    assert.ok(submit.responses[status], status);
});
