import { getReceivedApproval as getReceivedApprovalItem } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetReceivedInput, ZReceivedApprovalItem } from './inbound.schema.ts';

/** One received ACECF of the active tenant; NOT_FOUND for any other id (another tenant's, a received e-CF's). */
export const getReceivedApproval = tenantProcedure('inbound.read')
  .input(ZGetReceivedInput)
  .output(ZReceivedApprovalItem)
  .query(async ({ ctx, input }) =>
    ZReceivedApprovalItem.parse(
      (
        await getReceivedApprovalItem({
          database: ctx.database,
          tenantId: ctx.tenant.id,
          environment: input.environment,
          inboundDocumentId: input.inboundDocumentId,
        })
      ).item,
    ),
  );
