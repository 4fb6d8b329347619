/**
 * What the portal's search boxes accept (issue 27), shared by the issued list, the received list,
 * the annulments and the account searches: an e-NCF prefix, an RNC or cédula, a part of a name,
 * an amount range. Each list says which of them it searches (its own use-case).
 */
import { z } from 'zod';
import { ZPageCursorText } from '@ecf/contract';

/** "E", "E31", "E3100000001"...: the start of an e-NCF, any case (the caller upper-cases it). */
export const E_NCF_PREFIX = /^E\d{0,12}$/;
// RNC (9 digits) or cédula (11), dashes and spaces as people write them ("131-12345-6").
const RNC_OR_CEDULA = /^(\d{9}|\d{11})$/;
const AMOUNT = /^\d{1,16}(\.\d{1,2})?$/;

/** Fewer characters than this cannot use a trigram index and match almost everything. */
export const NAME_SEARCH_MIN_LENGTH = 3;

/** The digits of an RNC or cédula as typed ("131-12345-6"); null when the text is not one. */
export function rncOf(text: string): string | null {
  const digits = text.trim().replace(/[\s-]/g, '');
  return RNC_OR_CEDULA.test(digits) ? digits : null;
}

/** Whether the text is only digits, dashes and spaces (an RNC being typed, never a name). */
export function isDigitsText(text: string): boolean {
  return /^[\d\s-]+$/.test(text.trim());
}

/**
 * Part of a name as a LIKE operand: spaces collapsed, `\`, `%` and `_` escaped (a name holding them
 * matches them literally); null when shorter than {@link NAME_SEARCH_MIN_LENGTH}.
 */
export function nameSearchOf(text: string): string | null {
  const name = text.trim().replace(/\s+/g, ' ');
  if ([...name].length < NAME_SEARCH_MIN_LENGTH) return null;
  return name.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Amount text as people type it ("1,500.00", "1500"), thousands commas dropped; never a float. */
export const ZAmountText = z
  .string()
  .max(40)
  .transform((text) => text.trim().replace(/,/g, ''))
  .refine((text) => AMOUNT.test(text), 'un monto como 1500 o 1500.50')
  .optional();

/**
 * Cents of an amount text, exactly (BigInt): only to compare a range's ends; null when the text is
 * not an amount (zod runs the object's refinement even when a member failed its own check).
 */
function centsOf(amount: string): bigint | null {
  if (!AMOUNT.test(amount)) return null;
  const [units = '0', fraction = ''] = amount.split('.');
  return BigInt(units) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** Whether a range's minimum is above its maximum (both amounts). */
export function isReversedAmountRange(amountMin: string | undefined, amountMax: string | undefined): boolean {
  const [low, high] = [centsOf(amountMin ?? ''), centsOf(amountMax ?? '')];
  return low !== null && high !== null && low > high;
}

/** The message of a reversed amount range (on `amountMin`). */
export const REVERSED_AMOUNT_RANGE = 'El monto mínimo no puede ser mayor que el máximo.';

/** Past this many matches a list says "más de N" instead of counting every row. */
export const SEARCH_COUNT_CAP = 10_000;

/**
 * The cap of a count whose search holds a name: each row counted is an ILIKE of its name, and a
 * common name ("CONSUMIDOR FINAL" of every anonymous E32) matched 10,001 rows in 264 ms at p95 with
 * 100,000 documents (bench/portal); "más de 1,000" says enough to narrow the search.
 */
export const NAME_SEARCH_COUNT_CAP = 1_000;

/** An account search (support's tenant chooser, a Partner's accounts): the start of an RNC or part of a name. */
export type TAccountSearch = { rncPrefix: string } | { name: string };

/**
 * What an account search text means: 3 or more digits (dashes and spaces allowed) are the start of
 * an RNC or cédula, anything else of 3 or more characters part of the legal or trade name; null
 * when neither.
 */
export function accountSearchOf(text: string): TAccountSearch | null {
  if (isDigitsText(text)) {
    const digits = text.replace(/[\s-]/g, '');
    return digits.length >= NAME_SEARCH_MIN_LENGTH && digits.length <= 11 ? { rncPrefix: digits } : null;
  }
  const name = nameSearchOf(text);
  return name === null ? null : { name };
}

/** What an account search box says when its text is neither. */
export const ACCOUNT_SEARCH_HINT = 'Escriba al menos 3 dígitos del RNC o 3 letras del nombre.';

/**
 * The search members of a list's URL (text) beside the REST API's query: one search text that
 * `filtersOf` must understand (else `hint` on `q`), an amount range and the previous page's cursor.
 */
export function searchQuerySchema(filtersOf: (text: string) => object | null, hint: string) {
  return z
    .strictObject({
      q: z.string().max(100).optional(),
      amountMin: ZAmountText,
      amountMax: ZAmountText,
      /** The previous page: the first row of the page after it (a cursor of the same binding). */
      before: ZPageCursorText,
    })
    .superRefine((query, context) => {
      if (query.q !== undefined && query.q.trim() !== '' && filtersOf(query.q) === null)
        context.addIssue({ code: 'custom', path: ['q'], message: hint });
      if (isReversedAmountRange(query.amountMin, query.amountMax))
        context.addIssue({ code: 'custom', path: ['amountMin'], message: REVERSED_AMOUNT_RANGE });
    });
}

/** A list's search members as filters: what the text means and the amount range (blank values left out). */
export function searchMembersAsFilters<TFilters extends object>(
  search: { q?: string | undefined; amountMin?: string | undefined; amountMax?: string | undefined },
  filtersOf: (text: string) => TFilters | null,
): Partial<TFilters> & { amountMin?: string; amountMax?: string } {
  const text: Partial<TFilters> = (search.q?.trim() ? filtersOf(search.q) : null) ?? {};
  return {
    ...text,
    ...(search.amountMin ? { amountMin: search.amountMin } : {}),
    ...(search.amountMax ? { amountMax: search.amountMax } : {}),
  };
}

/**
 * One page of a list read both ways, newest first on screen: `rows` were read with one more than
 * `limit` after the `after` row (next) or before the `before` row (previous, oldest first). Says
 * which neighbours exist and gives their cursors (`cursorOf` a row).
 */
export function twoWayPage<TRow>(
  rows: TRow[],
  options: { limit: number; after: unknown; before: unknown; cursorOf: (row: TRow) => string },
): { page: TRow[]; nextCursor: string | null; previousCursor: string | null } {
  const { limit, after, before } = options;
  const more = rows.length > limit;
  // A previous page's rows come oldest first: newest first again for the table.
  const page = before === undefined ? rows.slice(0, limit) : rows.slice(0, limit).reverse();
  const first = page[0];
  const last = page.at(-1);
  // Going back, the older rows exist (the page we came from); going forward, the newer ones do.
  const hasNext = before === undefined ? more : page.length > 0;
  const hasPrevious = before === undefined ? after !== undefined && page.length > 0 : more;
  return {
    page,
    nextCursor: hasNext && last !== undefined ? options.cursorOf(last) : null,
    previousCursor: hasPrevious && first !== undefined ? options.cursorOf(first) : null,
  };
}
