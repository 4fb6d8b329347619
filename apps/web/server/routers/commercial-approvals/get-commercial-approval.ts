import { getCommercialApproval as getCommercialApprovalUseCase, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetCommercialApprovalInput, ZGetCommercialApprovalOutput } from './commercial-approval.schema.ts';

/** The commercial approval of a received e-CF of the active tenant (null when none was sent); NOT_FOUND otherwise. */
export const getCommercialApproval = tenantProcedure('inbound.read')
  .input(ZGetCommercialApprovalInput)
  .output(ZGetCommercialApprovalOutput)
  .query(async ({ ctx, input }) => {
    const result = await getCommercialApprovalUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      inboundDocumentId: input.inboundDocumentId,
    });
    return {
      commercialApproval: result.commercialApproval,
      canApprove: hasCapability(ctx.principal, 'inbound.approve'),
    };
  });
