// next-auth's POST bodies at the request edge (server/auth-request.ts): read under 16 KiB and 10 s
// before next-auth (which reads any size) sees them, checked, and handed on intact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NextRequest } from 'next/server';
import { AUTH_BODY_LIMITS, boundedAuthRequest } from './auth-request.ts';

const URL_OF_SIGN_IN = 'https://portal.example.do/api/auth/callback/credentials';
const FORM = 'application/x-www-form-urlencoded';

function form(body: BodyInit, contentType = FORM): Request {
  return new Request(URL_OF_SIGN_IN, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  });
}

async function refusalOf(result: Request | Response) {
  assert.ok(result instanceof Response && !(result instanceof Request), 'expected a refusal');
  return {
    status: result.status,
    body: (await result.json()) as { ok: false; error: { code: string; details: Record<string, unknown> } },
  };
}

test('a sign-in form passes intact, as a NextRequest next-auth can read', async () => {
  const body = 'csrfToken=abc&email=ana%40example.do&password=una+contrase%C3%B1a&json=true';
  const bounded = await boundedAuthRequest(form(body));
  assert.ok(bounded instanceof NextRequest);
  assert.equal(bounded.method, 'POST');
  assert.equal(bounded.nextUrl.pathname, '/api/auth/callback/credentials');
  assert.equal(Object.fromEntries(new URLSearchParams(await bounded.text())).password, 'una contraseña');
  const get = await boundedAuthRequest(new Request('https://portal.example.do/api/auth/csrf'));
  assert.ok(get instanceof NextRequest);
});

test('a 300 MB streamed form is refused at 16 KiB without being read', async () => {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= 300_000_000) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  const rssBefore = process.memoryUsage().rss;
  const { status, body } = await refusalOf(await boundedAuthRequest(form(stream)));
  assert.equal(status, 400);
  assert.equal(body.error.code, 'BODY_TOO_LARGE');
  assert.deepEqual(body.error.details, { limitBytes: AUTH_BODY_LIMITS.bodyBytes });
  assert.ok(pulled <= 2 * 64 * 1024, `pulled ${pulled} bytes`);
  assert.ok(process.memoryUsage().rss - rssBefore < 64 * 1024 * 1024);
  // Declared too large: refused before reading.
  const declared = new Request(URL_OF_SIGN_IN, {
    method: 'POST',
    headers: { 'content-type': FORM, 'content-length': '300000000' },
    body: 'email=a',
  });
  assert.equal((await refusalOf(await boundedAuthRequest(declared))).body.error.code, 'BODY_TOO_LARGE');
});

test('U+0000 in a form value, invalid UTF-8 and other media types are refused with their codes', async () => {
  const nul = await refusalOf(await boundedAuthRequest(form('email=a%00b%40example.do&password=x')));
  assert.equal(nul.status, 400);
  assert.equal(nul.body.error.code, 'INVALID_REQUEST');
  assert.deepEqual(nul.body.error.details, {
    reason: 'unsupported_character',
    path: 'email',
    codePoint: 'U+0000',
  });
  const bytes = await refusalOf(await boundedAuthRequest(form(new Uint8Array([0x65, 0x3d, 0xc3, 0x28]))));
  assert.equal(bytes.body.error.details.reason, 'invalid_utf8');
  const json = await refusalOf(
    await boundedAuthRequest(form('{"email":"a","email":"b"}', 'application/json')),
  );
  assert.equal(json.body.error.code, 'INVALID_JSON');
  assert.equal(json.body.error.details.reason, 'duplicate_key');
  const multipart = await refusalOf(
    await boundedAuthRequest(form('--x--', 'multipart/form-data; boundary=x')),
  );
  assert.equal(multipart.body.error.code, 'UNSUPPORTED_CONTENT_TYPE');
});
