/** Rows whose time is over: rate-limit windows, idempotency records, portal sessions and password resets. */
import type { TDatabase } from '@ecf/db';

/**
 * Deletes rate-limit windows, idempotency records, portal sessions and password resets that
 * expired before `before` (an expired session or reset link is refused anyway; the audit log keeps
 * what happened).
 */
export async function deleteExpiredRecords(
  database: TDatabase,
  before: Date,
): Promise<{ counters: number; idempotencyRecords: number; portalSessions: number; passwordResets: number }> {
  const counters = await database.rateLimitCounter.deleteMany({ where: { expiresAt: { lt: before } } });
  const idempotency = await database.idempotencyRecord.deleteMany({ where: { expiresAt: { lt: before } } });
  const sessions = await database.portalSession.deleteMany({ where: { expiresAt: { lt: before } } });
  const resets = await database.passwordReset.deleteMany({ where: { expiresAt: { lt: before } } });
  return {
    counters: counters.count,
    idempotencyRecords: idempotency.count,
    portalSessions: sessions.count,
    passwordResets: resets.count,
  };
}
