import { findReceivedDocuments } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListReceivedDocumentsInput, ZListReceivedDocumentsOutput } from './inbound.schema.ts';

/**
 * "Recibidos": the e-CF suppliers sent to the active tenant in one environment, as the REST API
 * lists them (same filters; a cursor of one works in the other, same secret).
 */
export const listReceivedDocuments = tenantProcedure('inbound.read')
  .input(ZListReceivedDocumentsInput)
  .output(ZListReceivedDocumentsOutput)
  .query(async ({ ctx, input }) =>
    ZListReceivedDocumentsOutput.parse(
      await findReceivedDocuments({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        environment: input.environment,
        query: input.query,
        cursorSecret: ctx.documents.cursorSecret,
      }),
    ),
  );
