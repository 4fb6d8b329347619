import type { Environment, ProductionState } from '@ecf/db';
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
 * `PRODUCTION_NOT_ACTIVE` otherwise (emission and the issued list). The test environments are
 * always open ({@link isEnvironmentOpen}).
 */
export function assertProductionActive(input: {
  environment: Environment;
  productionState: ProductionState;
}): void {
  if (!isEnvironmentOpen(input)) {
    throw new AppError(
      'PRODUCTION_NOT_ACTIVE',
      'eCF needs an active production authorization for this account (emission and the issued list).',
      { details: { productionState: input.productionState } },
    );
  }
}
