// With the Partner API enabled, /openapi.json documents every Partner route (each with its
// permission) and still lints clean with redocly's recommended rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { documentedPathOf } from '../openapi.ts';
import { PARTNER_ROUTES } from '@ecf/contract';
import { isApiReferenceRoute } from '../routes/api-reference.ts';
import { startTestApi, type TTestApi } from '../../test/test-api.ts';

let api: TTestApi;
let text: string;
before(async () => {
  api = await startTestApi({ PSFE_PARTNER_API_ENABLED: 'true' });
  text = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).body;
});
after(async () => {
  await api.close();
});

test('every registered Partner route is documented, with its permission', () => {
  const document = JSON.parse(text) as { paths: Record<string, Record<string, { 'x-permission'?: string }>> };
  const routes = api.app.registeredRoutes.filter(
    (route) =>
      route.method !== 'HEAD' && route.url.startsWith('/partner/') && !isApiReferenceRoute(route.url),
  );
  assert.ok(routes.length >= Object.keys(PARTNER_ROUTES).length);
  for (const route of routes) {
    const { path } = documentedPathOf(route.url);
    assert.ok(
      document.paths[path]?.[route.method.toLowerCase()],
      `${route.method} ${route.url} is not documented`,
    );
  }
  for (const [name, route] of Object.entries(PARTNER_ROUTES)) {
    const operation = document.paths[documentedPathOf(route.path).path]?.[route.method.toLowerCase()];
    assert.equal(operation?.['x-permission'], route.permission, name);
  }
});

test('the document with the Partner API passes redocly lint (recommended): no problem of any severity', async () => {
  // One exception: the spec's own paths `fiscal-accounts/by-external-id/{externalTenantId}` and
  // `fiscal-accounts/{id}/status` (…/profile, …) share a shape; every router (ours included) takes
  // the literal segment first, and the Partner API is versioned in its path, so it keeps them.
  const config = await createConfig({ extends: ['recommended'], rules: { 'no-ambiguous-paths': 'off' } });
  const problems = await lintFromString({ source: text, absoluteRef: '/openapi.json', config });
  assert.deepEqual(
    problems.map(
      (problem) =>
        `${problem.ruleId}: ${problem.message} at ${problem.location.map((l) => l.pointer).join(', ')}`,
    ),
    [],
  );
});
