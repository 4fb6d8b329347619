import type { TDatabase } from '@ecf/db';
import { findUserByEmail, insertPartnerUser, type TPartnerUserRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { normalizeEmail } from '../identity/index.ts';
import { getPartner } from './get-partner.ts';

/**
 * Makes an existing portal user (by e-mail) work for a Partner with a Partner role (admin CLI):
 * `partner_admin` (keys, origins, webhooks, accounts, billing) or `partner_developer` (the same
 * but keys of the `full` profile and billing). A user works for one Partner.
 */
export async function addPartnerUser(options: {
  database: TDatabase;
  partnerId: string;
  email: string;
  role: 'partner_admin' | 'partner_developer';
  now?: () => Date;
}): Promise<{ created: boolean; row: TPartnerUserRow }> {
  await getPartner({ database: options.database, partnerId: options.partnerId });
  const user = await findUserByEmail(options.database, normalizeEmail(options.email));
  if (user === null) throw new AppError('NOT_FOUND', `No portal user has the address ${options.email}.`);
  const result = await insertPartnerUser(options.database, {
    userId: user.id,
    partnerId: options.partnerId,
    role: options.role,
    at: (options.now ?? (() => new Date()))(),
  });
  if (result.row.partnerId !== options.partnerId)
    throw new AppError('INVALID_REQUEST', `${options.email} already works for another Partner.`, {
      details: { reason: 'user_of_other_partner' },
    });
  return result;
}
