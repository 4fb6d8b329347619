/**
 * The order in which the `ECF` rows of a data-test set are sent. The workbook's row order is not a
 * valid send order: a debit or credit note (E33, E34) may reference, through `NCFModificado`, a
 * document of a later row, and the tax authority refuses a note whose original it has not received.
 */
import type { TWorkbookRow } from './workbook-types.ts';

/** Types whose `NCFModificado` references a document that must have been sent before them. */
const NOTE_TYPES: ReadonlySet<string> = new Set(['33', '34']);

/**
 * The rows in workbook order, except that a note waits until the row of the document it references
 * has been placed and then follows it directly (several notes of one original keep their workbook
 * order). A note referencing no row of the set (an eNCF sent earlier) is not held back. Rows caught
 * in a reference cycle, which no valid set has, come last in workbook order.
 */
export function orderCertificationSends(rows: readonly TWorkbookRow[]): TWorkbookRow[] {
  const encfOf = (row: TWorkbookRow): string | undefined => row.values['ENCF'] ?? row.values['eNCF'];
  const inSet = new Set(rows.map(encfOf).filter((encf): encf is string => encf !== undefined));
  const referenceOf = (row: TWorkbookRow): string | null => {
    const type = row.values['TipoeCF'];
    const reference = row.values['NCFModificado'];
    if (type === undefined || !NOTE_TYPES.has(type) || reference === undefined) return null;
    return inSet.has(reference) && reference !== encfOf(row) ? reference : null;
  };

  const ordered: TWorkbookRow[] = [];
  const placed = new Set<string>();
  const waiting = new Map<string, TWorkbookRow[]>();
  const place = (row: TWorkbookRow): void => {
    ordered.push(row);
    const encf = encfOf(row);
    if (encf === undefined) return;
    placed.add(encf);
    const followers = waiting.get(encf) ?? [];
    waiting.delete(encf);
    for (const follower of followers) place(follower);
  };
  for (const row of rows) {
    const reference = referenceOf(row);
    if (reference === null || placed.has(reference)) {
      place(row);
      continue;
    }
    waiting.set(reference, [...(waiting.get(reference) ?? []), row]);
  }
  const left = new Set([...waiting.values()].flat());
  ordered.push(...rows.filter((row) => left.has(row)));
  return ordered;
}
