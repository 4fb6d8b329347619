import { findReceivedApprovals } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListReceivedApprovalsInput, ZListReceivedApprovalsOutput } from './inbound.schema.ts';

/** "Aprobaciones recibidas": the ACECF customers sent on the active tenant's e-CF, as the REST API lists them. */
export const listReceivedApprovals = tenantProcedure('inbound.read')
  .input(ZListReceivedApprovalsInput)
  .output(ZListReceivedApprovalsOutput)
  .query(async ({ ctx, input }) =>
    ZListReceivedApprovalsOutput.parse(
      await findReceivedApprovals({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        environment: input.environment,
        query: input.query,
        cursorSecret: ctx.documents.cursorSecret,
      }),
    ),
  );
