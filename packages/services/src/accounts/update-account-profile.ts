import { z } from 'zod';
import type { TDatabase } from '@ecf/db';
import { isIssuerPhone, MAX_ISSUER_PHONES } from '@ecf/fiscal-core';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { changeAccountRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { accountSettingsOf, type TAccountSettings } from './get-account-settings.ts';

/** Lengths of the profile's fields (the tax authority's limits of the issuer's elements). */
export const ACCOUNT_PROFILE_LIMITS = {
  legalName: 150,
  tradeName: 150,
  address: 100,
  fiscalEmail: 80,
  phones: MAX_ISSUER_PHONES,
} as const;

/**
 * The issuer data documents are completed from: names, address, up to 3 phones checked by rule 14
 * of fiscal-core (the same check submissions get), the fiscal e-mail. Null clears an optional field.
 */
export const ZAccountProfileInput = z.strictObject({
  legalName: z.string().trim().min(1).max(ACCOUNT_PROFILE_LIMITS.legalName),
  tradeName: z.string().trim().min(1).max(ACCOUNT_PROFILE_LIMITS.tradeName).nullable(),
  address: z.string().trim().min(1).max(ACCOUNT_PROFILE_LIMITS.address).nullable(),
  phones: z
    .array(z.string().refine(isIssuerPhone, 'phone format NNN-NNN-NNNN'))
    .max(ACCOUNT_PROFILE_LIMITS.phones),
  fiscalEmail: z.email().max(ACCOUNT_PROFILE_LIMITS.fiscalEmail).nullable(),
});
export type TAccountProfileInput = z.infer<typeof ZAccountProfileInput>;

/**
 * An owner changes the account's profile. The change and its audit entry (`account.updated`,
 * `targetId` 'profile', the fields before and after) commit together; nothing is written when
 * nothing changed. INVALID_REQUEST (details.issues) for a profile that fails its schema.
 */
export async function updateAccountProfile(options: {
  database: TDatabase;
  tenantId: string;
  actor: TPortalActor;
  profile: TAccountProfileInput;
  now?: () => Date;
}): Promise<TAccountSettings> {
  assertCapability(options.actor, 'account.manage');
  const parsed = ZAccountProfileInput.safeParse(options.profile);
  if (!parsed.success)
    throw new AppError('INVALID_REQUEST', 'The account profile is not valid.', {
      details: {
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      },
    });
  const change = await changeAccountRow(options.database, {
    tenantId: options.tenantId,
    changes: parsed.data,
    at: (options.now ?? (() => new Date()))(),
    audit: {
      actorUserId: options.actor.userId,
      action: AUDIT_ACTIONS.ACCOUNT_UPDATED,
      targetType: 'account',
      targetId: 'profile',
      ip: options.actor.ip ?? null,
    },
  });
  if (change === null) throw new AppError('NOT_FOUND', 'Account not found.');
  return accountSettingsOf(change.account);
}
