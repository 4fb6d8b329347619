import type { CertificationStep, TDatabase, TEnqueue } from '@ecf/db';
import { z } from 'zod';
import {
  changeProductionState,
  ensureOpenCertificationCase,
  findOpenCertificationCase,
  findStepCompletions,
  insertCertificationAttestation,
  type TAttestationRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { ATTESTABLE_STEPS, missingStepsBefore } from './certification-steps.ts';
import { moveCase } from './certification-guards.ts';
import { ATTESTATION_NOTES_MAX_LENGTH } from '@ecf/contract';

/** Longest texts of an attestation (interface spec, Partner text limits). */
export const ATTESTATION_LIMITS = {
  actorRef: 200,
  notes: ATTESTATION_NOTES_MAX_LENGTH,
  evidenceRefs: 50,
  evidenceRef: 500,
} as const;

/** An attestation as people and Partners record it. */
export const ZAttestationInput = z.strictObject({
  step: z.enum(ATTESTABLE_STEPS as [CertificationStep, ...CertificationStep[]]),
  occurredAt: z.iso.datetime({ offset: true }).optional(),
  actorRef: z.string().min(1).max(ATTESTATION_LIMITS.actorRef).optional(),
  notes: z.string().max(ATTESTATION_LIMITS.notes).optional(),
  evidenceRefs: z
    .array(z.string().min(1).max(ATTESTATION_LIMITS.evidenceRef))
    .max(ATTESTATION_LIMITS.evidenceRefs)
    .optional(),
});

export type TAttestationInput = z.infer<typeof ZAttestationInput>;

/**
 * Records a human action at the tax authority's portal (an attestation: append-only) and completes
 * its step. Steps are attested in order: 409 `CERTIFICATION_PREREQUISITES_MISSING` (with
 * `details.missingSteps`) when an earlier step is not done. The sworn declaration moves production
 * to `pending` (the tax authority's authorization follows: the sync job finds it in the directory).
 */
export async function recordCertificationAttestation(options: {
  database: TDatabase;
  tenantId: string;
  input: TAttestationInput;
  /** `user:<id>`, `partner-key:<id>`. */
  recordedBy: string;
  now: Date;
  enqueue: TEnqueue;
  caseId?: string;
}): Promise<{ attestation: TAttestationRow; caseId: string; step: CertificationStep; state: string }> {
  const { database, input } = options;
  // Step 1 is the one a person may attest before any set: it opens the case.
  const open =
    (await findOpenCertificationCase(database, options.tenantId)) ??
    (input.step === 'registered' && options.caseId === undefined
      ? (await ensureOpenCertificationCase(database, { tenantId: options.tenantId })).case
      : null);
  if (open === null || (options.caseId !== undefined && open.id !== options.caseId)) {
    if (options.caseId !== undefined && open?.id !== options.caseId)
      throw new AppError('NOT_FOUND', `No open certification case ${options.caseId} in this account.`);
    throw new AppError(
      'CERTIFICATION_PREREQUISITES_MISSING',
      'No certification in progress: upload the tax authority test set first.',
      { details: { missingSteps: ['registered'] } },
    );
  }
  const completed = new Set((await findStepCompletions(database, open.id)).map((row) => row.step));
  const missing = missingStepsBefore(input.step, completed);
  if (missing.length > 0) {
    throw new AppError(
      'CERTIFICATION_PREREQUISITES_MISSING',
      `${input.step} follows steps that are not done: ${missing.join(', ')}.`,
      { details: { step: input.step, missingSteps: missing } },
    );
  }
  const attestation = await insertCertificationAttestation(database, {
    caseId: open.id,
    tenantId: options.tenantId,
    step: input.step,
    occurredAt: input.occurredAt === undefined ? options.now : new Date(input.occurredAt),
    actorRef: input.actorRef ?? null,
    notes: input.notes ?? null,
    evidenceRefs: input.evidenceRefs ?? [],
    recordedBy: options.recordedBy,
    now: options.now,
  });
  const moved = await moveCase({
    database,
    caseId: open.id,
    now: options.now,
    complete: [{ step: input.step, source: 'attestation', reference: attestation.id }],
  });
  if (input.step === 'sworn_declaration')
    await changeProductionState(database, {
      tenantId: options.tenantId,
      from: ['not_requested'],
      to: 'pending',
    });
  await options.enqueue([{ name: 'certification.sync', payload: { tenantId: options.tenantId } }]);
  return { attestation, caseId: open.id, step: moved.step, state: moved.state };
}
