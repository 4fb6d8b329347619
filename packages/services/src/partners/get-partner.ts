import type { TDatabase } from '@ecf/db';
import { findPartnerRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { partnerOf, type TPartner } from './partner-rules.ts';

/** A Partner by id, or NOT_FOUND. */
export async function getPartner(options: { database: TDatabase; partnerId: string }): Promise<TPartner> {
  const row = isUuid(options.partnerId) ? await findPartnerRow(options.database, options.partnerId) : null;
  if (row === null) throw new AppError('NOT_FOUND', `No Partner ${options.partnerId}.`);
  return partnerOf(row);
}
