// Credentials never reach the logs: the buyer link's token (its path IS the credential),
// credential-like query parameters, key headers, and the raw packet of a request the HTTP parser
// refused. The log stream is captured (buildApp's `logDestination`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRiLinkToken } from '@ecf/services';
import { redactHeaders, redactUrl } from './plugins/log-redaction.ts';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { exchangeRaw } from '../test/raw-http.ts';

const LINK_SECRET = 'test-ri-link-secret-0123456789abcdef-0123456789';
let api: TTestApi;
let key: string;
let port: number;
before(async () => {
  api = await startTestApi({ RI_LINK_SECRET: LINK_SECRET, LOG_LEVEL: 'trace' });
  ({ key } = await seedTenantWithKey(api.database));
  port = Number(new URL(await api.app.listen({ host: '127.0.0.1', port: 0 })).port);
});
after(async () => {
  await api.close();
});

const token = () =>
  createRiLinkToken({ documentId: randomUUID(), environment: 'TesteCF', issuedAt: new Date() }, LINK_SECRET)
    .token;

/** The log lines written since `from`, as text. */
const logsSince = (from: number) => api.logs.lines.slice(from).join('');

test('the buyer link token is redacted in every log line of its request, whatever the answer', async () => {
  const secret = token();
  const from = api.logs.lines.length;
  const paths = [
    `/ri/${secret}`, // a genuine token: RI_LINK_INVALID (no such document), logged by Fastify and the route
    `/ri/${secret}?utm_source=mail`,
    `/RI/${secret}`, // another case: unknown route, still a token in the path
    `/ri/${secret}/extra`,
    `/ri/${secret.slice(0, 20)}%zz${secret.slice(20)}`, // refused by the router (bad percent-encoding)
    `/ri/${secret}${'A'.repeat(9000)}`, // refused by the router (over maxParamLength)
  ];
  for (const path of paths) {
    const response = await api.app.inject({
      method: 'GET',
      url: path,
      headers: { referer: `https://x.test${path}` },
    });
    assert.ok([400, 404].includes(response.statusCode), `${path}: ${response.statusCode}`);
  }
  const written = logsSince(from);
  assert.match(written, /"url":"\/ri\/\[REDACTED\]/, 'the request is still logged, without its token');
  assert.ok(!written.includes(secret), 'the token itself never');
  assert.ok(!written.includes(secret.slice(0, 20)), 'nor a part of it');
  assert.match(written, /"referer":"https:\/\/x\.test\/ri\/\[REDACTED\]/);
});

test('credential-like query parameters and key headers are redacted; other parameters are kept', async () => {
  const from = api.logs.lines.length;
  await api.app.inject({
    method: 'GET',
    url: '/healthz?token=tok-123456&api_key=key-123456&page=2&X-API-KEY=hdr-123456',
    headers: { 'x-api-key': key, authorization: 'Bearer bearer-123456', cookie: 'session=cookie-123456' },
  });
  const written = logsSince(from);
  for (const secret of ['tok-123456', 'key-123456', 'hdr-123456', key, 'bearer-123456', 'cookie-123456']) {
    assert.ok(!written.includes(secret), `${secret} leaked`);
  }
  assert.match(written, /page=2/);
  assert.match(written, /token=\[REDACTED\]/);
});

test('a request the HTTP parser refuses is logged by its code, not by its raw bytes (which hold X-API-KEY)', async () => {
  const from = api.logs.lines.length;
  const exchange = await exchangeRaw({
    port,
    head: `GET /ri/${token()} HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
  });
  assert.equal(exchange.status, 400);
  const written = logsSince(from);
  assert.match(written, /REQUEST_HEADERS_TOO_LARGE/);
  assert.ok(!written.includes(key), 'the API key leaked from the raw packet');
  assert.ok(!/aaaaaaaaaa/.test(written), 'the raw packet was logged');
});

test('redactUrl: the token after /ri/ and credential query values, nothing else', () => {
  assert.equal(redactUrl('/ri/abc.def'), '/ri/[REDACTED]');
  assert.equal(redactUrl('/ri/abc.def?x=1#frag'), '/ri/[REDACTED]?x=1#frag');
  assert.equal(redactUrl('https://ecf.example/ri/abc'), 'https://ecf.example/ri/[REDACTED]');
  assert.equal(redactUrl('/ri%2Fabc'), '/ri%2F[REDACTED]');
  assert.equal(redactUrl('//ri/abc'), '//ri/[REDACTED]');
  assert.equal(
    redactUrl('/TesteCF/documentos-ecf?limit=5&cursor=abc'),
    '/TesteCF/documentos-ecf?limit=5&cursor=abc',
  );
  assert.equal(redactUrl('/x?Token=a&k=b&password=c&sig'), '/x?Token=[REDACTED]&k=b&password=[REDACTED]&sig');
  assert.equal(redactUrl('/x?api%5Fkey=a'), '/x?api%5Fkey=[REDACTED]');
  assert.equal(redactUrl('/private/ri-report'), '/private/ri-report');
});

test('redactHeaders: credentials replaced, URL headers redacted, the request object untouched', () => {
  const headers = { 'x-api-key': 'k', authorization: 'a', referer: 'https://h/ri/tok', accept: '*/*' };
  assert.deepEqual(redactHeaders(headers), {
    'x-api-key': '[REDACTED]',
    authorization: '[REDACTED]',
    referer: 'https://h/ri/[REDACTED]',
    accept: '*/*',
  });
  assert.equal(headers['x-api-key'], 'k');
});
