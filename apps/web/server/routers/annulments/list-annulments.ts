import { searchAnnulments } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListAnnulmentsInput, ZListAnnulmentsOutput } from './annulment.schema.ts';

/** Page size of the portal's list (the API's default). */
const PAGE_SIZE = 50;

/**
 * The active tenant's annulments in this environment, newest first, 50 per page, by state and by
 * e-NCF (issue 27's search), with the total and both neighbouring pages; a cursor of another
 * search, or one the list never gave, is BAD_REQUEST (the page says so).
 */
export const listAnnulments = tenantProcedure('annulments.read')
  .input(ZListAnnulmentsInput)
  .output(ZListAnnulmentsOutput)
  .query(async ({ ctx, input }) => {
    const page = await searchAnnulments({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      status: input.status,
      search: { q: input.q, cursor: input.cursor, before: input.before },
      limit: PAGE_SIZE,
    });
    return {
      items: page.items.map((item) => ({
        id: item.id,
        ok: item.ok,
        status: item.status,
        reason: item.reason,
        ranges: item.ranges,
        taxauth: item.taxauth,
        reconciliation: item.reconciliation,
        createdAt: item.createdAt,
        answeredAt: item.answeredAt,
        coveredCounts: item.coveredCounts,
      })),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
      total: page.total,
    };
  });
