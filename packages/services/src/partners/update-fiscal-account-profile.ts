import type { TDatabase } from '@ecf/db';
import { updatePartnerAccountRow, type TPartnerAccountChanges } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { buyerEmailEnvironmentsOf, type TFiscalAccountInput } from './link-fiscal-account.ts';
import { fiscalAccountOf, type TFiscalAccount } from './partner-rules.ts';

/** What `PATCH .../profile` may carry: the profile fields, and `rnc` only when it is the account's own. */
export type TFiscalAccountProfilePatch = Partial<TFiscalAccountInput>;

/**
 * `PATCH /fiscal-accounts/{id}/profile`: at least one field (else 400 `INVALID_PARTNER_PAYLOAD`);
 * an `rnc` other than the account's is 409 `RNC_CHANGE_REQUIRES_RECERTIFICATION` (a new RNC is a
 * new taxpayer: a new account and its own certification); `printedRepresentationEmail` turns the
 * buyer e-mail on or off per environment (`production`: eCF, `testecf`: TesteCF).
 */
export async function updateFiscalAccountProfile(options: {
  database: TDatabase;
  partnerId: string;
  account: TFiscalAccount;
  patch: TFiscalAccountProfilePatch;
  now?: () => Date;
}): Promise<TFiscalAccount> {
  const { patch, account } = options;
  if (Object.keys(patch).length === 0)
    throw new AppError('INVALID_PARTNER_PAYLOAD', 'Send at least one profile field to change.', {
      details: { path: '', issues: [{ path: '', code: 'patch_empty', message: 'no field to change' }] },
    });
  if (patch.rnc !== undefined && patch.rnc !== account.rnc)
    throw new AppError(
      'RNC_CHANGE_REQUIRES_RECERTIFICATION',
      'The RNC of an account cannot change: a new RNC is a new taxpayer (a new account, certified on its own).',
      { details: { rnc: account.rnc } },
    );
  const changes: TPartnerAccountChanges = {
    ...(patch.legalName === undefined ? {} : { legalName: patch.legalName }),
    ...(patch.tradeName === undefined ? {} : { tradeName: patch.tradeName }),
    ...(patch.fiscalEmail === undefined ? {} : { fiscalEmail: patch.fiscalEmail }),
    ...(patch.phone === undefined ? {} : { phones: [patch.phone, ...account.tenant.phones.slice(1)] }),
    ...(patch.address === undefined ? {} : { address: patch.address }),
    ...(patch.provinceCode === undefined ? {} : { provinceCode: patch.provinceCode }),
    ...(patch.municipalityCode === undefined ? {} : { municipalityCode: patch.municipalityCode }),
    ...(patch.printedRepresentationEmail === undefined
      ? {}
      : {
          buyerEmailEnvironments: buyerEmailEnvironmentsOf(patch.printedRepresentationEmail, [
            ...(account.profile.printedRepresentationEmail.production ? (['eCF'] as const) : []),
            ...(account.profile.printedRepresentationEmail.testecf ? (['TesteCF'] as const) : []),
          ]),
        }),
  };
  const row = await updatePartnerAccountRow(options.database, {
    partnerId: options.partnerId,
    accountId: account.id,
    changes,
    at: (options.now ?? (() => new Date()))(),
  });
  if (row === null)
    throw new AppError('FISCAL_ACCOUNT_NOT_FOUND', 'No fiscal account with this id for this Partner.');
  return fiscalAccountOf(row);
}
