import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeUtf8Body, firstInvalidUtf8Offset } from './json-body.ts';

test('the byte offset of the first malformed sequence', () => {
  assert.equal(firstInvalidUtf8Offset(Buffer.from('héllo')), 6);
  assert.equal(firstInvalidUtf8Offset(Buffer.from([0x61, 0xe2, 0x82, 0xac, 0xff])), 4);
  assert.equal(firstInvalidUtf8Offset(Buffer.from([0xf0, 0x9f, 0x98, 0x80, 0xe0, 0x80, 0x80])), 4);
  assert.equal(firstInvalidUtf8Offset(Buffer.from([0x61, 0xf0, 0x9f, 0x98])), 1);
});

test('decoding is strict: no U+FFFD in place of bad bytes; a BOM is dropped, a U+FFFD sent as such is kept', () => {
  assert.throws(() => decodeUtf8Body(Buffer.from([0x41, 0x42, 0xff, 0x43])), /not valid UTF-8/);
  assert.equal(decodeUtf8Body(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])), '{}');
  assert.equal(decodeUtf8Body(Buffer.from('"\uFFFD" and �', 'utf8')), '"\uFFFD" and \uFFFD');
});
