/**
 * Retrying a statement (or a transaction) that PostgreSQL aborted to resolve a conflict between
 * concurrent sessions: a deadlock (`40P01`) or a serialization failure (`40001`). The aborted work
 * left nothing behind (PostgreSQL rolled it back), so running it again is safe when the work is
 * one statement or one transaction that does nothing outside the database. Statements that lock
 * several rows should still take them in a deterministic order; this is the safety net for the
 * conflicts an order cannot rule out.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** SQLSTATEs after which the whole statement or transaction was rolled back and may run again. */
const RETRYABLE_SQLSTATES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** Whether `error` is a deadlock or a serialization failure reported by PostgreSQL. */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

export type TRetryOnConflictOptions = {
  /** Runs at most this many times in all (default 4). */
  attempts?: number;
  /** The wait before the second run; doubled before each next one, with full jitter (default 10 ms). */
  baseDelayMs?: number;
};

/**
 * Runs `work`, and runs it again after a short random wait when PostgreSQL aborted it with
 * `40P01` or `40001`, at most `attempts` times in all; any other error, or the last conflict, is
 * thrown as it came. `work` must be safe to repeat: one statement or one transaction, with no
 * effect outside the database.
 */
export async function retryOnConflict<T>(
  work: (attempt: number) => Promise<T>,
  options: TRetryOnConflictOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  const baseDelayMs = options.baseDelayMs ?? 10;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt);
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
      // Full jitter: the sessions that collided do not collide again in step.
      await sleep(Math.random() * baseDelayMs * 2 ** (attempt - 1));
    }
  }
}
