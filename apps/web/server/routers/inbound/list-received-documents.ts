import { searchReceivedDocuments } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListReceivedDocumentsInput, ZListReceivedDocumentsOutput } from './inbound.schema.ts';

/**
 * "Recibidos": the e-CF suppliers sent to the active tenant in one environment, as the REST API
 * lists them (same filters; a cursor of one works in the other, same secret), plus the portal's
 * search (issue 27: e-NCF prefix, the supplier's RNC or name, amount range), a capped total and the
 * previous page's cursor.
 */
export const listReceivedDocuments = tenantProcedure('inbound.read')
  .input(ZListReceivedDocumentsInput)
  .output(ZListReceivedDocumentsOutput)
  .query(async ({ ctx, input }) =>
    ZListReceivedDocumentsOutput.parse(
      await searchReceivedDocuments({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        environment: input.environment,
        query: input.query,
        search: input.search ?? {},
        cursorSecret: ctx.documents.cursorSecret,
      }),
    ),
  );
