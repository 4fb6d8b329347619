import { assertDirectCertification, AppError, recordCertificationAttestation } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZAttestInput, ZAttestOutput } from './certification.schema.ts';

/**
 * Records that a person did a step at the tax authority's portal (an attestation, append-only) and
 * completes it. Steps are attested in order: CONFLICT CERTIFICATION_PREREQUISITES_MISSING with
 * `details.missingSteps` otherwise. Recorded by `user:<id>`.
 */
export const attestStep = tenantProcedure('certification.manage')
  .input(ZAttestInput)
  .output(ZAttestOutput)
  .mutation(async ({ ctx, input }) => {
    await assertDirectCertification(ctx.database, ctx.tenant.id);
    if (input.environment !== 'CerteCF') {
      throw new AppError('CERTIFICATION_ENVIRONMENT_REQUIRED', 'Certification runs in CerteCF.', {
        details: { environment: input.environment, required: 'CerteCF' },
      });
    }
    const notes = input.notes === undefined || input.notes === '' ? {} : { notes: input.notes };
    const result = await recordCertificationAttestation({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      input: { step: input.step, ...notes },
      recordedBy: `user:${ctx.actor.userId}`,
      now: ctx.now(),
      enqueue: ctx.documents.enqueue,
    });
    return { step: result.step, state: result.state };
  });
