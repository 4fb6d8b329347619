// The input support's views write to the audit log (found by the contract fuzzer: a long input of
// astral characters was cut inside a surrogate pair, and PostgreSQL refused the entry with a 500).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auditableInput } from './procedures.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

test('a long input is cut between characters, never inside a surrogate pair', () => {
  for (const offset of [0, 1]) {
    const input = { to: `${'a'.repeat(offset)}${'\u{1F600}'.repeat(1200)}` };
    const audited = auditableInput(input) as { truncated: string };
    assert.ok(audited.truncated.length >= 1999 && audited.truncated.length <= 2000);
    assert.equal(LONE_SURROGATE.test(audited.truncated), false, `offset ${offset}`);
  }
});

test('secrets are redacted and a short input is kept as it is', () => {
  assert.deepEqual(auditableInput({ q: 'E31', password: 'x', apiKey: 'y' }), {
    q: 'E31',
    password: '[REDACTED]',
    apiKey: '[REDACTED]',
  });
  assert.equal(auditableInput(undefined), undefined);
});
