import type { TDatabase } from '@ecf/db';
import { findPartnerKeyRows, type TPartnerKeyRow } from '../persistence/index.ts';

/** A Partner's keys, newest first (nothing secret). */
export async function findPartnerKeys(options: {
  database: TDatabase;
  partnerId: string;
}): Promise<TPartnerKeyRow[]> {
  return findPartnerKeyRows(options.database, options.partnerId);
}
