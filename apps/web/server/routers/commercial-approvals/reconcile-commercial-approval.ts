import { reconcileCommercialApproval as reconcileCommercialApprovalUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZReconcileCommercialApprovalInput,
  ZReconcileCommercialApprovalOutput,
} from './commercial-approval.schema.ts';

/** Fixes the outcome of an uncertain approval once (the use-case of `POST .../aprobacion-comercial/reconciliar`). */
export const reconcileCommercialApproval = tenantProcedure('inbound.approve')
  .input(ZReconcileCommercialApprovalInput)
  .output(ZReconcileCommercialApprovalOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await reconcileCommercialApprovalUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      inboundDocumentId: input.inboundDocumentId,
      request: {
        outcome: input.outcome,
        ...(input.evidence === undefined || input.evidence === ''
          ? {}
          : { evidence: { content: input.evidence, contentType: 'text/plain' as const } }),
        ...(input.note === undefined || input.note === '' ? {} : { note: input.note }),
      },
      enqueue: ctx.documents.enqueue,
      now: ctx.now,
    });
    return { replayed: result.replayed, commercialApproval: result.commercialApproval };
  });
