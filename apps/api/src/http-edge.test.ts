// What the HTTP layer answers before (or instead of) a route: malformed requests, oversized
// headers, bad percent-encoding, bodies over the limit. Raw sockets against a listening server,
// because `inject` bypasses Node's HTTP parser and its 'clientError' path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { ZErrorResponse } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { exchangeRaw, parseResponse, type TRawExchange } from '../test/raw-http.ts';

/** The statuses the direct API may answer with (spec, Errors). */
const SPEC_STATUSES = new Set([400, 401, 402, 403, 404, 409, 410, 422, 423, 428, 429, 500, 502, 503]);

let api: TTestApi;
let port: number;
let key: string;
before(async () => {
  api = await startTestApi();
  ({ key } = await seedTenantWithKey(api.database));
  const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(address).port);
});
after(async () => {
  await api.close();
});

/** Asserts a complete ErrorResponse with the given status and code, its correlation id echoed as a header. */
function assertErrorResponse(exchange: TRawExchange, status: number, code: string) {
  assert.equal(
    exchange.status,
    status,
    `${exchange.statusLine}\n${exchange.raw.toString('latin1').slice(0, 500)}`,
  );
  assert.ok(SPEC_STATUSES.has(exchange.status));
  assert.match(exchange.headers['content-type'] ?? '', /^application\/json/);
  const body = ZErrorResponse.parse(JSON.parse(exchange.body));
  assert.equal(body.error.code, code);
  assert.equal(body.error.details.code, code);
  assert.ok(body.correlationId.length > 0);
  assert.equal(exchange.headers['x-correlation-id'], body.correlationId);
  return body;
}

/** Resolves once `condition` holds (polled; the test runner's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const get = (path: string, extraHeaders = '') =>
  exchangeRaw({ port, head: `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}\r\n` });

test('invalid percent-encoding in a path is a 400 ErrorResponse, not FST_ERR_BAD_URL', async () => {
  for (const path of ['/TesteCF/documentos-ecf/%zz/xml', '/%E0%A4%A/contingencia']) {
    const body = assertErrorResponse(await get(path), 400, 'INVALID_REQUEST');
    assert.equal(body.error.details.reason, 'invalid_url_encoding');
    assert.doesNotMatch(JSON.stringify(body), /FST_ERR/);
  }
});

test('on the buyer link, invalid percent-encoding is the plain-text RI_LINK_INVALID', async () => {
  const exchange = await get('/ri/abc%zzdef');
  assert.equal(exchange.status, 404);
  assert.equal(exchange.headers['x-error-code'], 'RI_LINK_INVALID');
  assert.match(exchange.headers['content-type'] ?? '', /^text\/plain/);
  assert.ok(exchange.headers['x-correlation-id']);
});

test('a path parameter over the router limit is a 400 ErrorResponse (not 414); on /ri the plain-text refusal', async () => {
  const long = 'E'.repeat(9000);
  const body = assertErrorResponse(await get(`/TesteCF/documentos-ecf/${long}/xml`), 400, 'INVALID_REQUEST');
  assert.equal(body.error.details.reason, 'path_parameter_too_long');
  const link = await get(`/ri/${'a'.repeat(9000)}`);
  assert.equal(link.status, 404);
  assert.equal(link.headers['x-error-code'], 'RI_LINK_INVALID');
});

test('headers or a URL over 16 KB: 400 REQUEST_HEADERS_TOO_LARGE (not 431), connection closed', async () => {
  for (const exchange of [
    await get('/healthz', `X-Padding: ${'a'.repeat(20_000)}\r\n`),
    await get(`/healthz?padding=${'a'.repeat(20_000)}`),
  ]) {
    assertErrorResponse(exchange, 400, 'REQUEST_HEADERS_TOO_LARGE');
    assert.equal(exchange.headers['connection'], 'close');
  }
});

test('bytes that are not HTTP: 400 INVALID_REQUEST ErrorResponse (not the bare "Client Error")', async () => {
  const heads = [
    Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x0d, 0x0a, 0x0d, 0x0a]),
    'GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Header Name: x\r\n\r\n',
    'GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n',
    'G\u00e9T /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n',
  ];
  for (const head of heads) {
    const exchange = await exchangeRaw({ port, head });
    const body = assertErrorResponse(exchange, 400, 'INVALID_REQUEST');
    assert.equal(body.error.details.reason, 'malformed_http');
    assert.equal(exchange.headers['connection'], 'close');
    assert.doesNotMatch(exchange.body, /Client Error/);
  }
});

test('a wrong Content-Length: 400 ErrorResponse', async () => {
  const url = '/TesteCF/documentos-ecf/status/batch';
  const heads = [
    `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
    `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`,
    `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  ];
  for (const head of heads) assertErrorResponse(await exchangeRaw({ port, head }), 400, 'INVALID_REQUEST');
});

test('an HTTP/1.1 request without Host, or with an expectation other than 100-continue: 400 ErrorResponse', async () => {
  const noHost = assertErrorResponse(
    await exchangeRaw({ port, head: 'GET /healthz HTTP/1.1\r\n\r\n' }),
    400,
    'INVALID_REQUEST',
  );
  assert.equal(noHost.error.details.reason, 'host_header_missing');
  const expectation = assertErrorResponse(
    await get('/healthz', 'Expect: 200-ok\r\n'),
    400,
    'INVALID_REQUEST',
  );
  assert.equal(expectation.error.details.reason, 'expectation_not_supported');
});

test('a request timeout reported by the HTTP server is a 400 REQUEST_TIMEOUT ErrorResponse (not 408)', async () => {
  // Node reports a timeout of headers or body as a 'clientError'; waiting for its real timers
  // (tens of seconds) would make a slow test, so the server is handed that error for a live socket.
  const serverSocket = new Promise<Socket>((resolve) => api.app.server.once('connection', resolve));
  const client = connect({ host: '127.0.0.1', port });
  const received: Buffer[] = [];
  client.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
  client.on('error', () => undefined);
  client.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
  const socket = await serverSocket;
  api.app.server.emit(
    'clientError',
    Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
    socket,
  );
  await closed;
  const parsed = parseResponse(Buffer.concat(received));
  assert.ok(parsed);
  assertErrorResponse(
    { ...parsed, raw: Buffer.concat(received), socketError: null, wroteEverything: true },
    400,
    'REQUEST_TIMEOUT',
  );
});

// ------------------------------------------------------------------------------------------------
// Bodies over the limit: the client can always read the answer.

const TEN_MB = 10 * 1024 * 1024;

test('a 10 MB body sent in full, 20 times: every attempt reads the 400 BODY_TOO_LARGE', async () => {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    // Half of them ask to close the connection after the answer (Node then closes it at once).
    const connection = attempt % 2 === 0 ? 'keep-alive' : 'close';
    const exchange = await exchangeRaw({
      port,
      head:
        'POST /TesteCF/documentos-ecf HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `X-API-KEY: ${key}\r\nConnection: ${connection}\r\nContent-Length: ${TEN_MB}\r\n\r\n`,
      bodyBytes: TEN_MB,
    });
    assert.equal(exchange.socketError, null, `attempt ${attempt}: ${exchange.socketError}`);
    assert.ok(exchange.wroteEverything, `attempt ${attempt}: the body could not be sent in full`);
    const body = assertErrorResponse(exchange, 400, 'BODY_TOO_LARGE');
    assert.equal(typeof body.error.details.limitBytes, 'number');
  }
});

test('a 10 MB body in chunked coding (no Content-Length), and on the status batch: the 400 is read every time', async () => {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    for (const url of ['/TesteCF/documentos-ecf', '/TesteCF/documentos-ecf/status/batch']) {
      const exchange = await exchangeRaw({
        port,
        head: `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        bodyBytes: TEN_MB,
        chunked: true,
      });
      assert.equal(exchange.socketError, null, `${url} attempt ${attempt}: ${exchange.socketError}`);
      assertErrorResponse(exchange, 400, 'BODY_TOO_LARGE');
    }
  }
});

test('with Expect: 100-continue, a Content-Length over the limit is answered before the body is sent', async () => {
  const exchange = await exchangeRaw({
    port,
    head:
      'POST /TesteCF/documentos-ecf HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `Expect: 100-continue\r\nContent-Length: ${TEN_MB}\r\n\r\n`,
    bodyBytes: TEN_MB,
    waitForContinue: true,
  });
  assert.doesNotMatch(exchange.raw.toString('latin1'), /100 Continue/);
  assert.equal(exchange.wroteEverything, false, 'no body byte was needed');
  assertErrorResponse(exchange, 400, 'BODY_TOO_LARGE');
});

test('with Expect: 100-continue and a body within the limit, the server asks for it and answers', async () => {
  const payload = JSON.stringify({ encfs: ['E310000000001'] });
  const exchange = await exchangeRaw({
    port,
    head:
      'POST /TesteCF/documentos-ecf/status/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `X-API-KEY: ${key}\r\nExpect: 100-continue\r\nContent-Length: ${payload.length}\r\n\r\n`,
    body: payload,
    waitForContinue: true,
  });
  assert.match(exchange.raw.toString('latin1'), /^HTTP\/1\.1 100 Continue\r\n/);
  assert.ok(exchange.wroteEverything);
  assert.equal(exchange.status, 200, exchange.body);
  assert.deepEqual(JSON.parse(exchange.body).unfound, ['E310000000001']);
});

test('a chunked body that turns malformed mid-request: one 400 ErrorResponse, and the server keeps serving', async () => {
  const exchange = await exchangeRaw({
    port,
    head:
      'POST /TesteCF/documentos-ecf/status/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n5\r\n{"enc\r\nzz-not-a-size\r\n',
  });
  const body = assertErrorResponse(exchange, 400, 'INVALID_REQUEST');
  assert.equal(body.error.details.reason, 'malformed_http');
  assert.equal(exchange.raw.toString('latin1').match(/HTTP\/1\.1 /g)?.length, 1, 'exactly one answer');
  assert.equal((await get('/healthz')).status, 200);
});

test('a request that arrives while the server is closing: 503 SERVICE_UNAVAILABLE ErrorResponse, connection closed', async () => {
  const closing = await startTestApi();
  const closingPort = Number(new URL(await closing.app.listen({ host: '127.0.0.1', port: 0 })).port);
  const serverSocket = new Promise<Socket>((resolve) => closing.app.server.once('connection', resolve));
  const client = connect({ host: '127.0.0.1', port: closingPort });
  const received: Buffer[] = [];
  client.on('data', (chunk: Buffer) => received.push(chunk));
  client.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => client.on('close', () => resolve()));
  await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  // Half a request: once the server has read it the connection is busy, so closing waits for it.
  client.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
  const socket = await serverSocket;
  await until(() => socket.bytesRead > 0);
  const closed = closing.close();
  // The server stops listening once the preClose hooks ran: from then on requests are refused.
  await until(() => !closing.app.server.listening);
  client.write('\r\n');
  await ended;
  await closed;
  const parsed = parseResponse(Buffer.concat(received));
  assert.ok(parsed, Buffer.concat(received).toString('latin1'));
  const body = assertErrorResponse(
    { ...parsed, raw: Buffer.concat(received), socketError: null, wroteEverything: true },
    503,
    'SERVICE_UNAVAILABLE',
  );
  assert.equal(body.error.details.reason, 'shutting_down');
  assert.equal(parsed.headers['connection'], 'close');
});

test('CONNECT (which Node closes silently without a listener): 400 ErrorResponse', async () => {
  const exchange = await exchangeRaw({
    port,
    head: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
  });
  const body = assertErrorResponse(exchange, 400, 'INVALID_REQUEST');
  assert.equal(body.error.details.reason, 'method_not_supported');
});
