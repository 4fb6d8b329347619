import type { ProductionState, TDatabase } from '@ecf/db';
import { CERTIFICATION_STEP_INFO, CERTIFICATION_STEPS } from '../certification/certification-steps.ts';
import { findFirstStepsRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** Where a first step stands: `in_progress` when it was started and is not finished yet. */
export type TFirstStepState = 'done' | 'in_progress' | 'pending';

/**
 * The path of a new account from nothing to production (the portal overview's checklist, issue 27),
 * one entry per step in the order they are usually done. Who may see which entry is the caller's
 * decision (the portal asks each one's capability).
 */
export type TFirstSteps = {
  /** A signing certificate installed, active and not expired. */
  certificate: { state: TFirstStepState };
  /** A TesteCF API key that is not revoked. */
  apiKey: { state: TFirstStepState };
  /** A TesteCF e-CF accepted by the tax authority (in progress: sent, none accepted yet). */
  testDocument: { state: TFirstStepState };
  /** A webhook endpoint with a successful delivery (in progress: an endpoint, no success yet). */
  webhook: { state: TFirstStepState };
  /**
   * Certification in CerteCF: the step the account is at (1 to 15, the first not completed; 15 once
   * approved). Done once approved, or when production is already active (certified elsewhere).
   */
  certification: { state: TFirstStepState; step: number; stepTitle: string; steps: number };
  /** Production (eCF): done when active, in progress while requested. */
  production: { state: TFirstStepState; productionState: ProductionState };
};

const doneOr = (done: boolean, started = false): TFirstStepState =>
  done ? 'done' : started ? 'in_progress' : 'pending';

/** The account's first steps at `now` (NOT_FOUND when the tenant does not exist). One statement. */
export async function getFirstSteps(options: {
  database: TDatabase;
  tenantId: string;
  now?: Date;
}): Promise<TFirstSteps> {
  const row = await findFirstStepsRow(options.database, {
    tenantId: options.tenantId,
    now: options.now ?? new Date(),
  });
  if (row === null) throw new AppError('NOT_FOUND', 'Account not found.');
  const productionActive = row.productionState === 'active';
  const certification = row.certification?.state === 'closed' ? null : row.certification;
  const approved = certification?.state === 'approved' || productionActive;
  const index = approved
    ? CERTIFICATION_STEPS.length - 1
    : CERTIFICATION_STEPS.indexOf(certification?.step ?? 'registered');
  const step = CERTIFICATION_STEPS[Math.max(index, 0)] ?? 'registered';
  return {
    certificate: { state: doneOr(row.certificateInstalled) },
    apiKey: { state: doneOr(row.testKeyActive) },
    testDocument: { state: doneOr(row.testDocumentAccepted, row.testDocumentSubmitted) },
    webhook: { state: doneOr(row.webhookDelivered, row.webhookEndpointExists) },
    certification: {
      state: doneOr(approved, certification !== null),
      step: Math.max(index, 0) + 1,
      stepTitle: CERTIFICATION_STEP_INFO[step].title,
      steps: CERTIFICATION_STEPS.length,
    },
    production: {
      state: doneOr(productionActive, row.productionState === 'pending'),
      productionState: row.productionState,
    },
  };
}
