// The API's request edge as one design (issue 25): every registered route declares its limits in
// one table (route-limits.ts) or the API does not start; a body that does not arrive in its route's
// time is cut; the HTTP server's own timeouts (headers, a silent connection, idle keep-alive); text
// PostgreSQL cannot store refused on every JSON surface (Partner included); and the buyer link's
// plain-text answers for what Node's parser refuses. Raw sockets against a listening server:
// `inject` bypasses Node's HTTP parser and its timers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { NO_BODY_LIMITS, SMALL_JSON_LIMITS } from '@ecf/services';
import { ZErrorResponse } from '@ecf/contract';
import { readEnv } from './env.ts';
import { registerBodyLimits } from './plugins/body-limits.ts';
import { routeTableOf } from './route-limits.ts';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { exchangeRaw, parseResponse } from '../test/raw-http.ts';
import { seedAccount, seedPartner } from '../test/partner-support.ts';

/** A throwaway master key: webhook secrets are sealed with it. */
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

let api: TTestApi;
let port: number;
let key: string;
let partnerKey: string;
let accountId: string;
before(async () => {
  api = await startTestApi({
    PSFE_PARTNER_API_ENABLED: 'true',
    CERTIFICATE_MASTER_KEY: MASTER_KEY,
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  });
  ({ key } = await seedTenantWithKey(api.database));
  const { partner, keys } = await seedPartner(api.database);
  partnerKey = keys.full;
  accountId = (await seedAccount(api.database, partner.id)).id;
  const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(address).port);
});
after(async () => {
  await api.close();
});

/** What one raw connection saw: every byte, and when the server closed it. */
type TConnection = { raw: Buffer; closedAfterMs: number };

/**
 * How late after its limit a connection may be cut and still count as cut by the limit: the CI
 * machine runs this beside the end-to-end stack on two cores, where 200 sockets' timers fire late.
 * A connection the limit did not cut stays open until the test's own timeout, far beyond this.
 */
const SCHEDULING_SLACK_MS = 5_000;

/** Opens a connection, writes `head` (nothing if empty) and waits, without sending more, until the server closes it. */
function holdOpen(targetPort: number, head: string): Promise<TConnection> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: '127.0.0.1', port: targetPort });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () =>
      resolve({ raw: Buffer.concat(chunks), closedAfterMs: performance.now() - started }),
    );
    if (head !== '') socket.write(head);
  });
}

function errorOf(raw: Buffer) {
  const parsed = parseResponse(raw);
  assert.ok(parsed, `no complete answer: ${raw.toString('latin1').slice(0, 300)}`);
  assert.match(parsed.headers['content-type'] ?? '', /^application\/json/);
  return {
    status: parsed.status,
    headers: parsed.headers,
    body: ZErrorResponse.parse(JSON.parse(parsed.body)),
  };
}

const openDescriptors = () => readdirSync('/proc/self/fd').length;

/** The descriptors open once the closed connections are released (polled up to 3 s: the server sees the client's FIN just after). */
async function descriptorsSettledAt(most: number): Promise<number> {
  const deadline = Date.now() + 3_000;
  while (openDescriptors() > most && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return openDescriptors();
}

test('every route the API registers (Partner API on) has its line in the route table, applied to the route', async () => {
  const table = routeTableOf({ submissionLimitBytes: readEnv({}).API_BODY_LIMIT_BYTES, partnerApi: true });
  const routes = api.app.registeredRoutes;
  assert.ok(routes.length > 150, `only ${routes.length} routes registered`);
  for (const url of ['/healthz', '/readyz', '/metrics', '/openapi.json', '/ri/:token', '/docs']) {
    assert.ok(
      routes.some((route) => route.url === url),
      `${url} is not registered`,
    );
  }
  for (const family of ['/partner/v1/', '/:environment/fe/', '/:environment/documentos-ecf']) {
    assert.ok(
      routes.some((route) => route.url.startsWith(family)),
      `no route under ${family}`,
    );
  }
  const missing = routes.filter((route) => table.edgeOf(route.method, route.url) === null);
  assert.deepEqual(missing, [], 'routes without edge limits');
  // Applied: the Partner webhook route reads at most its 64 KiB, as its line says.
  const oversized = await api.app.inject({
    method: 'POST',
    url: '/partner/v1/webhook-endpoints',
    headers: { 'content-type': 'application/json', 'x-partner-key': partnerKey },
    payload: JSON.stringify({
      name: 'x'.repeat(SMALL_JSON_LIMITS.bodyBytes),
      url: 'https://hooks.example.com/a',
    }),
  });
  assert.equal(oversized.statusCode, 400);
  assert.equal(oversized.json().error.code, 'BODY_TOO_LARGE');
  assert.equal(oversized.json().error.details.limitBytes, SMALL_JSON_LIMITS.bodyBytes);
});

test('a route registered without a line in the route table stops the start, naming it', async () => {
  const app = Fastify({ logger: false });
  registerBodyLimits(app, { submissionLimitBytes: 6 * 1024 * 1024, partnerApi: false });
  app.get('/healthz', async () => ({ ok: true }));
  app.post('/partner/v1/undeclared', async () => ({ ok: true }));
  app.put('/TesteCF/not-in-the-table', async () => ({ ok: true }));
  // Declared inline (a test's own route): started.
  app.get('/declared-inline', { config: { edgeLimits: NO_BODY_LIMITS } }, async () => ({ ok: true }));
  await assert.rejects(
    async () => app.ready(),
    (error: Error) => {
      assert.match(error.message, /POST \/partner\/v1\/undeclared/);
      assert.match(error.message, /PUT \/TesteCF\/not-in-the-table/);
      assert.doesNotMatch(error.message, /GET \/healthz|declared-inline/);
      return true;
    },
  );
  await app.close().catch(() => undefined);
});

test('U+0000 and lone surrogates: 400 INVALID_REQUEST unsupported_character with the path, Partner and direct routes alike; nothing stored', async () => {
  const partner = { 'x-partner-key': partnerKey };
  const direct = { 'x-api-key': key };
  const created = await api.app.inject({
    method: 'POST',
    url: '/partner/v1/webhook-endpoints',
    headers: { ...partner, 'content-type': 'application/json' },
    payload: { name: 'Hooks', url: 'http://127.0.0.1:9/hook', eventTypes: ['document.state_changed'] },
  });
  assert.equal(created.statusCode, 201, created.body);
  const endpointId = created.json().endpoint.id as string;
  const profile = `/partner/v1/fiscal-accounts/${accountId}/profile`;
  const cases: Array<[string, string, Record<string, string>, unknown, string, string]> = [
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      partner,
      { name: 'a\u0000b', url: 'https://hooks.example.com/a' },
      'name',
      'U+0000',
    ],
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      partner,
      { name: 'a', url: 'https://hooks.example.com/\u0000' },
      'url',
      'U+0000',
    ],
    [
      'POST',
      '/partner/v1/webhook-endpoints',
      partner,
      { name: 'a\uD800', url: 'https://hooks.example.com/a' },
      'name',
      'U+D800',
    ],
    ['PATCH', `/partner/v1/webhook-endpoints/${endpointId}`, partner, { name: 'x\u0000' }, 'name', 'U+0000'],
    [
      'PATCH',
      `/partner/v1/webhook-endpoints/${endpointId}`,
      partner,
      { url: 'https://hooks.example.com/\uDC00' },
      'url',
      'U+DC00',
    ],
    ['PATCH', profile, partner, { legalName: 'Cliente\u0000 SRL' }, 'legalName', 'U+0000'],
    ['PATCH', profile, partner, { address: 'Calle \uD83D 1' }, 'address', 'U+D83D'],
    ['PATCH', profile, partner, { address: 'Calle 1', legalName: '\u0000' }, 'legalName', 'U+0000'],
    [
      'POST',
      '/TesteCF/documentos-ecf/status/batch',
      direct,
      { encfs: ['E310000000001', 'E31\u0000'] },
      'encfs[1]',
      'U+0000',
    ],
    [
      'POST',
      '/TesteCF/secuencias',
      direct,
      { type: 'E31', 'fr\u0000m': 'E310000000001' },
      'fr\u0000m',
      'U+0000',
    ],
    [
      'POST',
      `/TesteCF/inbound-taxauth/${randomUUID()}/aprobacion-comercial`,
      direct,
      { decision: 'reject', approvalDate: '2026-01-01T00:00:00-04:00', rejectionReason: 'no\u0000' },
      'rejectionReason',
      'U+0000',
    ],
    [
      'POST',
      '/TesteCF/certificacion/atestaciones',
      direct,
      { step: 'x', evidenceRefs: ['ok', '\uDBFF'] },
      'evidenceRefs[1]',
      'U+DBFF',
    ],
  ];
  for (const [method, url, headers, body, path, codePoint] of cases) {
    const response = await api.app.inject({
      method: method as 'POST' | 'PATCH',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    const label = `${method} ${url} ${path}`;
    assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
    const error = ZErrorResponse.parse(response.json()).error;
    assert.equal(error.code, 'INVALID_REQUEST', label);
    assert.deepEqual(
      { reason: error.details.reason, path: error.details.path, codePoint: error.details.codePoint },
      { reason: 'unsupported_character', path, codePoint },
      label,
    );
  }
  const listed = await api.app.inject({
    method: 'GET',
    url: '/partner/v1/webhook-endpoints',
    headers: partner,
  });
  assert.deepEqual(
    listed.json().items.map((item: { name: string; url: string }) => [item.name, item.url]),
    [['Hooks', 'http://127.0.0.1:9/hook']],
  );
  const account = await api.app.inject({
    method: 'GET',
    url: `/partner/v1/fiscal-accounts/${accountId}`,
    headers: partner,
  });
  assert.doesNotMatch(account.body, /\\u0000|\uFFFD/);
});

test('a body that does not arrive within its route time: 400 REQUEST_TIMEOUT body_timeout, connection closed; 200 such connections all released', async () => {
  const limitMs = SMALL_JSON_LIMITS.bodyTimeoutMs;
  const descriptorsBefore = openDescriptors();
  const heads = [
    (index: number) =>
      `POST /TesteCF/documentos-ecf/status/batch HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"encfs":${index % 10}`,
    () =>
      `POST /partner/v1/webhook-endpoints HTTP/1.1\r\nHost: localhost\r\nX-PARTNER-KEY: ${partnerKey}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"a"',
    () =>
      `PATCH /partner/v1/fiscal-accounts/${accountId}/profile HTTP/1.1\r\nHost: localhost\r\nX-PARTNER-KEY: ${partnerKey}\r\n` +
      'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"add\r\n',
    // Multipart, read by its own parser (the certificate upload), held the same way.
    () =>
      `PUT /partner/v1/certificate-upload-sessions/${randomUUID()} HTTP/1.1\r\nHost: localhost\r\n` +
      'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000\r\n\r\n--b\r\n',
  ];
  const started = performance.now();
  const connections = await Promise.all(
    Array.from({ length: 200 }, (_, index) => holdOpen(port, heads[index % heads.length]!(index))),
  );
  const elapsed = performance.now() - started;
  for (const [index, connection] of connections.entries()) {
    assert.ok(
      connection.closedAfterMs >= limitMs - 100 && connection.closedAfterMs <= limitMs + SCHEDULING_SLACK_MS,
      `connection ${index} closed after ${Math.round(connection.closedAfterMs)} ms`,
    );
    if (index % heads.length === 3) continue; // the upload session is unknown: its 404 may come first
    const answer = errorOf(connection.raw);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'REQUEST_TIMEOUT');
    assert.equal(answer.body.error.details.reason, 'body_timeout');
    assert.equal(answer.headers.connection, 'close');
  }
  assert.ok(
    elapsed <= limitMs + SCHEDULING_SLACK_MS + 1_000,
    `200 held connections took ${Math.round(elapsed)} ms`,
  );
  const descriptorsAfter = await descriptorsSettledAt(descriptorsBefore + 5);
  assert.ok(
    descriptorsAfter <= descriptorsBefore + 5,
    `descriptors ${descriptorsBefore} → ${descriptorsAfter}`,
  );
  const connectionsLeft = await new Promise<number>((resolve, reject) =>
    api.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
  assert.equal(connectionsLeft, 0);
  assert.doesNotMatch(api.logs.text, /"level":50/, 'an error was logged');
  console.log(
    `[request-edge] 200 connections declaring 1000 bytes and sending 10: all answered and closed within ${Math.round(elapsed)} ms (route limit ${limitMs} ms); descriptors ${descriptorsBefore} → ${descriptorsAfter}`,
  );
});

test('wire timeouts: incomplete headers and silent connections are cut at API_HEADERS_TIMEOUT_MS, a trickling request at API_REQUEST_TIMEOUT_MS, with 400 REQUEST_TIMEOUT; idle keep-alive at API_KEEP_ALIVE_TIMEOUT_MS', async () => {
  // The defaults (.env.example, README "Timeouts") are what the API listens with.
  assert.equal(api.app.server.headersTimeout, 10_000);
  assert.equal(api.app.server.requestTimeout, 120_000);
  assert.equal(api.app.server.keepAliveTimeout, 5_000);
  const quick = await startTestApi({
    API_HEADERS_TIMEOUT_MS: '2000',
    API_KEEP_ALIVE_TIMEOUT_MS: '1000',
    API_REQUEST_TIMEOUT_MS: '3000',
    API_CONNECTIONS_CHECK_INTERVAL_MS: '250',
  });
  try {
    const quickPort = Number(new URL(await quick.app.listen({ host: '127.0.0.1', port: 0 })).port);
    const descriptorsBefore = openDescriptors();
    const connections = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        holdOpen(
          quickPort,
          index % 2 === 0 ? 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Partial: 1' : '',
        ),
      ),
    );
    for (const [index, connection] of connections.entries()) {
      assert.ok(
        connection.closedAfterMs >= 1_900 && connection.closedAfterMs <= 2_000 + SCHEDULING_SLACK_MS,
        `connection ${index} closed after ${Math.round(connection.closedAfterMs)} ms`,
      );
      const answer = errorOf(connection.raw);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, 'REQUEST_TIMEOUT');
    }
    const descriptorsAfter = await descriptorsSettledAt(descriptorsBefore + 5);
    assert.ok(
      descriptorsAfter <= descriptorsBefore + 5,
      `descriptors ${descriptorsBefore} → ${descriptorsAfter}`,
    );
    console.log(
      `[request-edge] 200 connections with incomplete headers or none: all answered 400 REQUEST_TIMEOUT and closed within ${Math.round(Math.max(...connections.map((connection) => connection.closedAfterMs)))} ms (API_HEADERS_TIMEOUT_MS 2000); descriptors ${descriptorsBefore} → ${descriptorsAfter}`,
    );
    // A body trickling in (a byte every 200 ms: within no route's time) is cut by the whole-request limit.
    const trickle = await new Promise<TConnection>((resolve) => {
      const started = performance.now();
      const socket = connect({ host: '127.0.0.1', port: quickPort });
      const chunks: Buffer[] = [];
      const timer = setInterval(() => socket.write('a'), 200);
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ raw: Buffer.concat(chunks), closedAfterMs: performance.now() - started });
      });
      socket.write(
        'POST /TesteCF/documentos-ecf/status/batch HTTP/1.1\r\nHost: localhost\r\n' +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      );
    });
    assert.ok(
      trickle.closedAfterMs >= 2_900 && trickle.closedAfterMs <= 3_000 + SCHEDULING_SLACK_MS,
      `trickle closed after ${Math.round(trickle.closedAfterMs)} ms`,
    );
    assert.equal(errorOf(trickle.raw).body.error.code, 'REQUEST_TIMEOUT');
    // One complete request, then silence: the server closes the idle connection.
    const idle = await holdOpen(quickPort, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    assert.equal(parseResponse(idle.raw)?.status, 200);
    assert.ok(
      idle.closedAfterMs >= 900 && idle.closedAfterMs <= 2_500,
      `idle closed after ${Math.round(idle.closedAfterMs)} ms`,
    );
  } finally {
    await quick.close();
  }
});

test('what the HTTP parser refuses on /ri is plain text with X-Error-Code, never JSON; elsewhere the ErrorResponse', async () => {
  const cases: Array<[string, string]> = [
    ['GET /ri/abc.def HTTP/1.1\r\nHost: localhost\r\nBad Header: 1\r\n\r\n', 'INVALID_REQUEST'],
    ['GET /RI/abc HTTP/1.1\r\nHost: localhost\r\nContent-Length: x\r\n\r\n', 'INVALID_REQUEST'],
    [
      `GET /ri/abc HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      'REQUEST_HEADERS_TOO_LARGE',
    ],
  ];
  for (const [head, code] of cases) {
    const exchange = await exchangeRaw({ port, head });
    assert.equal(exchange.status, 400, exchange.raw.toString('latin1').slice(0, 300));
    assert.match(exchange.headers['content-type'] ?? '', /^text\/plain/);
    assert.equal(exchange.headers['x-error-code'], code);
    assert.ok(exchange.headers['x-correlation-id']);
    assert.equal(exchange.headers.connection, 'close');
    assert.ok(exchange.body.endsWith(`\n${code}\n`), exchange.body);
    assert.doesNotMatch(exchange.body, /[{}]/);
  }
  const elsewhere = await exchangeRaw({
    port,
    head: 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Header: 1\r\n\r\n',
  });
  assert.equal(elsewhere.status, 400);
  assert.match(elsewhere.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(ZErrorResponse.parse(JSON.parse(elsewhere.body)).error.code, 'INVALID_REQUEST');
});
