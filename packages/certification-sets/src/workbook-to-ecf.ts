/**
 * One workbook row → the tax-authority JSON fiscal-core validates, builds and signs. Every column
 * is an element by name, nested by the XSD order of the row's type; texts are copied exactly as
 * written, since the tax authority compares every field literally.
 */
import type { TXsdOrderTable } from '@ecf/fiscal-core';
import {
  ecfTableOf,
  isKnownColumn,
  isNonElementColumn,
  resolveColumn,
  rfceTable,
  type TPathStep,
} from './workbook-columns.ts';
import {
  WORKBOOK_ERROR_CODES,
  type TTaxauthTree,
  type TWorkbookError,
  type TWorkbookRow,
} from './workbook-types.ts';

export type TWorkbookDocumentResult =
  | { readonly ok: true; readonly type: string; readonly document: TTaxauthTree }
  | { readonly ok: false; readonly errors: readonly TWorkbookError[] };

type TBuildNode = Map<string, TBuildEntry>;
type TBuildEntry =
  | { readonly kind: 'leaf'; readonly value: string; readonly column: string }
  | { readonly kind: 'group'; readonly node: TBuildNode }
  | { readonly kind: 'repeated'; readonly occurrences: Map<number, TBuildEntry> };

/** An `ECF`-sheet row → `{ ECF: { Encabezado: …, DetallesItems: …, … } }` by its `TipoeCF`. */
export function workbookRowToEcf(row: TWorkbookRow): TWorkbookDocumentResult {
  const type = row.values['TipoeCF'];
  const table = type === undefined ? null : ecfTableOf(type);
  if (type === undefined || table === null) {
    return {
      ok: false,
      errors: [
        {
          sheet: row.sheet,
          row: row.row,
          column: 'TipoeCF',
          code: WORKBOOK_ERROR_CODES.WORKBOOK_TYPE_INVALID,
          message: `${row.sheet} row ${row.row}: TipoeCF ${JSON.stringify(type ?? '')} is not an e-CF type with a schema`,
        },
      ],
    };
  }
  return treeOfRow(row, table, type);
}

/** An `RFCE`-sheet row → `{ RFCE: … }`. `CodigoSeguridadeCF` stays absent when the workbook leaves it `#e`. */
export function workbookRowToRfce(row: TWorkbookRow): TWorkbookDocumentResult {
  return treeOfRow(row, rfceTable(), row.values['TipoeCF'] ?? '32');
}

function treeOfRow(row: TWorkbookRow, table: TXsdOrderTable, type: string): TWorkbookDocumentResult {
  const errors: TWorkbookError[] = [];
  const root: TBuildNode = new Map();
  const locate = (column: string) => ({ sheet: row.sheet, row: row.row, column });
  for (const [column, value] of Object.entries(row.values)) {
    if (isNonElementColumn(column)) continue;
    const target = resolveColumn(table, column);
    if (target === null) {
      const isKnown = isKnownColumn(row.sheet, column);
      errors.push({
        ...locate(column),
        code: isKnown
          ? WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_NOT_IN_TYPE
          : WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_UNKNOWN,
        message: isKnown
          ? `${row.sheet} row ${row.row}, column ${JSON.stringify(column)}: the ${table.root} of type ${type} has no such element`
          : `${row.sheet} row ${row.row}, column ${JSON.stringify(column)}: no e-CF element has that name`,
      });
      continue;
    }
    if (!insertLeaf(root, target.steps, value, column)) {
      errors.push({
        ...locate(column),
        code: WORKBOOK_ERROR_CODES.WORKBOOK_COLUMN_DUPLICATE,
        message: `${row.sheet} row ${row.row}, column ${JSON.stringify(column)}: another column already gave this element`,
      });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, type, document: { [table.root]: serialize(root, table, table.root) } };
}

/** Adds one leaf; false when the same occurrence of the element already has a value. */
function insertLeaf(root: TBuildNode, steps: readonly TPathStep[], value: string, column: string): boolean {
  let node = root;
  for (let position = 0; position < steps.length; position += 1) {
    const step = steps[position] as TPathStep;
    const isLast = position === steps.length - 1;
    if (step.occurrence === null) {
      const existing = node.get(step.name);
      if (isLast) {
        if (existing !== undefined) return false;
        node.set(step.name, { kind: 'leaf', value, column });
        return true;
      }
      if (existing?.kind === 'group') {
        node = existing.node;
      } else {
        const group: TBuildNode = new Map();
        node.set(step.name, { kind: 'group', node: group });
        node = group;
      }
      continue;
    }
    let repeated = node.get(step.name);
    if (repeated?.kind !== 'repeated') {
      repeated = { kind: 'repeated', occurrences: new Map() };
      node.set(step.name, repeated);
    }
    const occurrence = repeated.occurrences.get(step.occurrence);
    if (isLast) {
      if (occurrence !== undefined) return false;
      repeated.occurrences.set(step.occurrence, { kind: 'leaf', value, column });
      return true;
    }
    if (occurrence?.kind === 'group') {
      node = occurrence.node;
    } else {
      const group: TBuildNode = new Map();
      repeated.occurrences.set(step.occurrence, { kind: 'group', node: group });
      node = group;
    }
  }
  return true;
}

/**
 * Writes a built node in the schema's order. Occurrences keep their relative order and close
 * ranks (`Item[1]`, `Item[3]` with nothing in `Item[2]` become two items): the workbook's
 * absent cells are not elements.
 */
function serialize(node: TBuildNode, table: TXsdOrderTable, elementPath: string): TTaxauthTree {
  const tree: TTaxauthTree = {};
  for (const child of table.elements[elementPath] ?? []) {
    const entry = node.get(child.name);
    if (entry === undefined) continue;
    const childPath = `${elementPath}/${child.name}`;
    if (entry.kind === 'repeated') {
      tree[child.name] = [...entry.occurrences.entries()]
        .sort(([left], [right]) => left - right)
        .map(([, occurrence]) =>
          occurrence.kind === 'leaf'
            ? occurrence.value
            : serialize(
                occurrence.kind === 'group' ? occurrence.node : new Map<string, TBuildEntry>(),
                table,
                childPath,
              ),
        );
      continue;
    }
    tree[child.name] = entry.kind === 'leaf' ? entry.value : serialize(entry.node, table, childPath);
  }
  return tree;
}
