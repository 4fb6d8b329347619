import type { TDatabase } from '@ecf/db';
import { insertPartnerBrowserOrigin, type TBrowserOriginRow } from '../persistence/index.ts';
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
