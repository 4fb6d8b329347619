// The retry schedule min(1200 s, 5 s × 2^n + jitter) under an injected random source and clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextWebhookAttemptAt, webhookRetryDelayMs, WEBHOOK_MAX_ATTEMPTS } from './index.ts';

describe('webhook backoff', () => {
  test('without jitter: 10, 20, 40, 80, 160, 320, 640 s after attempts 1 to 7', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => webhookRetryDelayMs({ attempt, random: () => 0 }));
    assert.deepEqual(delays, [10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 640_000]);
    // About 21 minutes from the first attempt to the eighth.
    assert.equal(
      delays.reduce((sum, delay) => sum + delay, 0),
      1_270_000,
    );
  });

  test('jitter adds up to a tenth of the base, and 1200 s caps it (a replay past 8 attempts)', () => {
    assert.equal(webhookRetryDelayMs({ attempt: 1, random: () => 0.5 }), 10_500);
    assert.equal(webhookRetryDelayMs({ attempt: 7, random: () => 0.999 }), 703_936);
    assert.equal(webhookRetryDelayMs({ attempt: 8, random: () => 0 }), 1_200_000);
    assert.equal(webhookRetryDelayMs({ attempt: 12, random: () => 1 }), 1_200_000);
    // A random source out of [0, 1) is clamped, never a negative or runaway wait.
    assert.equal(webhookRetryDelayMs({ attempt: 1, random: () => -3 }), 10_000);
    assert.equal(webhookRetryDelayMs({ attempt: 1, random: () => 7 }), 11_000);
    assert.throws(() => webhookRetryDelayMs({ attempt: 0 }));
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      const delay = webhookRetryDelayMs({ attempt });
      assert.ok(delay >= 5_000 * 2 ** attempt && delay <= 5_500 * 2 ** attempt, `${attempt}: ${delay}`);
    }
  });

  test('the schedule of one delivery under an injected clock: 8 attempts, then failed', () => {
    let now = new Date('2026-11-25T12:00:00.000Z');
    const attemptsAt = [now.toISOString()];
    let random = 0;
    for (let attempt = 1; ; attempt += 1) {
      const next = nextWebhookAttemptAt({ attempt, outcome: 'retry', now, random: () => (random += 0.1) });
      if (next === null) {
        assert.equal(attempt, WEBHOOK_MAX_ATTEMPTS);
        break;
      }
      now = next;
      attemptsAt.push(now.toISOString());
    }
    assert.deepEqual(attemptsAt, [
      '2026-11-25T12:00:00.000Z',
      '2026-11-25T12:00:10.100Z', // 10 s + 1 % jitter
      '2026-11-25T12:00:30.500Z', // + 20 s + 2 %
      '2026-11-25T12:01:11.700Z', // + 40 s + 3 %
      '2026-11-25T12:02:34.900Z', // + 80 s + 4 %
      '2026-11-25T12:05:22.900Z', // + 160 s + 5 %
      '2026-11-25T12:11:02.100Z', // + 320 s + 6 %
      '2026-11-25T12:22:26.900Z', // + 640 s + 7 %
    ]);
  });

  test('no next attempt after a success or a failure, or past maxAttempts', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    assert.equal(nextWebhookAttemptAt({ attempt: 1, outcome: 'succeeded', now }), null);
    assert.equal(nextWebhookAttemptAt({ attempt: 1, outcome: 'failed', now }), null);
    assert.equal(nextWebhookAttemptAt({ attempt: 8, outcome: 'retry', now }), null);
    assert.equal(nextWebhookAttemptAt({ attempt: 9, outcome: 'retry', now, maxAttempts: 9 }), null);
    assert.deepEqual(
      nextWebhookAttemptAt({ attempt: 8, outcome: 'retry', now, maxAttempts: 10, random: () => 0 }),
      new Date('2026-11-25T12:20:00Z'),
    );
  });
});
