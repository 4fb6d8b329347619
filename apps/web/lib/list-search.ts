/**
 * The list pages' search in the URL (issue 27), in one place for every list (documents, received,
 * annulments, accounts) and for whatever else reads the same URL (exports "for the current filter"):
 * the known keys of a page's query, and the total as the page says it. Client-safe.
 */

export type TSearchParams = Record<string, string | string[] | undefined>;

/** The portal's search keys of the received list, apart from the REST API's (RECEIVED_QUERY_KEYS). */
export const RECEIVED_SEARCH_KEYS = ['q', 'amountMin', 'amountMax', 'before'] as const;

/** The search keys of the annulments page (beside its `status`). */
export const ANNULMENT_SEARCH_KEYS = ['q', 'status', 'cursor', 'before'] as const;

/** The search keys of the account lists (support's /accounts, a Partner's /partner/accounts). */
export const ACCOUNT_SEARCH_KEYS = ['q', 'offset'] as const;

/** The URL's values of `keys` (first value of a repeated key), trimmed, blank values left out. */
export function paramsOf(searchParams: TSearchParams, keys: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = searchParams[key];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== '') query[key] = text.trim();
  }
  return query;
}

/** `path?query` (or just `path` without a query). */
export function hrefOf(path: string, query: Record<string, string>): string {
  const text = new URLSearchParams(query).toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * "N comprobantes", "1 comprobante", or "Más de N comprobantes" past the count's cap (counting
 * further would cost a full scan).
 */
export function totalText(
  total: { count: number; capped: boolean },
  words: { one: string; many: string },
): string {
  const count = new Intl.NumberFormat('es-DO').format(total.count);
  if (total.capped) return `Más de ${count} ${words.many}`;
  return total.count === 1 ? `1 ${words.one}` : `${count} ${words.many}`;
}

/** A non-negative whole offset from the URL (0 when absent or not one). */
export function offsetOf(text: string | undefined): number {
  return text !== undefined && /^\d{1,7}$/.test(text) ? Number(text) : 0;
}
