/**
 * Where a column of the tax authority's certification workbook goes in the e-CF tree. The workbook
 * names every column after its element (format document names) with bracket indices for repeated
 * ancestors; the element paths come from the official XSD order tables of fiscal-core, so the
 * mapping follows the schemas rather than the particular rows of one sample workbook.
 */
import { XSD_ORDER_TABLES, type TXsdOrderTable } from '@ecf/fiscal-core';

/** One step of an element path: the element and, for a repeated one, its 1-based occurrence. */
export type TPathStep = { readonly name: string; readonly occurrence: number | null };

/** A resolved column: the steps from the root's first child down to the leaf. */
export type TColumnTarget = { readonly steps: readonly TPathStep[] };

type TLeafPath = {
  readonly names: readonly string[];
  /** For each name, whether that element repeats (`maxOccurs` > 1). */
  readonly repeated: readonly boolean[];
};

/**
 * Header quirks of the workbook: the element each misspelt header stands for. `NumeroLineaDoR` is
 * the workbook's name for `NumeroLinea` of a global discount or surcharge (the item's keeps its
 * own name), so the two never compete for the same columns.
 */
const HEADER_ALIASES: ReadonlyMap<string, { readonly name: string; readonly under?: string }> = new Map([
  ['ENCF', { name: 'eNCF' }],
  ['MontosubRecargo', { name: 'MontoSubRecargo' }],
  ['NumeroLineaDoR', { name: 'NumeroLinea', under: 'DescuentoORecargo' }],
]);

/** Elements reachable only through an alias (see `HEADER_ALIASES`), never through their own name. */
const ALIAS_ONLY_PARENTS: ReadonlyMap<string, string> = new Map([['NumeroLinea', 'DescuentoORecargo']]);

/**
 * Columns that are not elements: the case id, and the workbook's marker for the page's
 * additional-tax group (its two leaves have columns of their own).
 */
const NON_ELEMENT_COLUMNS: ReadonlySet<string> = new Set([
  'CasoPrueba',
  'SubtotalImpuestoAdicionalPaginaTabla',
]);

/** Whether a header is one of the workbook's columns that are no element (whatever its indices). */
export function isNonElementColumn(header: string): boolean {
  const parsed = parseHeader(header);
  return parsed !== null && NON_ELEMENT_COLUMNS.has(parsed.name);
}

/** A header split into its element name (quirks undone, trailing spaces trimmed) and indices. */
export function parseHeader(
  header: string,
): { readonly name: string; readonly under: string | null; readonly indices: readonly number[] } | null {
  const match = /^([A-Za-z][A-Za-z0-9]*)((?:\[[1-9][0-9]*\])*)\s*$/.exec(header.trimEnd());
  if (match === null) return null;
  const base = match[1] ?? '';
  const indices = [...(match[2] ?? '').matchAll(/\[([0-9]+)\]/g)].map((found) => Number(found[1]));
  const alias = HEADER_ALIASES.get(base);
  return { name: alias?.name ?? base, under: alias?.under ?? null, indices };
}

const leafIndexes = new Map<TXsdOrderTable, ReadonlyMap<string, readonly TLeafPath[]>>();

/** Every leaf of a schema by element name, with its path from the root (cached per table). */
function leafIndexOf(table: TXsdOrderTable): ReadonlyMap<string, readonly TLeafPath[]> {
  const cached = leafIndexes.get(table);
  if (cached !== undefined) return cached;
  const index = new Map<string, TLeafPath[]>();
  const visit = (elementPath: string, names: string[], repeated: boolean[]): void => {
    for (const child of table.elements[elementPath] ?? []) {
      const childNames = [...names, child.name];
      const childRepeated = [...repeated, child.maxOccurs > 1];
      if (child.isComplex) {
        visit(`${elementPath}/${child.name}`, childNames, childRepeated);
        continue;
      }
      const list = index.get(child.name) ?? [];
      list.push({ names: childNames, repeated: childRepeated });
      index.set(child.name, list);
    }
  };
  visit(table.root, [], []);
  leafIndexes.set(table, index);
  return index;
}

/**
 * The element path a column stands for in one schema, or null when the schema has no such
 * element. Indices are given to the repeated elements of the path from the outermost in; a
 * repeated group the workbook does not index (`Subtotal`) is its first occurrence, and an index
 * beyond the repeated ones must be 1 and stand for a group that occurs once
 * (`SubtotalOtrosImpuesto[i][1]`, inside the page's `SubtotalImpuestoAdicional`).
 */
export function resolveColumn(table: TXsdOrderTable, header: string): TColumnTarget | null {
  const parsed = parseHeader(header);
  if (parsed === null) return null;
  const candidates = (leafIndexOf(table).get(parsed.name) ?? []).filter((candidate) => {
    if (parsed.under !== null) return candidate.names.includes(parsed.under);
    const reserved = ALIAS_ONLY_PARENTS.get(parsed.name);
    return reserved === undefined || !candidate.names.includes(reserved);
  });
  const repeatsOf = (candidate: TLeafPath): number => candidate.repeated.filter(Boolean).length;
  const exact = candidates.filter((candidate) => repeatsOf(candidate) === parsed.indices.length);
  const chosen =
    exact.length > 0
      ? exact
      : candidates.filter((candidate) => {
          const repeats = repeatsOf(candidate);
          if (repeats > parsed.indices.length) return parsed.indices.length === 0;
          const extra = parsed.indices.slice(repeats);
          return extra.length <= groupsAfterLastRepeat(candidate) && extra.every((index) => index === 1);
        });
  const target = chosen.length === 1 ? chosen[0] : undefined;
  if (target === undefined) return null;
  let next = 0;
  const steps = target.names.map((name, position): TPathStep => {
    if (target.repeated[position] !== true) return { name, occurrence: null };
    const occurrence = parsed.indices[next] ?? 1;
    next += 1;
    return { name, occurrence };
  });
  return { steps };
}

/** Non-repeated groups between the last repeated element of a path and its leaf (`SubtotalImpuestoAdicional`). */
function groupsAfterLastRepeat(candidate: TLeafPath): number {
  const lastRepeat = candidate.repeated.lastIndexOf(true);
  return candidate.names.length - 1 - (lastRepeat + 1);
}

/** The XSD order table of an e-CF type (`31` … `47`), or null for a type without a schema. */
export function ecfTableOf(type: string): TXsdOrderTable | null {
  return (XSD_ORDER_TABLES as Record<string, TXsdOrderTable | undefined>)[`E${type}`] ?? null;
}

/** The RFCE (consumer-invoice summary) order table. */
export function rfceTable(): TXsdOrderTable {
  const table = (XSD_ORDER_TABLES as Record<string, TXsdOrderTable | undefined>)['RFCE'];
  if (table === undefined) throw new Error('fiscal-core has no RFCE order table');
  return table;
}

/** The e-CF types the `ECF` sheet may hold (every type with a schema). */
export const ECF_SHEET_TYPES: readonly string[] = [
  '31',
  '32',
  '33',
  '34',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
];

/** Whether some e-CF type (for the `ECF` sheet) or the RFCE (for `RFCE`) has an element for the column. */
export function isKnownColumn(sheet: 'ECF' | 'RFCE', header: string): boolean {
  if (isNonElementColumn(header)) return true;
  if (sheet === 'RFCE') return resolveColumn(rfceTable(), header) !== null;
  return ECF_SHEET_TYPES.some((type) => {
    const table = ecfTableOf(type);
    return table !== null && resolveColumn(table, header) !== null;
  });
}
