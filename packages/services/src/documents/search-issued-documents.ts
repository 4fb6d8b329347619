/**
 * The portal's search of the issued list (issue 27): the REST API's filters plus one search text
 * (an e-NCF prefix, a TrackId, the buyer's RNC/cédula or part of the buyer's name) and an amount range, a capped total, and a
 * previous page beside the next one. The REST API's list (`findIssuedDocuments`) is untouched: its
 * cursors stay valid here for the same filters (same secret, same binding).
 */
import type { z } from 'zod';
import type { Environment, TDatabase } from '@ecf/db';
import {
  countIssuedDocuments,
  findIssuedByReference,
  findIssuedDocumentsPage,
  findReceivedByEncf,
  type TIssuedFilters,
} from '../persistence/index.ts';
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
import { toIssuedDocument } from './find-issued-documents.ts';
import { bindingOf, decodeCursor, encodeCursor } from './issued-cursor.ts';

/** Past this many matches the portal says "más de 10 000" instead of counting every row. */
export const ISSUED_COUNT_CAP = SEARCH_COUNT_CAP;

// A TrackId is the tax authority's opaque token: one word, no spaces.
const TRACK_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{3,99}$/;

/**
 * What one search text means: an e-NCF prefix, a buyer RNC/cédula, a TrackId or part of the buyer's
 * name (one word may be either of the last two: both are searched); null when none.
 */
export function searchFiltersOf(
  text: string,
): Pick<TIssuedFilters, 'encfPrefix' | 'buyerRnc' | 'trackId' | 'buyerName'> | null {
  const trimmed = text.trim();
  const upper = trimmed.toUpperCase();
  if (E_NCF_PREFIX.test(upper)) return { encfPrefix: upper };
  if (isDigitsText(trimmed)) {
    const rnc = rncOf(trimmed);
    return rnc === null ? null : { buyerRnc: rnc };
  }
  const name = nameSearchOf(trimmed);
  if (TRACK_ID.test(trimmed)) return { trackId: trimmed, ...(name === null ? {} : { buyerName: name }) };
  return name === null ? null : { buyerName: name };
}

/** The portal's search members of the issued list's URL (text), beside the REST API's query. */
export const ZIssuedSearchQuery = searchQuerySchema(
  searchFiltersOf,
  'Busque por e-NCF (p. ej. E310000000001), TrackId, RNC o cédula del comprador, o al menos 3 letras de su nombre.',
);

export type TIssuedSearchQuery = z.output<typeof ZIssuedSearchQuery>;

/** The search members as filters (blank values left out). */
export function issuedSearchFiltersOf(search: TIssuedSearchQuery): TIssuedFilters {
  return searchMembersAsFilters(search, searchFiltersOf);
}

/**
 * One page of the issued list for the portal: after `cursor` (next) or before `before` (previous),
 * newest first either way, with the cursors of both neighbours and the (capped) total.
 */
export async function searchIssuedDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  filters: TIssuedFilters;
  limit: number;
  cursor?: string | undefined;
  before?: string | undefined;
  cursorSecret: string;
}) {
  const { database, tenantId, environment, filters, limit, cursorSecret } = options;
  const binding = bindingOf(tenantId, environment, filters);
  const after =
    options.cursor === undefined ? undefined : decodeCursor(cursorSecret, binding, options.cursor);
  const before =
    options.before === undefined || after !== undefined
      ? undefined
      : decodeCursor(cursorSecret, binding, options.before);
  const [rows, total] = await Promise.all([
    findIssuedDocumentsPage(database, {
      tenantId,
      environment,
      filters,
      ...(after === undefined ? {} : { after }),
      ...(before === undefined ? {} : { before }),
      take: limit + 1,
    }),
    countIssuedDocuments(database, {
      tenantId,
      environment,
      filters,
      cap: filters.buyerName === undefined ? ISSUED_COUNT_CAP : NAME_SEARCH_COUNT_CAP,
    }),
  ]);
  const { page, nextCursor, previousCursor } = twoWayPage(rows, {
    limit,
    after,
    before,
    cursorOf: (row) => encodeCursor(cursorSecret, binding, { submittedAt: row.submittedAt, id: row.id }),
  });
  return {
    items: page.map(toIssuedDocument),
    nextCursor,
    previousCursor,
    total,
  };
}

/** Where "Ir a e-NCF o TrackId" leads: an issued or a received document, in its environment. */
export type TDocumentLocation = {
  kind: 'issued' | 'received';
  id: string;
  environment: Environment;
  encf: string;
};

/**
 * The tenant's documents whose e-NCF or TrackId is exactly `reference`: issued (e-NCF or TrackId)
 * and received (e-NCF), in the environments given, newest first. Each kind only when the caller
 * may read it.
 */
export async function locateDocuments(options: {
  database: TDatabase;
  tenantId: string;
  reference: string;
  environments: Environment[];
  issued: boolean;
  received: boolean;
}): Promise<TDocumentLocation[]> {
  const reference = options.reference.trim();
  const encf = reference.toUpperCase();
  const [issued, received] = await Promise.all([
    options.issued
      ? findIssuedByReference(options.database, {
          tenantId: options.tenantId,
          environments: options.environments,
          encf,
          trackId: reference,
        })
      : [],
    options.received
      ? findReceivedByEncf(options.database, {
          tenantId: options.tenantId,
          environments: options.environments,
          encf,
        })
      : [],
  ]);
  return [
    ...issued.map((row) => ({
      kind: 'issued' as const,
      id: row.id,
      environment: row.environment,
      encf: row.encf,
    })),
    ...received.map((row) => ({
      kind: 'received' as const,
      id: row.id,
      environment: row.environment,
      encf: row.encf,
    })),
  ];
}
