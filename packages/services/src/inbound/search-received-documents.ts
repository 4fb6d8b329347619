/**
 * The portal's search of "Recibidos" (issue 27): the REST API's filters plus one search text (an
 * e-NCF prefix, the supplier's RNC/cédula or part of the supplier's name) and an amount range, a
 * capped total, and a previous page beside the next one. The REST API's list
 * (`findReceivedDocuments`) is untouched: without search members the binding, and so every cursor,
 * is the API's.
 */
import type { z } from 'zod';
import type { Environment, TDatabase } from '@ecf/db';
import { countInboundDocuments, findInboundPage, type TReceivedFilters } from '../persistence/index.ts';
import {
  E_NCF_PREFIX,
  isDigitsText,
  NAME_SEARCH_COUNT_CAP,
  nameSearchOf,
  rncOf,
  SEARCH_COUNT_CAP,
  searchMembersAsFilters,
  searchQuerySchema,
  twoWayPage,
} from '../shared/search-text.ts';
import { decodeReceivedCursor, encodeReceivedCursor, receivedBindingOf } from './received-cursor.ts';
import { toReceivedDocument } from './received-items.ts';
import { RECEIVED_LIST_DEFAULT_LIMIT, type TReceivedListQuery } from '@ecf/contract';

type TReceivedSearchFilters = Pick<TReceivedFilters, 'encfPrefix' | 'issuerRnc' | 'issuerName'>;

/** What one search text of "Recibidos" means: an e-NCF prefix, the supplier's RNC or part of its name; null when none. */
export function receivedSearchFiltersOf(text: string): TReceivedSearchFilters | null {
  const trimmed = text.trim();
  const upper = trimmed.toUpperCase();
  if (E_NCF_PREFIX.test(upper)) return { encfPrefix: upper };
  if (isDigitsText(trimmed)) {
    const rnc = rncOf(trimmed);
    return rnc === null ? null : { issuerRnc: rnc };
  }
  const name = nameSearchOf(trimmed);
  return name === null ? null : { issuerName: name };
}

/** The portal's search members of the received list's URL (text), beside the REST API's query. */
export const ZReceivedSearchQuery = searchQuerySchema(
  receivedSearchFiltersOf,
  'Busque por e-NCF (p. ej. E310000000001), RNC o cédula del proveedor, o al menos 3 letras de su nombre.',
);

export type TReceivedSearchQuery = z.output<typeof ZReceivedSearchQuery>;

/** The search members as filters (blank values left out). */
export function receivedSearchFiltersOfQuery(search: TReceivedSearchQuery): TReceivedFilters {
  return searchMembersAsFilters(search, receivedSearchFiltersOf);
}

/** Only the members that are set: a key with no value must not change a cursor's binding. */
function definedOf(filters: TReceivedFilters): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(filters).filter((entry): entry is [string, string | number] => entry[1] !== undefined),
  );
}

/**
 * One page of "Recibidos" for the portal: after `query.cursor` (next) or before `before` (previous),
 * newest reception first either way, with the cursors of both neighbours and the (capped) total.
 */
export async function searchReceivedDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  query: TReceivedListQuery;
  search: TReceivedSearchQuery;
  cursorSecret: string;
}) {
  const { database, tenantId, environment, cursorSecret } = options;
  const { cursor, limit, ...listFilters } = options.query;
  const filters: TReceivedFilters = { ...listFilters, ...receivedSearchFiltersOfQuery(options.search) };
  const binding = receivedBindingOf('documents', tenantId, environment, definedOf(filters));
  const take = limit ?? RECEIVED_LIST_DEFAULT_LIMIT;
  const after = cursor === undefined ? undefined : decodeReceivedCursor(cursorSecret, binding, cursor);
  const before =
    options.search.before === undefined || after !== undefined
      ? undefined
      : decodeReceivedCursor(cursorSecret, binding, options.search.before);
  const scope = { tenantId, environment, kind: 'ecf' as const, filters };
  const [rows, total] = await Promise.all([
    findInboundPage(database, {
      ...scope,
      ...(after === undefined ? {} : { after }),
      ...(before === undefined ? {} : { before }),
      take: take + 1,
    }),
    countInboundDocuments(database, {
      ...scope,
      cap: filters.issuerName === undefined ? SEARCH_COUNT_CAP : NAME_SEARCH_COUNT_CAP,
    }),
  ]);
  const { page, nextCursor, previousCursor } = twoWayPage(rows, {
    limit: take,
    after,
    before,
    cursorOf: (row) =>
      encodeReceivedCursor(cursorSecret, binding, { receivedAt: row.receivedAt, id: row.id }),
  });
  return {
    items: page.map(toReceivedDocument),
    nextCursor,
    previousCursor,
    total,
  };
}
