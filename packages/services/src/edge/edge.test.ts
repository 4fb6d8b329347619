import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../shared/errors.ts';
import { edgeLimits, SMALL_JSON_LIMITS } from './limits.ts';
import { readJsonBody } from './json-reader.ts';
import { readRequestBytes, readRequestJson } from './read-body.ts';

const limits = edgeLimits(SMALL_JSON_LIMITS, { maxDepth: 4, maxStringLength: 10, maxArrayLength: 3 });
const bytes = (text: string) => new TextEncoder().encode(text);

async function refusalOf(
  promise: Promise<unknown>,
): Promise<{ code: string; status: number; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return { code: error.code, status: error.status, details: error.details };
  }
  assert.fail('expected a refusal');
}

test('the reader gives the text as received and the value', async () => {
  const { text, value } = await readJsonBody(bytes('\uFEFF{"a": [1, "x"]}'), { limits });
  assert.equal(text, '{"a": [1, "x"]}');
  assert.deepEqual(value, { a: [1, 'x'] });
});

test('each refusal of the reader has its code, reason and path', async () => {
  const cases: Array<[string | Uint8Array, string, Record<string, unknown>]> = [
    ['', 'INVALID_JSON', { reason: 'empty' }],
    ['{"a":', 'INVALID_JSON', { reason: 'syntax' }],
    ['{"a":1,"a":2}', 'INVALID_JSON', { reason: 'duplicate_key', path: 'a' }],
    [
      new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      'INVALID_JSON',
      { reason: 'invalid_utf8', offset: 2 },
    ],
    ['{"a":{"b":{"c":{"d":{"e":1}}}}}', 'INVALID_JSON', { reason: 'too_deep', path: 'a.b.c.d', limit: 4 }],
    ['{"a":["12345678901"]}', 'INVALID_REQUEST', { reason: 'string_too_long', path: 'a[0]', limit: 10 }],
    ['{"a":[1,2,3,4]}', 'INVALID_REQUEST', { reason: 'array_too_long', path: 'a', limit: 3 }],
    [
      '{"a":"x\\u0000"}',
      'INVALID_REQUEST',
      { reason: 'unsupported_character', path: 'a', codePoint: 'U+0000' },
    ],
    [
      '{"a":["\\ud800"]}',
      'INVALID_REQUEST',
      { reason: 'unsupported_character', path: 'a[0]', codePoint: 'U+D800' },
    ],
    ['{"\\u0000":1}', 'INVALID_REQUEST', { reason: 'unsupported_character', path: '\u0000' }],
  ];
  for (const [body, code, details] of cases) {
    const refusal = await refusalOf(readJsonBody(typeof body === 'string' ? bytes(body) : body, { limits }));
    assert.equal(refusal.code, code, JSON.stringify(body));
    assert.equal(refusal.status, 400);
    for (const [key, expected] of Object.entries(details))
      assert.deepEqual(
        (refusal.details as Record<string, unknown>)[key],
        expected,
        `${JSON.stringify(body)} ${key}`,
      );
  }
});

test('a charset other than UTF-8 is refused; text the route checks itself passes the reader', async () => {
  const refusal = await refusalOf(
    readJsonBody(bytes('{}'), { limits, contentType: 'application/json; charset=latin1' }),
  );
  assert.equal(refusal.code, 'UNSUPPORTED_CONTENT_TYPE');
  const { value } = await readJsonBody(bytes('{"a":"x\\u0000"}'), { limits, textCheckedByRoute: true });
  assert.deepEqual(value, { a: 'x\u0000' });
});

test('a fetch body is read up to its cap and no further; a declared length over it is refused unread', async () => {
  let pulled = 0;
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const request = new Request('http://portal.test/x', {
    method: 'POST',
    body: endless,
    duplex: 'half',
  });
  const refusal = await refusalOf(readRequestBytes(request, { bodyBytes: 64 * 1024, bodyTimeoutMs: 5_000 }));
  assert.equal(refusal.code, 'BODY_TOO_LARGE');
  assert.ok(pulled <= 64 * 1024 + 3 * chunk.byteLength, `pulled ${pulled} bytes`);

  const declared = new Request('http://portal.test/x', {
    method: 'POST',
    body: '{}',
    headers: { 'content-length': String(10 * 1024 * 1024) },
  });
  assert.equal((await refusalOf(readRequestBytes(declared, limits))).code, 'BODY_TOO_LARGE');
});

test('a body that stops arriving is cut at its time limit', async () => {
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes('{"a":'));
    },
  });
  const request = new Request('http://portal.test/x', {
    method: 'POST',
    body: stalled,
    duplex: 'half',
  });
  const started = performance.now();
  const refusal = await refusalOf(readRequestJson(request, edgeLimits(limits, { bodyTimeoutMs: 200 })));
  assert.equal(refusal.code, 'REQUEST_TIMEOUT');
  assert.deepEqual(refusal.details, { reason: 'body_timeout', timeoutMs: 200 });
  assert.ok(performance.now() - started < 2_000);
});
