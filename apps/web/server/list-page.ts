import { TRPCError } from '@trpc/server';
import { AppError } from '@ecf/services';

/**
 * A list page's call (issued, received, received approvals): the page, or for a query the service
 * refused (a filter, or a cursor of another query: 400) the empty page and what the page says
 * instead. Anything else is the page's error.
 */
export async function listPageOf<TPage>(
  load: () => Promise<TPage>,
  empty: TPage,
): Promise<{ page: TPage; problem: string | null }> {
  try {
    return { page: await load(), problem: null };
  } catch (error) {
    if (!(error instanceof TRPCError) || error.code !== 'BAD_REQUEST') throw error;
    return {
      page: empty,
      problem:
        error.cause instanceof AppError
          ? 'El enlace de esta página no corresponde a estos filtros: vuelva a filtrar.'
          : 'Revise los filtros: alguno no es válido.',
    };
  }
}
