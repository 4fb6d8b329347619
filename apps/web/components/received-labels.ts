/**
 * The portal's words for received documents (issue 18, task L): groups, validity, reasons an e-CF
 * was not received, commercial decisions (their words live in the one catalogue, `lib/catalogue.ts`),
 * and the query keys of the received lists. Client-safe.
 */
export {
  CORRESPONDENCE_LABELS,
  DECISION_LABELS,
  NOT_RECEIVED_LABELS,
  RECEIVED_APPROVAL_STATUS_LABELS,
  RECEIVED_GROUP_LABELS,
  RECEIVED_GROUP_TONES,
  VALIDITY_LABELS,
} from '../lib/catalogue.ts';

/** The query keys of the received lists (the REST API's), as the pages read them from the URL. */
export const RECEIVED_QUERY_KEYS = [
  'group',
  'type',
  'encf',
  'issuerRnc',
  'from',
  'to',
  'limit',
  'cursor',
] as const;
export const RECEIVED_APPROVAL_QUERY_KEYS = ['encf', 'buyerRnc', 'from', 'to', 'limit', 'cursor'] as const;

/** The query from a page's URL: its known keys only, blank values left out. */
export function receivedQueryOf(
  searchParams: Record<string, string | string[] | undefined>,
  keys: readonly string[],
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = searchParams[key];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== '') query[key] = text.trim();
  }
  return query;
}
