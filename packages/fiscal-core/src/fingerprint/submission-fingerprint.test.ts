import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson, computeSubmissionFingerprint } from './submission-fingerprint.ts';
import { parseJsonLosslessly } from '../json/lossless-json.ts';

function fingerprint(text: string): string {
  const result = computeSubmissionFingerprint(text);
  assert.ok(result.success);
  return result.fingerprint;
}

describe('computeSubmissionFingerprint', () => {
  test('is version-tagged SHA-256', () => {
    assert.match(fingerprint('{"a":1}'), /^v1:[0-9a-f]{64}$/);
  });

  test('ignores whitespace and member order', () => {
    const a = fingerprint(
      '{"type":"E31","lines":[{"quantity":1,"unitPrice":"10.00"}],"encf":"E310000000001"}',
    );
    const b = fingerprint(
      '{\n  "encf": "E310000000001",\n  "lines": [ { "unitPrice": "10.00", "quantity": 1 } ],\n  "type": "E31"\n}',
    );
    assert.equal(a, b);
  });

  test('changes with any value, number text or array order', () => {
    const base = fingerprint('{"a":[1,2],"b":"x","c":1.10}');
    assert.notEqual(base, fingerprint('{"a":[2,1],"b":"x","c":1.10}'));
    assert.notEqual(base, fingerprint('{"a":[1,2],"b":"y","c":1.10}'));
    assert.notEqual(base, fingerprint('{"a":[1,2],"b":"x","c":1.1}'));
    assert.notEqual(base, fingerprint('{"a":[1,2],"b":"x","c":"1.10"}'));
  });

  test('is computed before placeholders are filled (the raw text)', () => {
    assert.notEqual(fingerprint('{"rnc":"{{RNC}}"}'), fingerprint('{"rnc":"131880738"}'));
  });

  test('canonical form: sorted keys, no whitespace, numbers as written', () => {
    const parsed = parseJsonLosslessly('{ "b": 1.50, "a": { "z": null, "y": [true, "\\u00e9"] } }');
    assert.ok(parsed.success);
    assert.equal(canonicalJson(parsed.value), '{"a":{"y":[true,"é"],"z":null},"b":1.50}');
  });

  test('reports malformed JSON instead of a fingerprint', () => {
    const result = computeSubmissionFingerprint('{"a":');
    assert.ok(!result.success);
    assert.equal(result.error.code, 'JSON_MALFORMED');
  });
});
