import { getReceivedDocument as getReceivedDocumentItem } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetReceivedInput, ZReceivedDocumentItem } from './inbound.schema.ts';

/** One received e-CF of the active tenant; NOT_FOUND for any other id (another tenant's, an ACECF's). */
export const getReceivedDocument = tenantProcedure('inbound.read')
  .input(ZGetReceivedInput)
  .output(ZReceivedDocumentItem)
  .query(async ({ ctx, input }) =>
    ZReceivedDocumentItem.parse(
      (
        await getReceivedDocumentItem({
          database: ctx.database,
          tenantId: ctx.tenant.id,
          environment: input.environment,
          inboundDocumentId: input.inboundDocumentId,
        })
      ).item,
    ),
  );
