import type { TDatabase } from '@ecf/db';
import { deleteExpiredRecords } from '../persistence/index.ts';

/** Deletes rate-limit windows and idempotency records whose time is over (before `before`). */
export async function purgeExpiredRecords(options: {
  database: TDatabase;
  before: Date;
}): Promise<{ counters: number; idempotencyRecords: number }> {
  return deleteExpiredRecords(options.database, options.before);
}
