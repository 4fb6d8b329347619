// The transport of @ecf/sdk against a real local HTTP server scripted answer by answer: what is
// retried (and what never is), Retry-After, the Idempotency-Key kept across retries, Prefer,
// timeouts and the caller's abort, typed errors, both paginations and downloads.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  EcfApiError,
  EcfClient,
  EcfConflictError,
  EcfConnectionError,
  EcfRateLimitError,
  EcfTimeoutError,
  EcfUnavailableError,
  EcfValidationError,
  PartnerClient,
  retryAfterSecondsOf,
} from '../src/index.ts';
import { failure, hangUp, json, startLocalServer, type TAnswer } from './local-server.ts';

let server: Awaited<ReturnType<typeof startLocalServer>>;
let client: EcfClient;
before(async () => {
  server = await startLocalServer();
});
after(async () => {
  await server.close();
});
beforeEach(() => {
  server.received.length = 0;
  client = new EcfClient({
    apiKey: 'key_test',
    environment: 'TesteCF',
    baseUrl: server.baseUrl,
    retryDelayMs: 10,
  });
});

const document = {
  ok: true,
  documentId: 'd1',
  encf: 'E310000000001',
  status: 'accepted',
  correlationId: 'c',
};

test('a read is sent to the environment with the key, and retried on 503 and 429 as Retry-After says', async () => {
  server.answer(
    failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }),
    failure(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '1' }),
    json(200, { ok: true, items: [], nextCursor: null, correlationId: 'c' }),
  );
  const started = Date.now();
  const page = await client.listDocuments({ status: 'accepted', limit: '5' });
  assert.deepEqual(page.items, []);
  assert.ok(Date.now() - started >= 1000, 'waited the second Retry-After asked for');
  assert.equal(server.received.length, 3);
  const [first] = server.received;
  assert.equal(first?.method, 'GET');
  assert.equal(first?.url, '/TesteCF/documentos-ecf?status=accepted&limit=5');
  assert.equal(first?.headers['x-api-key'], 'key_test');
  assert.equal(first?.headers['accept'], 'application/json');
});

test('attempts stop at maxRetries, and the error keeps the code, details, correlationId and Retry-After', async () => {
  server.answer(...Array.from({ length: 3 }, () => failure(503, 'DATABASE_BUSY', { 'retry-after': '0' })));
  const error = await client.contingency().catch((caught: unknown) => caught);
  assert.ok(error instanceof EcfUnavailableError);
  assert.equal(error.status, 503);
  assert.equal(error.code, 'DATABASE_BUSY');
  assert.deepEqual(error.details, { field: 'x' });
  assert.equal(error.correlationId, 'corr-DATABASE_BUSY');
  assert.equal(error.retryAfterSeconds, 0);
  assert.equal(error.retryable, true);
  assert.equal(server.received.length, 3, 'the first attempt and two retries');
});

test('a Retry-After longer than maxRetryDelayMs is not waited for: the 429 is thrown at once', async () => {
  server.answer(failure(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '60' }));
  const error = await client.contingency().catch((caught: unknown) => caught);
  assert.ok(error instanceof EcfRateLimitError);
  assert.equal(error.retryAfterSeconds, 60);
  assert.equal(server.received.length, 1);
});

test('an operation that could act twice is never retried, even on a lost connection', async () => {
  server.answer(failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }));
  const error = await client.registerSequence({ body: {} as never }).catch((caught: unknown) => caught);
  assert.ok(error instanceof EcfUnavailableError);
  assert.equal(server.received.length, 1);
  server.answer(hangUp);
  const lost = await client.registerSequence({ body: {} as never }).catch((caught: unknown) => caught);
  assert.ok(lost instanceof EcfConnectionError, String(lost));
  assert.equal(lost.retryable, true, 'the caller may decide to send it again after checking');
  assert.equal(server.received.length, 2);
});

test('the e-CF submission is retried after a lost connection (a replay is by eNCF and content) with the same body and Prefer', async () => {
  server.answer(hangUp, json(201, document));
  const answer = await client.submitDocument(
    { body: { type: 'E31', encf: 'E310000000001' } as never },
    { wait: 10 },
  );
  assert.equal(answer.documentId, 'd1');
  assert.equal(server.received.length, 2);
  const [first, second] = server.received;
  assert.equal(first?.headers['prefer'], 'wait=10');
  assert.equal(first?.headers['content-type'], 'application/json');
  assert.equal(second?.body.toString(), first?.body.toString());
  assert.equal(JSON.parse(second?.body.toString() ?? '').encf, 'E310000000001');
});

test('an Idempotency-Key is generated when none is given, the same on every retry; a given one is sent as is', async () => {
  const annulment = { body: { ranges: [] } as never };
  server.answer(failure(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '0' }), json(202, { ok: true }));
  await client.sendAnnulment(annulment);
  const [first, second] = server.received;
  assert.match(String(first?.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
  assert.equal(second?.headers['idempotency-key'], first?.headers['idempotency-key']);
  server.answer(json(200, { ok: true }), json(200, { ok: true }));
  await client.sendAnnulment(annulment);
  assert.notEqual(
    server.received[2]?.headers['idempotency-key'],
    first?.headers['idempotency-key'],
    'a new call, a new key',
  );
  await client.sendAnnulment(annulment, { idempotencyKey: 'mi-clave-1' });
  assert.equal(server.received[3]?.headers['idempotency-key'], 'mi-clave-1');
});

test('a 4xx is thrown at once as its family, with the 422 field errors', async () => {
  server.answer(
    json(422, {
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'm', details: {} },
      errors: [{ path: 'lines[0].unitPrice', code: 'DECIMAL_INVALID', message: 'x' }],
      warnings: [],
      correlationId: 'c422',
    }),
  );
  const invalid = await client.submitDocument({ body: {} as never }).catch((caught: unknown) => caught);
  assert.ok(invalid instanceof EcfValidationError);
  assert.equal(invalid.errors[0]?.path, 'lines[0].unitPrice');
  assert.equal(invalid.retryable, false);
  server.answer(failure(409, 'ENCF_CONFLICT'));
  const conflict = await client.submitDocument({ body: {} as never }).catch((caught: unknown) => caught);
  assert.ok(conflict instanceof EcfConflictError && conflict instanceof EcfApiError);
  assert.equal(conflict.family, 'conflict');
  assert.equal(server.received.length, 2);
});

test('a body that is not an ErrorResponse still becomes an EcfApiError with the status', async () => {
  server.answer((response) => {
    response.writeHead(502, { 'content-type': 'text/html', 'x-correlation-id': 'from-header' });
    response.end('<html>Bad gateway</html>');
  });
  const error = await client
    .getAnnulment({ annulmentId: 'a' }, { maxRetries: 0 })
    .catch((caught: unknown) => caught);
  assert.ok(error instanceof EcfUnavailableError);
  assert.equal(error.code, 'HTTP_502');
  assert.equal(error.correlationId, 'from-header');
});

test('timeoutMs ends an attempt (and reads are retried); the caller’s abort ends the call with its reason', async () => {
  const slow: TAnswer = (response, request) =>
    setTimeout(() => json(200, { ok: true })(response, request), 500);
  server.answer(slow, slow);
  const timedOut = await client
    .contingency({}, { timeoutMs: 50, maxRetries: 1 })
    .catch((caught: unknown) => caught);
  assert.ok(timedOut instanceof EcfTimeoutError, String(timedOut));
  assert.equal(server.received.length, 2);
  server.answer(slow);
  const controller = new AbortController();
  const reason = new Error('the user cancelled');
  setTimeout(() => controller.abort(reason), 30);
  const aborted = await client
    .contingency({}, { signal: controller.signal })
    .catch((caught: unknown) => caught);
  assert.equal(aborted, reason);
});

test('paginate follows nextCursor with the same filters, and a Partner listing its offsets up to total', async () => {
  server.answer(
    json(200, { ok: true, items: [{ encf: 'E1' }, { encf: 'E2' }], nextCursor: 'cur/2', correlationId: 'c' }),
    json(200, { ok: true, items: [{ encf: 'E3' }], nextCursor: null, correlationId: 'c' }),
  );
  const encfs: string[] = [];
  for await (const item of client.paginate('listDocuments', { type: 'E31', limit: '2' }))
    encfs.push(item.encf);
  assert.deepEqual(encfs, ['E1', 'E2', 'E3']);
  assert.equal(server.received[1]?.url, '/TesteCF/documentos-ecf?type=E31&limit=2&cursor=cur%2F2');

  const partner = new PartnerClient({ partnerKey: 'pk', baseUrl: server.baseUrl });
  server.answer(
    json(200, {
      ok: true,
      items: [{ id: 'a' }, { id: 'b' }],
      total: 3,
      limit: 2,
      offset: 0,
      correlationId: 'c',
    }),
    json(200, { ok: true, items: [{ id: 'c' }], total: 3, limit: 2, offset: 2, correlationId: 'c' }),
  );
  const ids: string[] = [];
  for await (const account of partner.paginate('listFiscalAccounts', { limit: '2' })) ids.push(account.id);
  assert.deepEqual(ids, ['a', 'b', 'c']);
  assert.equal(server.received[3]?.url, '/partner/v1/fiscal-accounts?limit=2&offset=2');
  assert.equal(server.received[3]?.headers['x-partner-key'], 'pk');
});

test('a download asks for its type and is read as a stream or whole, with its file name', async () => {
  const pdf = Buffer.from('%PDF-1.7 fake but bytes');
  server.answer((response) => {
    response.writeHead(200, {
      'content-type': 'application/pdf',
      'content-disposition': 'attachment; filename=101672919E310000000001.pdf',
    });
    response.end(pdf);
  });
  const download = await client.documentPdf({ documentReference: 'E310000000001' });
  assert.equal(server.received[0]?.headers['accept'], 'application/pdf');
  assert.equal(download.contentType, 'application/pdf');
  assert.equal(download.filename, '101672919E310000000001.pdf');
  assert.deepEqual(Buffer.from(await download.bytes()), pdf);
});

test('the client refuses what it cannot send before sending anything', () => {
  assert.throws(
    () => new EcfClient({ apiKey: 'k', environment: 'Prod' as never, baseUrl: server.baseUrl }),
    /environment/,
  );
  assert.throws(() => new PartnerClient({ partnerKey: 'k', baseUrl: 'api.example.do' }), /baseUrl/);
  const keyless = new PartnerClient({ baseUrl: server.baseUrl });
  return assert
    .rejects(keyless.listWebhookEndpoints(), /partnerKey/)
    .then(() => assert.equal(server.received.length, 0));
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  assert.equal(retryAfterSecondsOf('7'), 7);
  assert.equal(
    retryAfterSecondsOf(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1)),
    30,
  );
  assert.equal(retryAfterSecondsOf('mañana'), null);
  assert.equal(retryAfterSecondsOf(null), null);
});
