/** Rows whose time is over: rate-limit windows and idempotency records. */
import type { TDatabase } from '@ecf/db';

/** Deletes rate-limit windows and idempotency records that expired before `before`. */
export async function deleteExpiredRecords(
  database: TDatabase,
  before: Date,
): Promise<{ counters: number; idempotencyRecords: number }> {
  const counters = await database.rateLimitCounter.deleteMany({ where: { expiresAt: { lt: before } } });
  const idempotency = await database.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: before } } });
  return { counters: counters.count, idempotencyRecords: idempotency.count };
}
