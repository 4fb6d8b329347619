import type { TDatabase } from '@ecf/db';
import {
  deletePartnerBrowserOrigin,
  findPartnerBrowserOriginRows,
  insertPartnerBrowserOrigin,
  type TBrowserOriginRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { exactBrowserOrigin } from './partner-rules.ts';
import { getPartner } from './get-partner.ts';

/** Registers an exact HTTPS origin for the Partner's certificate uploads (400 `INVALID_BROWSER_ORIGIN`). */
export async function addBrowserOrigin(options: {
  database: TDatabase;
  partnerId: string;
  origin: string;
  now?: () => Date;
}): Promise<TBrowserOriginRow> {
  const origin = exactBrowserOrigin(options.origin);
  await getPartner({ database: options.database, partnerId: options.partnerId });
  return insertPartnerBrowserOrigin(options.database, {
    partnerId: options.partnerId,
    origin,
    at: (options.now ?? (() => new Date()))(),
  });
}

/** Removes a registered origin; NOT_FOUND when it was not registered. */
export async function removeBrowserOrigin(options: {
  database: TDatabase;
  partnerId: string;
  origin: string;
}): Promise<void> {
  const removed = await deletePartnerBrowserOrigin(options.database, {
    partnerId: options.partnerId,
    origin: options.origin,
  });
  if (!removed) throw new AppError('NOT_FOUND', `The origin ${options.origin} is not registered.`);
}

/** The Partner's registered origins. */
export async function findBrowserOrigins(options: {
  database: TDatabase;
  partnerId: string;
}): Promise<TBrowserOriginRow[]> {
  return findPartnerBrowserOriginRows(options.database, options.partnerId);
}
