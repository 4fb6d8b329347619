import type { TDatabase } from '@ecf/db';
import { findPartnerAccountRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { fiscalAccountOf, type TFiscalAccount } from './partner-rules.ts';

/** A Partner's account by id; 404 `FISCAL_ACCOUNT_NOT_FOUND` for another Partner's or none (never a leak). */
export async function getFiscalAccount(options: {
  database: TDatabase;
  partnerId: string;
  accountId: string;
}): Promise<TFiscalAccount> {
  const row = isUuid(options.accountId) ? await findPartnerAccountRow(options.database, options) : null;
  if (row === null)
    throw new AppError('FISCAL_ACCOUNT_NOT_FOUND', 'No fiscal account with this id for this Partner.');
  return fiscalAccountOf(row);
}
