import type { TDatabase } from '@ecf/db';
import { searchTenantRows } from '../persistence/index.ts';
import { SEARCH_COUNT_CAP, type TAccountSearch } from '../shared/search-text.ts';

/**
 * Support's tenant chooser (issue 27): tenants whose RNC starts with the search or whose legal or
 * trade name holds it (`accountSearchOf`), every tenant without a search; by name, `limit` from
 * `offset`, with the total ("más de N" past 10,000). Names and RNCs only: the operator's directory.
 */
export async function searchTenants(options: {
  database: TDatabase;
  search: TAccountSearch | null;
  limit: number;
  offset: number;
}) {
  const page = await searchTenantRows(options.database, {
    search: options.search,
    limit: options.limit,
    offset: options.offset,
    cap: SEARCH_COUNT_CAP,
  });
  return { items: page.rows, total: page.total };
}
