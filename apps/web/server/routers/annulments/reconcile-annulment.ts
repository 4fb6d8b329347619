import { reconcileAnnulment as reconcileAnnulmentUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZReconcileAnnulmentInput, ZReconcileAnnulmentOutput } from './annulment.schema.ts';
import { annulmentViewOf } from './annulment-view.ts';

/**
 * Fixes the outcome of an uncertain annulment with the tax authority's answer as evidence (the
 * use-case of `POST /{environment}/anulaciones-ecf/{annulmentId}/reconciliar`): once, immutable.
 */
export const reconcileAnnulment = tenantProcedure('annulments.manage')
  .input(ZReconcileAnnulmentInput)
  .output(ZReconcileAnnulmentOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await reconcileAnnulmentUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      annulmentId: input.annulmentId,
      outcome: input.outcome,
      evidence: { content: input.evidence, contentType: 'text/plain' },
      ...(input.note === undefined || input.note === '' ? {} : { note: input.note }),
    });
    return { replayed: result.replayed, annulment: annulmentViewOf(result.annulment) };
  });
