import type { TDatabase } from '@ecf/db';
import { insertPartnerKey, type TPartnerKeyRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { PARTNER_KEY_PROFILES } from './partner-permissions.ts';
import type { TPartnerKeyProfile } from '@ecf/contract';
import { generatePartnerKey } from './partner-rules.ts';
import { getPartner } from './get-partner.ts';

/** The longest key name. */
export const PARTNER_KEY_NAME_MAX_LENGTH = 200;

/**
 * Creates a partner key with a permission profile (default `full`). The key is returned ONCE;
 * only its SHA-256 and visible prefix are stored. Admin CLI and the Partner portal.
 */
export async function createPartnerKey(options: {
  database: TDatabase;
  partnerId: string;
  name: string;
  profile?: TPartnerKeyProfile;
  now?: () => Date;
}): Promise<{ key: string; row: TPartnerKeyRow }> {
  const profile = options.profile ?? 'full';
  if (!PARTNER_KEY_PROFILES.includes(profile))
    throw new AppError(
      'INVALID_REQUEST',
      `Unknown profile ${String(profile)}: ${PARTNER_KEY_PROFILES.join(', ')}.`,
    );
  const name = options.name.trim();
  if (name === '' || name.length > PARTNER_KEY_NAME_MAX_LENGTH)
    throw new AppError('INVALID_REQUEST', `A key name has 1 to ${PARTNER_KEY_NAME_MAX_LENGTH} characters.`, {
      details: { issues: [{ path: 'name', code: 'name_invalid', message: 'name length' }] },
    });
  await getPartner({ database: options.database, partnerId: options.partnerId });
  const { key, prefix, hash } = generatePartnerKey();
  const row = await insertPartnerKey(options.database, {
    partnerId: options.partnerId,
    name,
    profile,
    prefix,
    hash,
    at: (options.now ?? (() => new Date()))(),
  });
  return { key, row };
}
