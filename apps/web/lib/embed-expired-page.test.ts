// The expired embed link's page (proxy.ts): Spanish, no portal links, its height posted to the
// token's origin only, and nothing of a forged origin reaches the script unescaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embedFramingOf } from '../proxy.ts';
import { expiredEmbedPage } from './embed-expired-page.ts';

test('an expired link reads the origin and expiry from the token', () => {
  const payload = Buffer.from(JSON.stringify({ t: 'x', o: 'https://erp.example.com', e: 100 })).toString(
    'base64url',
  );
  assert.deepEqual(embedFramingOf(`${payload}.sig`, 101), {
    origin: 'https://erp.example.com',
    expired: true,
  });
  assert.deepEqual(embedFramingOf(`${payload}.sig`, 99), {
    origin: 'https://erp.example.com',
    expired: false,
  });
});

test('the expired page is Spanish, has no link home and posts its height to the origin only', () => {
  const page = expiredEmbedPage({ nonce: 'abc', origin: 'https://erp.example.com' });
  assert.match(page, /<html lang="es">/);
  assert.match(page, /El enlace venció/);
  assert.doesNotMatch(page, /Ir al inicio|href=/);
  assert.match(page, /type:'ecf:embed-height'/);
  assert.match(page, /,"https:\/\/erp\.example\.com"\);/);
  assert.doesNotMatch(page, /postMessage\([^)]*'\*'/);
  assert.match(page, /<script nonce="abc">/);
  // Without a usable origin: no script at all.
  assert.doesNotMatch(expiredEmbedPage({ nonce: 'abc', origin: null }), /<script/);
});
