import type { Environment, ProductionState, TDatabase } from '@ecf/db';
import { findCertificationCase, findOpenCertificationCase } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';
import { caseViewOf, type TCertificationCaseView } from './certification-views.ts';

/**
 * `GET /{environment}/certificacion` (ours; docs/certification.md) and the portal's page: the
 * account's open case step by step, its runs, its commercial approvals and the next human action;
 * a case not started yet when there is none. `caseId` reads a given case (Partner), NOT_FOUND when
 * it is not the account's.
 */
export async function getCertificationCase(options: {
  database: TDatabase;
  tenant: { id: string; productionState: ProductionState };
  environment: Environment;
  caseId?: string;
  /** The public address of this service: the URLs a taxpayer registers at the tax authority. */
  publicBaseUrl?: string | undefined;
}): Promise<TCertificationCaseView> {
  assertCertificationEnvironment(options.environment);
  const row =
    options.caseId === undefined
      ? await findOpenCertificationCase(options.database, options.tenant.id)
      : await findCertificationCase(options.database, {
          tenantId: options.tenant.id,
          caseId: options.caseId,
        });
  if (options.caseId !== undefined && row === null)
    throw new AppError('NOT_FOUND', `No certification case ${options.caseId} in this account.`);
  return caseViewOf({
    database: options.database,
    row,
    productionState: options.tenant.productionState,
    publicBaseUrl: options.publicBaseUrl,
  });
}
