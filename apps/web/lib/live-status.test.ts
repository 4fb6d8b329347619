import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatClock,
  formatWait,
  isPendingDocumentStatus,
  nextAttemptText,
  nextRefreshDelay,
  stableJson,
  updatedAgoText,
} from './live-status.ts';

test('a pending page refreshes at its interval; an idle one backs off to 12 times it, or stops', () => {
  assert.equal(nextRefreshDelay({ pollMs: 5000, pending: true, idleForMs: 600_000 }), 5000);
  // Each refresh of an idle page waits as long as the page has been idle: 5, 10, 20, 40, 60 s.
  let idleForMs = 0;
  const waits: (number | false)[] = [];
  for (let round = 0; round < 6; round += 1) {
    const wait = nextRefreshDelay({ pollMs: 5000, pending: false, idleForMs });
    waits.push(wait);
    idleForMs += wait === false ? 0 : wait;
  }
  assert.deepEqual(waits, [5000, 5000, 10_000, 20_000, 40_000, 60_000]);
  assert.equal(nextRefreshDelay({ pollMs: 5000, pending: false, idleForMs: 0, stopWhenIdle: true }), false);
});

test('waiting times and ages read in Spanish', () => {
  assert.equal(formatWait(130_000), '2 min 10 s');
  assert.equal(formatWait(120_000), '2 min');
  assert.equal(formatWait(44_100), '45 s');
  assert.equal(formatWait(3_900_000), '1 h 5 min');
  assert.equal(formatWait(-5), '0 s');
  assert.deepEqual(
    [formatClock(575_000), formatClock(5_000), formatClock(3_910_000)],
    ['9:35', '0:05', '1:05:10'],
  );
  const now = Date.parse('2026-11-27T12:00:00Z');
  assert.equal(nextAttemptText('2026-11-27T12:02:10Z', now), 'Próximo intento en 2 min 10 s');
  assert.equal(nextAttemptText('2026-11-27T11:59:00Z', now), 'Próximo intento: en curso');
  assert.equal(updatedAgoText(now - 3_400, now), 'Actualizado hace 3 s');
  assert.equal(updatedAgoText(now - 125_000, now), 'Actualizado hace 2 min');
  assert.equal(isPendingDocumentStatus('contingency'), true);
  assert.equal(isPendingDocumentStatus('accepted'), false);
});

test('answers with the same content compare equal whatever the order of their keys', () => {
  assert.equal(
    stableJson({ counts: { sent: 1, accepted: 2 }, days: [{ b: 1, a: 2 }] }),
    stableJson({ days: [{ a: 2, b: 1 }], counts: { accepted: 2, sent: 1 } }),
  );
  assert.notEqual(stableJson({ counts: { sent: 1 } }), stableJson({ counts: { sent: 2 } }));
});
