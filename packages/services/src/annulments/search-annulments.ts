/**
 * The portal's search of annulments (issue 27): by the e-NCF their ranges hold (an e-NCF or its
 * start) and by state, newest first, with a capped total and a previous page beside the next one.
 * Annulments have no TrackId of a document nor a counterpart (an ANECF annuls unused numbers), so the
 * e-NCF is what is searched. The REST list (`listAnnulments`) and its cursors are untouched.
 */
import { z } from 'zod';
import type { AnnulmentState, Environment, TDatabase } from '@ecf/db';
import { countAnnulments, findAnnulmentSearchPage, type TAnnulmentEncfSearch } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { E_NCF_PREFIX, SEARCH_COUNT_CAP, twoWayPage } from '../shared/search-text.ts';
import { annulmentViewOf } from './annulment-model.ts';
import { ANNULMENT_PAGE_DEFAULT, ANNULMENT_PAGE_MAX, type TAnnulmentSummary } from './list-annulments.ts';

/** Digits after `E` and the two-digit type in an e-NCF. */
const SEQUENCE_DIGITS = 10;

/**
 * The ranges an e-NCF prefix reaches: up to the type (`E`, `E3`, `E31`) a pattern of the range's
 * prefix; past it the numbers the prefix spans (`E3100000001` → 0000000100 to 0000000199).
 */
export function annulmentEncfSearchOf(text: string): TAnnulmentEncfSearch | null {
  const prefix = text.trim().toUpperCase();
  if (!E_NCF_PREFIX.test(prefix)) return null;
  const all = 10n ** BigInt(SEQUENCE_DIGITS) - 1n;
  if (prefix.length <= 3) return { prefixPattern: `${prefix}%`, lowNumber: 0n, highNumber: all };
  const digits = prefix.slice(3);
  const scale = 10n ** BigInt(SEQUENCE_DIGITS - digits.length);
  const low = BigInt(digits) * scale;
  return { prefixPattern: prefix.slice(0, 3), lowNumber: low, highNumber: low + scale - 1n };
}

const ANNULMENT_SEARCH_HINT = 'Busque por e-NCF o su inicio (p. ej. E310000000001 o E31).';

/** The portal's search members of the annulments page's URL. */
export const ZAnnulmentSearchQuery = z.strictObject({
  q: z
    .string()
    .max(100)
    .refine((text) => text.trim() === '' || annulmentEncfSearchOf(text) !== null, ANNULMENT_SEARCH_HINT)
    .optional(),
  cursor: z.string().max(500).optional(),
  before: z.string().max(500).optional(),
});
export type TAnnulmentSearchQuery = z.output<typeof ZAnnulmentSearchQuery>;

type TCursor = { createdAt: Date; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function invalidCursor(message: string): AppError {
  return new AppError('INVALID_REQUEST', message, {
    details: { issues: [{ path: 'cursor', code: 'CURSOR_INVALID', message }] },
  });
}

/** The search a cursor belongs to: the state and the e-NCF text (a cursor of another search is refused). */
function bindingOf(status: AnnulmentState | null, encf: string | null): string {
  return JSON.stringify([status, encf]);
}

function encodeCursor(cursor: TCursor, binding: string): string {
  return Buffer.from(
    JSON.stringify({ c: cursor.createdAt.toISOString(), i: cursor.id, b: binding }),
  ).toString('base64url');
}

function decodeCursor(text: string, binding: string): TCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('The cursor is not one this list gave.');
  }
  const { c, i, b } = (parsed ?? {}) as { c?: unknown; i?: unknown; b?: unknown };
  const createdAt = typeof c === 'string' ? new Date(c) : new Date(Number.NaN);
  if (Number.isNaN(createdAt.getTime()) || typeof i !== 'string' || !UUID.test(i))
    throw invalidCursor('The cursor is not one this list gave.');
  if (b !== binding)
    throw invalidCursor('The cursor belongs to another search: follow it with the same filter.');
  return { createdAt, id: i };
}

/**
 * One page of the tenant's annulments in the environment matching the search: after `cursor`
 * (next) or before `before` (previous), newest first either way, with both neighbours' cursors and
 * the (capped) total. Covered documents are counted, as in the list.
 */
export async function searchAnnulments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  status?: AnnulmentState | undefined;
  search: TAnnulmentSearchQuery;
  limit?: number | undefined;
}): Promise<{
  items: TAnnulmentSummary[];
  nextCursor: string | null;
  previousCursor: string | null;
  total: { count: number; capped: boolean };
}> {
  const { database, tenantId, environment, search } = options;
  const status = options.status ?? null;
  const text = search.q?.trim() ? search.q.trim().toUpperCase() : null;
  const encf = text === null ? undefined : (annulmentEncfSearchOf(text) ?? undefined);
  if (text !== null && encf === undefined)
    throw new AppError('INVALID_REQUEST', ANNULMENT_SEARCH_HINT, {
      details: { issues: [{ path: 'q', code: 'custom', message: ANNULMENT_SEARCH_HINT }] },
    });
  const binding = bindingOf(status, text);
  const limit = Math.min(
    Math.max(Math.trunc(options.limit ?? ANNULMENT_PAGE_DEFAULT), 1),
    ANNULMENT_PAGE_MAX,
  );
  const after = search.cursor === undefined ? undefined : decodeCursor(search.cursor, binding);
  const before =
    search.before === undefined || after !== undefined ? undefined : decodeCursor(search.before, binding);
  const scope = { tenantId, environment, status: status ?? undefined, encf };
  const [rows, total] = await Promise.all([
    findAnnulmentSearchPage(database, { ...scope, after, before, limit: limit + 1 }),
    countAnnulments(database, { ...scope, cap: SEARCH_COUNT_CAP }),
  ]);
  const { page, nextCursor, previousCursor } = twoWayPage(rows, {
    limit,
    after,
    before,
    cursorOf: (row) => encodeCursor(row, binding),
  });
  return {
    items: page.map((row) => {
      const { coveredDocuments, ...view } = annulmentViewOf(row);
      return {
        ...view,
        coveredCounts: {
          cancelled: coveredDocuments.cancelled.length,
          skipped: coveredDocuments.skipped.length,
        },
      };
    }),
    nextCursor,
    previousCursor,
    total,
  };
}
