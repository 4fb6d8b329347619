import type { Environment, TDatabase } from '@ecf/db';
import { findCertificationItems, findCertificationRun } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { assertCertificationEnvironment } from './certification-guards.ts';
import { runViewOf, type TCertificationRunView } from './certification-views.ts';

/** `GET /{environment}/certificacion/{runId}`: the run item by item; NOT_FOUND for another account's. */
export async function getCertificationRun(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  runId: string;
}): Promise<TCertificationRunView> {
  assertCertificationEnvironment(options.environment);
  const run = await findCertificationRun(options.database, {
    runId: options.runId,
    tenantId: options.tenantId,
  });
  if (run === null) throw new AppError('NOT_FOUND', `No certification run ${options.runId} in this account.`);
  return runViewOf(run, await findCertificationItems(options.database, run.id));
}
