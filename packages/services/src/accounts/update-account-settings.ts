import { z } from 'zod';
import { ENVIRONMENTS, type TDatabase } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { changeAccountRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { accountSettingsOf, type TAccountSettings } from './get-account-settings.ts';

/** The longest payment term `{{FECHA_LIMITE_PAGO}}` may add, in days. */
export const MAX_PAYMENT_TERM_DAYS = 365;

/**
 * The account's settings: the environments where accepted e-CF are e-mailed to the buyer, the
 * payment term in days of `{{FECHA_LIMITE_PAGO}}` (null: unset, the placeholder stays unresolved)
 * and the deferred-send authorization (rule 13: `IndicadorEnvioDiferido` 1 by default).
 */
export const ZAccountSettingsInput = z.strictObject({
  buyerEmailEnvironments: z
    .array(z.enum(ENVIRONMENTS))
    .max(ENVIRONMENTS.length)
    .refine((environments) => new Set(environments).size === environments.length, 'environments repeat'),
  paymentTermDays: z.int().min(0).max(MAX_PAYMENT_TERM_DAYS).nullable(),
  deferredSendAuthorized: z.boolean(),
});
export type TAccountSettingsInput = z.infer<typeof ZAccountSettingsInput>;

/**
 * An owner changes the account's settings. They reach emission at once: the next submission's
 * account data (`accountDataOf`) reads them. The change and its audit entry (`account.updated`,
 * `targetId` 'settings') commit together; nothing is written when nothing changed.
 */
export async function updateAccountSettings(options: {
  database: TDatabase;
  tenantId: string;
  actor: TPortalActor;
  settings: TAccountSettingsInput;
  now?: () => Date;
}): Promise<TAccountSettings> {
  assertCapability(options.actor, 'account.manage');
  const parsed = ZAccountSettingsInput.safeParse(options.settings);
  if (!parsed.success)
    throw new AppError('INVALID_REQUEST', 'The account settings are not valid.', {
      details: {
        issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      },
    });
  const { buyerEmailEnvironments, ...rest } = parsed.data;
  const change = await changeAccountRow(options.database, {
    tenantId: options.tenantId,
    // Stored in the environments' order, so the same choice always compares equal.
    changes: {
      ...rest,
      buyerEmailEnvironments: ENVIRONMENTS.filter((environment) =>
        buyerEmailEnvironments.includes(environment),
      ),
    },
    at: (options.now ?? (() => new Date()))(),
    audit: {
      actorUserId: options.actor.userId,
      action: AUDIT_ACTIONS.ACCOUNT_UPDATED,
      targetType: 'account',
      targetId: 'settings',
      ip: options.actor.ip ?? null,
    },
  });
  if (change === null) throw new AppError('NOT_FOUND', 'Account not found.');
  return accountSettingsOf(change.account);
}
