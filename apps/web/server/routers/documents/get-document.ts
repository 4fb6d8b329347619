import { getDocumentDetails } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetDocumentInput, ZGetDocumentOutput } from './get-document.schema.ts';

/**
 * One issued document of the active tenant with its timeline, artifacts, receiver delivery and
 * buyer e-mail attempts. NOT_FOUND for any other id (another tenant's document included).
 */
export const getDocument = tenantProcedure('documents.read')
  .input(ZGetDocumentInput)
  .output(ZGetDocumentOutput)
  .query(async ({ ctx, input }) =>
    ZGetDocumentOutput.parse(
      await getDocumentDetails({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        environment: input.environment,
        documentId: input.documentId,
      }),
    ),
  );
