import type { TDatabase } from '@ecf/db';
import { revokePartnerKeyRow, type TPartnerKeyRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** Revokes a Partner's key by id or visible prefix (idempotent); NOT_FOUND for another Partner's. */
export async function revokePartnerKey(options: {
  database: TDatabase;
  partnerId: string;
  key: string;
  now?: () => Date;
}): Promise<TPartnerKeyRow> {
  const row = await revokePartnerKeyRow(options.database, {
    partnerId: options.partnerId,
    key: isUuid(options.key) ? { id: options.key } : { prefix: options.key },
    at: (options.now ?? (() => new Date()))(),
  });
  if (row === null) throw new AppError('NOT_FOUND', 'No such partner key for this Partner.');
  return row;
}
