import type { CertificationStep, Environment, TDatabase, TEnqueue } from '@ecf/db';
import { isTaxauthError, type TTaxauthClient } from '@ecf/taxauth-client';
import { resolveDocumentCertificate, type TCertificateSource } from '../accounts/index.ts';
import {
  changeProductionState,
  findCasesToSync,
  findReceptionsInCerteCF,
  findStalledChains,
  findStepCompletions,
  inCertificationTransaction,
  resumeChain,
  type TCaseToSync,
} from '../persistence/index.ts';
import { CERTIFICATION_STEPS, stepIndexOf } from './certification-steps.ts';
import { moveCase } from './certification-guards.ts';

/** A chain whose last step is older than this lost its jobs (the lease is 60–120 s). */
export const STALLED_CHAIN_SECONDS = 120;

export type TSyncReport = {
  resumedChains: number;
  cases: number;
  completed: Array<{ caseId: string; steps: CertificationStep[] }>;
  activated: string[];
};

/**
 * The `certification.sync` job: what the service observes completes steps.
 * - An e-CF received in CerteCF (only the tax authority sends there) completes the reception test
 *   steps before it (test URLs, "ready", reception e-CF); an ACECF received there completes the
 *   commercial approval reception steps.
 * - The tax authority's eCF directory listing the account's RNC (it stores the production URLs when
 *   it authorizes the taxpayer) completes every remaining step: the case is approved and production
 *   `active` (`production.state_changed`). Asked for cases past the reception tests or with
 *   production pending, with the account's own certificate and token.
 * - Run and approvals chains whose jobs were lost are resumed.
 */
export async function syncCertificationCases(
  options: TCertificateSource & {
    database: TDatabase;
    tenantId?: string | undefined;
    enqueue: TEnqueue;
    clientFor?: ((environment: Environment) => TTaxauthClient) | undefined;
    now: () => Date;
    log?: (message: string, details: Record<string, unknown>) => void;
  },
): Promise<TSyncReport> {
  const { database } = options;
  const report: TSyncReport = { resumedChains: 0, cases: 0, completed: [], activated: [] };
  for (const chain of await findStalledChains(database, {
    staleSeconds: STALLED_CHAIN_SECONDS,
    now: options.now(),
  })) {
    await resumeChain(database, { ...chain, now: options.now(), enqueue: options.enqueue });
    report.resumedChains += 1;
  }
  const cases = await findCasesToSync(database, { tenantId: options.tenantId });
  for (const row of cases) {
    report.cases += 1;
    const completed = new Set(
      (await findStepCompletions(database, row.caseId)).map((completion) => completion.step),
    );
    const complete: Array<{ step: CertificationStep; source: string; reference: string | null }> = [];
    const receptions = await findReceptionsInCerteCF(database, {
      tenantId: row.tenantId,
      since: row.createdAt,
    });
    const completeUpTo = (
      last: CertificationStep,
      from: CertificationStep,
      source: string,
      reference: string | null,
    ) => {
      for (const step of CERTIFICATION_STEPS.slice(stepIndexOf(from), stepIndexOf(last) + 1))
        if (!completed.has(step) && !complete.some((entry) => entry.step === step))
          complete.push({ step, source, reference });
    };
    if (receptions.ecf !== null)
      completeUpTo('reception_ecf', 'test_service_urls', 'reception', receptions.ecf);
    if (receptions.commercialApproval !== null)
      completeUpTo(
        'reception_commercial_approval',
        'reception_test_commercial_approval',
        'reception',
        receptions.commercialApproval,
      );
    const authorized = await isAuthorized(options, row, completed, complete);
    if (authorized) completeUpTo('finished', 'registered', 'directory', null);
    if (complete.length === 0 && !authorized) continue;
    // The case approved and production active in one transaction: never one without the other.
    const activated = await inCertificationTransaction(database, async (sql) => {
      if (complete.length > 0)
        await moveCase({ database, caseId: row.caseId, now: options.now(), complete, sql });
      return (
        authorized &&
        (await changeProductionState(database, {
          tenantId: row.tenantId,
          from: ['not_requested', 'pending'],
          to: 'active',
          sql,
        }))
      );
    });
    if (activated) report.activated.push(row.tenantId);
    if (complete.length > 0)
      report.completed.push({ caseId: row.caseId, steps: complete.map((entry) => entry.step) });
  }
  return report;
}

/** Whether the tax authority's eCF directory lists the account (asked only once it could be authorized). */
async function isAuthorized(
  options: TCertificateSource & {
    database: TDatabase;
    clientFor?: ((environment: Environment) => TTaxauthClient) | undefined;
    log?: (message: string, details: Record<string, unknown>) => void;
  },
  row: TCaseToSync,
  completed: ReadonlySet<CertificationStep>,
  completing: ReadonlyArray<{ step: CertificationStep }>,
): Promise<boolean> {
  if (options.clientFor === undefined) return false;
  const receptionsDone =
    completed.has('reception_commercial_approval') ||
    completing.some((entry) => entry.step === 'reception_commercial_approval');
  if (row.productionState !== 'pending' && !receptionsDone) return false;
  const resolved = await resolveDocumentCertificate({
    ...options,
    tenantId: row.tenantId,
    step: 'certificationSync',
  });
  if (!resolved.ok) return false;
  try {
    await options
      .clientFor('eCF')
      .forTaxpayer({ cacheKey: row.tenantId, certificate: resolved.certificate })
      .getReceiver({ rnc: row.rnc });
    return true;
  } catch (error) {
    if (!isTaxauthError(error)) throw error;
    if (error.reason !== 'not_found')
      options.log?.('certification sync: directory not reachable', {
        tenantId: row.tenantId,
        reason: error.reason,
      });
    return false;
  }
}
