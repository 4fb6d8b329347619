import type { Environment, ProductionState, TDatabase } from '@ecf/db';
import { findTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/**
 * Whether an environment is open to an account: production (`eCF`) only once its production
 * authorization is active; the test environments (TesteCF, CerteCF) always.
 */
export function isEnvironmentOpen(input: {
  environment: Environment;
  productionState: ProductionState;
}): boolean {
  return input.environment !== 'eCF' || input.productionState === 'active';
}

/**
 * Production (`eCF`) is open to an account only once its production authorization is active: 423
 * `PRODUCTION_NOT_ACTIVE` otherwise (emission, the issued and received lists, sending an ANECF,
 * registering a range). The test environments are always open ({@link isEnvironmentOpen}).
 */
export function assertProductionActive(input: {
  environment: Environment;
  productionState: ProductionState;
}): void {
  if (!isEnvironmentOpen(input)) {
    throw new AppError(
      'PRODUCTION_NOT_ACTIVE',
      'eCF needs an active production authorization for this account (emission, lists, annulments and ranges).',
      { details: { productionState: input.productionState } },
    );
  }
}

/**
 * {@link assertProductionActive} for a use-case that knows only the account's id: in `eCF` the
 * production state is read from the account now (one look-up; none in the test environments).
 */
export async function assertAccountProductionActive(input: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
}): Promise<void> {
  if (input.environment !== 'eCF') return;
  const tenant = await findTenant(input.database, { id: input.tenantId });
  if (tenant === null) throw new AppError('NOT_FOUND', `Tenant ${input.tenantId} not found.`);
  assertProductionActive({ environment: input.environment, productionState: tenant.productionState });
}
