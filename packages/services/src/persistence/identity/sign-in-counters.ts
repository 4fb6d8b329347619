/**
 * The portal's sign-in limits kept in `rate_limit_counters` (shared by every portal instance and
 * purged with the API's windows once `expires_at` passes):
 * - per client address: attempts in a fixed window (`portal-sign-in-ip:<ip>`);
 * - per e-mail WITHOUT an account: the failure count an account keeps in `users`
 *   (`portal-sign-in-email:<sha256 of the e-mail>`, never the address itself), so that locking
 *   behaves alike whether or not the e-mail exists.
 */
import { sqlPoolOf, type TDatabase } from '@ecf/db';

/** Counts one attempt in its window; returns the attempt's position in it. */
export async function countSignInAttempt(
  database: TDatabase,
  input: { bucket: string; windowStart: Date; expiresAt: Date },
): Promise<number> {
  const { rows } = await sqlPoolOf(database).query<{ count: number }>(
    `INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
     RETURNING count`,
    [input.bucket, input.windowStart, input.expiresAt],
  );
  return rows[0]?.count ?? 1;
}

/** The failure count of an e-mail without an account and when it last failed; zero and null when none. */
export async function findPhantomSignInFailures(
  database: TDatabase,
  input: { bucket: string; keepSeconds: number },
): Promise<{ failedSignInCount: number; lastFailureAt: Date | null }> {
  const { rows } = await sqlPoolOf(database).query<{ count: number; last_failure_at: Date }>(
    `SELECT count, expires_at - make_interval(secs => $2::int) AS last_failure_at
       FROM rate_limit_counters WHERE bucket = $1 AND window_start = 'epoch'`,
    [input.bucket, input.keepSeconds],
  );
  const row = rows[0];
  return row === undefined
    ? { failedSignInCount: 0, lastFailureAt: null }
    : { failedSignInCount: row.count, lastFailureAt: row.last_failure_at };
}

/**
 * Counts a failed sign-in of an e-mail without an account (one row per e-mail: `window_start` is
 * the epoch, `expires_at` the last failure plus `keepSeconds`); one statement, so concurrent
 * failures each count. The lock is derived from the count by the same policy as an account's.
 */
export async function recordPhantomSignInFailure(
  database: TDatabase,
  input: { bucket: string; at: Date; keepSeconds: number },
): Promise<{ failedSignInCount: number; lastFailureAt: Date }> {
  const { rows } = await sqlPoolOf(database).query<{ count: number }>(
    `INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
     VALUES ($1, 'epoch', 1, $2::timestamptz + make_interval(secs => $3::int))
     ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1,
       expires_at = excluded.expires_at
     RETURNING count`,
    [input.bucket, input.at, input.keepSeconds],
  );
  return { failedSignInCount: rows[0]?.count ?? 1, lastFailureAt: input.at };
}
