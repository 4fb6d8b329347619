import type { TDatabase } from '@ecf/db';
import { findPartnerBrowserOriginRows, type TBrowserOriginRow } from '../persistence/index.ts';

/** The Partner's registered origins, oldest first. */
export async function findBrowserOrigins(options: {
  database: TDatabase;
  partnerId: string;
}): Promise<TBrowserOriginRow[]> {
  return findPartnerBrowserOriginRows(options.database, options.partnerId);
}
