import { reconcileDeliveryForSupport } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import { ZReconcileDeliveryInput, ZReconcileDeliveryOutput } from './reconcile-delivery.schema.ts';

/**
 * Support reconciles an uncertain receiver delivery with the buyer's ARECF (or as never
 * dispatched): the API route's use-case decides, with its checks and errors
 * (RECEIVER_DELIVERY_EVIDENCE_INVALID with `details.reason`, ..._NOT_UNCERTAIN, ..._OUTCOME_CONFLICT).
 * A reconciliation is written to the tenant's audit log as `support.acted`.
 */
export const reconcileDelivery = supportProcedure('support.act')
  .input(ZReconcileDeliveryInput)
  .output(ZReconcileDeliveryOutput)
  .mutation(async ({ ctx, input }) => {
    const { tenantId, reconciliation } = await reconcileDeliveryForSupport({
      database: ctx.database,
      documentId: input.documentId,
      request: {
        outcome: input.outcome,
        ...(input.evidence === undefined ? {} : { evidence: input.evidence }),
        ...(input.note === undefined ? {} : { note: input.note }),
      },
      xsdValidators: await ctx.documents.loadXsd(),
      now: ctx.now(),
    });
    const delivery = reconciliation.receiverDelivery;
    await ctx.recordSupportAction(tenantId, 'receiver_delivery.reconciled', {
      documentId: reconciliation.documentId,
      encf: reconciliation.encf,
      outcome: delivery.reconciliation.outcome,
      arecfArtifactId: delivery.arecfArtifactId,
    });
    return {
      documentId: reconciliation.documentId,
      encf: reconciliation.encf,
      status: delivery.status,
      reconciledAt: delivery.reconciledAt,
      arecfArtifactId: delivery.arecfArtifactId,
    };
  });
