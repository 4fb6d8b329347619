// GET /docs: the API reference page (Scalar) renders /openapi.json with assets served by the API
// itself. The page opened in Chromium is e2e/specs/api-reference.spec.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApi, type TTestApi } from '../../test/test-api.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

test('GET /docs leads, without a key, to an HTML page that renders /openapi.json with a script of the API', async () => {
  const entry = await api.app.inject({ method: 'GET', url: '/docs' });
  assert.equal(entry.statusCode, 301);
  assert.equal(entry.headers.location, '/docs/');
  const page = await api.app.inject({ method: 'GET', url: '/docs/' });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  assert.match(page.body, /<title>e-CF service: API reference<\/title>/);
  assert.match(page.body, /"url": "\/openapi\.json"/);
  // Every script the page loads comes from this service (the network may be closed; no CDN).
  const sources = [...page.body.matchAll(/<script[^>]*\ssrc="([^"]*)"/g)].map((match) => match[1]);
  assert.deepEqual(sources, ['js/scalar.js']);
  assert.doesNotMatch(page.body, /https?:\/\//);
  const script = await api.app.inject({ method: 'GET', url: '/docs/js/scalar.js' });
  assert.equal(script.statusCode, 200);
  assert.match(String(script.headers['content-type']), /^application\/javascript/);
  assert.ok(script.body.length > 1_000_000, 'the renderer bundle');
  assert.match(script.body, /createApiReference/);
});
