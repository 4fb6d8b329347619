import { issuedSearchFiltersOf, searchIssuedDocuments } from '@ecf/services';
import { ISSUED_LIST_DEFAULT_LIMIT } from '@ecf/contract';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { issuedDocumentOf } from './document.schema.ts';
import { ZListDocumentsInput, ZListDocumentsOutput } from './list-documents.schema.ts';

/**
 * The active tenant's issued documents in one environment: the REST API's list (same filters, same
 * keyset cursor under the same secret, so a cursor of one works in the other) plus the portal's
 * search, a capped total and the previous page's cursor.
 */
export const listDocuments = tenantProcedure('documents.read')
  .input(ZListDocumentsInput)
  .output(ZListDocumentsOutput)
  .query(async ({ ctx, input }) => {
    const { cursor, limit, ...filters } = input.query;
    const search = input.search ?? {};
    const page = await searchIssuedDocuments({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      filters: { ...filters, ...issuedSearchFiltersOf(search) },
      limit: limit ?? ISSUED_LIST_DEFAULT_LIMIT,
      cursor,
      before: search.before,
      cursorSecret: ctx.documents.cursorSecret,
    });
    return {
      items: page.items.map(issuedDocumentOf),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
      total: page.total,
    };
  });
