import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRiLinkToken, createRiLinkToken, RI_LINK_MAX_LENGTH } from './ri-link.ts';

const SECRET = 'unit-test-secret-0123456789abcdef-0123456789';
const DOCUMENT_ID = '3f2a1c9e-8b7d-4e6f-a5b4-c3d2e1f0a9b8';

test('link token: round trip, compact, 30 days, expiry and tampering told apart', () => {
  const issuedAt = new Date('2026-04-01T12:00:00Z');
  const { token, expiresAt } = createRiLinkToken(
    { documentId: DOCUMENT_ID.toUpperCase(), environment: 'eCF', issuedAt },
    SECRET,
  );
  assert.ok(token.length <= 100 && token.length <= RI_LINK_MAX_LENGTH, `${token.length}`);
  assert.equal(expiresAt.toISOString(), '2026-05-01T12:00:00.000Z');
  const valid = checkRiLinkToken(token, SECRET, new Date('2026-05-01T11:59:59Z'));
  assert.equal(valid.status, 'valid');
  assert.deepEqual(valid.status === 'valid' && { ...valid.payload }, {
    documentId: DOCUMENT_ID,
    environment: 'eCF',
    issuedAt,
    expiresAt,
  });
  assert.equal(checkRiLinkToken(token, SECRET, expiresAt).status, 'expired');
  assert.equal(
    checkRiLinkToken(token, 'another-secret-0123456789abcdef-0123456789', issuedAt).status,
    'invalid',
  );
  // Expired and forged is invalid, not expired: only a genuine token learns it is old.
  assert.equal(
    checkRiLinkToken(token, 'another-secret-0123456789abcdef-0123456789', new Date('2027-01-01')).status,
    'invalid',
  );
  for (let index = 0; index < token.length; index += 7) {
    if (token[index] === '.') continue;
    const tampered = `${token.slice(0, index)}${token[index] === 'A' ? 'B' : 'A'}${token.slice(index + 1)}`;
    assert.equal(checkRiLinkToken(tampered, SECRET, issuedAt).status, 'invalid', `position ${index}`);
  }
  for (const garbage of [
    '',
    '.',
    'a.b',
    `${token}.`,
    token.replace('.', ''),
    'x'.repeat(RI_LINK_MAX_LENGTH + 1),
  ]) {
    assert.equal(checkRiLinkToken(garbage, SECRET, issuedAt).status, 'invalid');
  }
});
