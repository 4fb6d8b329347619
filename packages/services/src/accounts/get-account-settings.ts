import { ENVIRONMENTS, type Environment, type TDatabase } from '@ecf/db';
import { findAccountRow, type TAccountRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isEnvironmentOpen } from './assert-production-active.ts';

/** The account page's data: the profile, the settings, and each environment's state for this account. */
export type TAccountSettings = TAccountRow & {
  environments: { environment: Environment; open: boolean; buyerEmail: boolean }[];
};

/** Adds to an account row what each environment means for it (open to emission, buyer e-mail on). */
export function accountSettingsOf(row: TAccountRow): TAccountSettings {
  return {
    ...row,
    environments: ENVIRONMENTS.map((environment) => ({
      environment,
      open: isEnvironmentOpen({ environment, productionState: row.productionState }),
      buyerEmail: row.buyerEmailEnvironments.includes(environment),
    })),
  };
}

/** The tenant's profile and settings (NOT_FOUND when the tenant does not exist). */
export async function getAccountSettings(options: {
  database: TDatabase;
  tenantId: string;
}): Promise<TAccountSettings> {
  const row = await findAccountRow(options.database, options.tenantId);
  if (row === null) throw new AppError('NOT_FOUND', 'Account not found.');
  return accountSettingsOf(row);
}
