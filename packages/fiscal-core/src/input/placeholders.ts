import type { TJsonValue } from '../json/lossless-json.ts';
import { addDays, dominicanDateOf, formatTaxauthDate } from './dates.ts';

/**
 * Placeholders an ERP template may leave for the service to fill with the account's data, before
 * validation. Dates are the Dominican calendar date of `now` (`DD-MM-YYYY`).
 */
export const KNOWN_PLACEHOLDERS = [
  'RNC',
  'RAZON_SOCIAL',
  'NOMBRE_COMERCIAL',
  'FECHA_EMISION',
  'FECHA_LIMITE_PAGO',
] as const;

/** The account data placeholders are filled from. */
export type TPlaceholderAccount = {
  readonly rnc: string;
  readonly legalName: string;
  readonly tradeName?: string | undefined;
  readonly paymentTermDays?: number | undefined;
};

/** A placeholder left in the body, by the client path of its string. */
export type TUnresolvedPlaceholder = { readonly path: string; readonly placeholder: string };

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

/** The value of each known placeholder; a missing one (no trade name, no payment term) stays unresolved. */
export function placeholderValues(account: TPlaceholderAccount, now: Date): ReadonlyMap<string, string> {
  const today = dominicanDateOf(now.getTime());
  const values = new Map<string, string>([
    ['RNC', account.rnc],
    ['RAZON_SOCIAL', account.legalName],
    ['FECHA_EMISION', formatTaxauthDate(today)],
  ]);
  if (account.tradeName !== undefined && account.tradeName !== '')
    values.set('NOMBRE_COMERCIAL', account.tradeName);
  if (account.paymentTermDays !== undefined)
    values.set('FECHA_LIMITE_PAGO', formatTaxauthDate(addDays(today, account.paymentTermDays)));
  return values;
}

/**
 * Replaces placeholders inside every string value (whole or embedded) and lists those left, by the
 * client's path. Member names are never touched. Returns the same object when nothing changed.
 */
export function completePlaceholders(
  value: TJsonValue,
  values: ReadonlyMap<string, string>,
): { readonly value: TJsonValue; readonly unresolved: readonly TUnresolvedPlaceholder[] } {
  const unresolved: TUnresolvedPlaceholder[] = [];
  const visit = (node: TJsonValue, path: string): TJsonValue => {
    switch (node.kind) {
      case 'string': {
        if (!node.value.includes('{{')) return node;
        const replaced = node.value.replace(PLACEHOLDER, (whole, name: string) => {
          const known = values.get(name.trim());
          if (known !== undefined) return known;
          unresolved.push({ path, placeholder: whole });
          return whole;
        });
        return replaced === node.value ? node : { kind: 'string', value: replaced };
      }
      case 'array': {
        const items = node.items.map((item, index) => visit(item, `${path}[${index}]`));
        return items.every((item, index) => item === node.items[index]) ? node : { kind: 'array', items };
      }
      case 'object': {
        let changed = false;
        const members = new Map<string, TJsonValue>();
        for (const [key, member] of node.members) {
          const next = visit(member, path === '' ? key : `${path}.${key}`);
          if (next !== member) changed = true;
          members.set(key, next);
        }
        return changed ? { kind: 'object', members } : node;
      }
      default:
        return node;
    }
  };
  const result = visit(value, '');
  return { value: result, unresolved };
}
