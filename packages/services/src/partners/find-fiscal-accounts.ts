import type { TDatabase } from '@ecf/db';
import { findPartnerAccountPage } from '../persistence/index.ts';
import type { TAccountSearch } from '../shared/search-text.ts';
import { fiscalAccountOf, type TFiscalAccount } from './partner-rules.ts';

/**
 * A Partner's accounts in creation order, `limit` (1–100) from `offset`, with the total; `search`
 * (the portal's account search, `accountSearchOf`) keeps those whose RNC starts with it or whose
 * name holds it.
 */
export async function findFiscalAccounts(options: {
  database: TDatabase;
  partnerId: string;
  limit: number;
  offset: number;
  search?: TAccountSearch | undefined;
}): Promise<{ items: TFiscalAccount[]; total: number; limit: number; offset: number }> {
  const page = await findPartnerAccountPage(options.database, options);
  return {
    items: page.rows.map(fiscalAccountOf),
    total: page.total,
    limit: options.limit,
    offset: options.offset,
  };
}
