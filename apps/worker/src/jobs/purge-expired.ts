import type { TJobPayload } from '@ecf/db';
import type { TJobContext } from './registry.ts';

/** Deletes rate-limit windows and idempotency records whose time is over. */
export async function purgeExpired(payload: TJobPayload<'maintenance.purge-expired'>, context: TJobContext) {
  const before = payload.before ? new Date(payload.before) : context.now();
  const counters = await context.database.rateLimitCounter.deleteMany({
    where: { expiresAt: { lt: before } },
  });
  const idempotency = await context.database.idempotencyRecord.deleteMany({
    where: { expiresAt: { lt: before } },
  });
  context.log.info(
    { counters: counters.count, idempotencyRecords: idempotency.count },
    'purged expired records',
  );
}
