import { listAnnulments as listAnnulmentsUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListAnnulmentsInput, ZListAnnulmentsOutput } from './annulment.schema.ts';

/** Page size of the portal's list (the API's default). */
const PAGE_SIZE = 50;

/**
 * The active tenant's annulments in this environment, newest first, 50 per page; a cursor of
 * another status filter, or one the list never gave, is BAD_REQUEST (the page says so).
 */
export const listAnnulments = tenantProcedure('annulments.read')
  .input(ZListAnnulmentsInput)
  .output(ZListAnnulmentsOutput)
  .query(async ({ ctx, input }) => {
    const page = await listAnnulmentsUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      status: input.status,
      cursor: input.cursor,
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
    };
  });
