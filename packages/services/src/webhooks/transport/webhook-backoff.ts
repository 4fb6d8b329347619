/**
 * When a retried webhook delivery goes again (spec, "Partner delivery and retries"):
 * min(1200 s, 5 s × 2^n + jitter) after the n-th attempt failed — about 10, 20, 40, 80, 160, 320
 * and 640 s, seven waits for eight attempts, about 21 minutes in all. The jitter (up to a tenth of
 * the base) spreads endpoints that failed together.
 */
import { WEBHOOK_MAX_ATTEMPTS } from './limits.ts';
import type { TWebhookDeliveryOutcome } from './deliver-webhook.ts';

const BASE_MS = 5_000;
const CAP_MS = 1_200_000;
const JITTER_SHARE = 0.1;

/** The wait after attempt number `attempt` (1-based) failed, in milliseconds. */
export function webhookRetryDelayMs(options: {
  attempt: number;
  random?: (() => number) | undefined;
}): number {
  if (!Number.isInteger(options.attempt) || options.attempt < 1)
    throw new Error('attempt is a whole number from 1.');
  const base = BASE_MS * 2 ** options.attempt;
  const random = Math.min(Math.max((options.random ?? Math.random)(), 0), 1);
  return Math.min(CAP_MS, Math.round(base + base * JITTER_SHARE * random));
}

/**
 * When attempt number `attempt` (1-based) should be followed by another, and when: null when its
 * outcome was not `retry` or it was the last allowed (`maxAttempts`, 8 by default) — the delivery
 * is then `failed`.
 */
export function nextWebhookAttemptAt(options: {
  attempt: number;
  outcome: TWebhookDeliveryOutcome;
  now: Date;
  random?: (() => number) | undefined;
  maxAttempts?: number | undefined;
}): Date | null {
  if (options.outcome !== 'retry') return null;
  if (options.attempt >= (options.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS)) return null;
  return new Date(options.now.getTime() + webhookRetryDelayMs(options));
}
