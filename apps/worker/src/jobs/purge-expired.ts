import type { TJobPayload } from '@ecf/db';
import { purgeExpiredRecords } from '@ecf/services';
import type { TJobContext } from './context.ts';

/** Deletes what has expired (purgeExpiredRecords: rate-limit windows, idempotency records, reception refusals...). */
export async function purgeExpired(payload: TJobPayload<'maintenance.purge-expired'>, context: TJobContext) {
  const before = payload.before ? new Date(payload.before) : context.now();
  const purged = await purgeExpiredRecords({ database: context.database, before });
  context.log.info(purged, 'purged expired records');
}
