/**
 * How the portal SAYS a document's statuses, types and events in Spanish (presentation only: the
 * statuses themselves and what they mean come from @ecf/services). Client-safe. The words live in
 * the one catalogue (`lib/catalogue.ts`); this module keeps the document pages' imports and helpers.
 */
import { ECF_TYPE_SHORT_LABELS } from '../lib/catalogue.ts';

export {
  DELIVERY_STATUS_LABELS,
  DOCUMENT_STATUS_LABELS,
  DOCUMENT_STATUS_TONES,
  ECF_TYPE_LABELS,
  ECF_TYPE_SHORT_LABELS,
  EMAIL_OUTCOME_LABELS,
  EVENT_LABELS,
  PRINTING_STATUS_LABELS,
} from '../lib/catalogue.ts';

/**
 * A type as every table shows it: `E31 · Crédito fiscal` (from `E31`, `31` or `31` as a number);
 * an unknown type is shown as it came.
 */
export function ecfTypeLabel(type: string | number): string {
  const text = String(type).trim();
  const code = /^\d+$/.test(text) ? `E${text}` : text.toUpperCase();
  const name = ECF_TYPE_SHORT_LABELS[code];
  return name === undefined ? text : `${code} · ${name}`;
}

/** `8731.00` → `RD$ 8,731.00`, on the decimal TEXT (never through a float). */
export function formatAmount(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = '00'] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}RD$ ${grouped}.${fraction}`;
}
