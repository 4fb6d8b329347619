import type { Environment, TDatabase } from '@ecf/db';
import {
  findOpenCertificationCase,
  inCertificationTransaction,
  replaceCertificationPart,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { readRestartRequest } from './certification-request.ts';
import { assertCertificationEnvironment, moveCase } from './certification-guards.ts';
import { stepsOfPart } from './certification-steps.ts';

export type TRestartResult = {
  part: 'data' | 'simulation';
  caseId: string | null;
  stoppedRunId: string | null;
  stoppedApprovalSendId: string | null;
  replacedDocuments: number;
  state: string;
  step: string;
};

/**
 * `POST /{environment}/certificacion/reiniciar` `{ part }`: stops the part's running run (its
 * pending documents are never issued), marks the part's receipts replaced (kept, never deleted; out
 * of the issued list) and undoes the part's steps (`data`: the data tests and the commercial
 * approval tests, whose sends are replaced too; `simulation`: the simulation and its printed
 * representation). The application and the attestations stay. A new run of the part follows with
 * a new set (the replaced eNCFs are used up at the tax authority).
 */
export async function restartCertificationPart(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  body: unknown;
  now: Date;
}): Promise<TRestartResult> {
  const { part } = readRestartRequest(options.body);
  assertCertificationEnvironment(options.environment);
  const open = await findOpenCertificationCase(options.database, options.tenantId);
  if (open === null) {
    return {
      part,
      caseId: null,
      stoppedRunId: null,
      stoppedApprovalSendId: null,
      replacedDocuments: 0,
      state: 'not_started',
      step: 'registered',
    };
  }
  if (open.state === 'approved') {
    throw new AppError(
      'CERTIFICATION_APPROVED',
      'The certification is approved: there is nothing to restart.',
      {
        details: { caseId: open.id },
      },
    );
  }
  // The part replaced and the case reopened in one transaction (as a run's end and its case's move).
  const { replaced, moved } = await inCertificationTransaction(options.database, async (sql) => {
    const replaced = await replaceCertificationPart(options.database, {
      caseId: open.id,
      part,
      now: options.now,
      sql,
    });
    const moved = await moveCase({
      database: options.database,
      caseId: open.id,
      now: options.now,
      revoke: stepsOfPart(part),
      resume: true,
      sql,
    });
    return { replaced, moved };
  });
  return { part, caseId: open.id, ...replaced, state: moved.state, step: moved.step };
}
