/**
 * The tax authority's literal comparison of a certification reception with its workbook row: the
 * row (turned into the document's tree by @ecf/certification-sets) and the received XML are both
 * flattened into their leaves, keyed by element path and occurrence, and compared text for text
 * (`15.00` is not `15`). The XML reaching here has passed the XSD and the signature check, so a
 * small tokenizer over plain elements is enough; nothing is expanded (the five predefined
 * entities and character references only).
 */
import type { TXsdOrderTable } from '@ecf/fiscal-core';
import type { TTaxauthTree } from '@ecf/certification-sets';
import { ECF_MESSAGES, fill } from '../messages.ts';
import { decodeText } from '../xml.ts';

/** One leaf: where it is (`key`: every element with its occurrence), how it is named, its text. */
export type TLeaf = { readonly key: string; readonly field: string; readonly value: string };

/** A field whose received text is not the workbook's; null = absent on that side. */
export type TFieldMismatch = {
  readonly field: string;
  readonly expected: string | null;
  readonly received: string | null;
};

/**
 * The field's name as the workbook's headers write it: the element, with the occurrence of every
 * repeated element of its path from the outermost in (`CantidadItem[2]`, `TipoCodigo[1][2]`,
 * `MontoTotal`). `table` tells which elements repeat; without it no index is written.
 */
function fieldName(
  names: readonly string[],
  occurrences: readonly number[],
  table: TXsdOrderTable | undefined,
): string {
  let field = names[names.length - 1] ?? '';
  let path = table?.root ?? '';
  const indices: number[] = [];
  names.forEach((name, position) => {
    const child = table?.elements[path]?.find((candidate) => candidate.name === name);
    if (child !== undefined && child.maxOccurs > 1) indices.push(occurrences[position] ?? 1);
    path = `${path}/${name}`;
  });
  for (const index of indices) field += `[${index}]`;
  return field;
}

function keyOf(names: readonly string[], occurrences: readonly number[]): string {
  return names.map((name, position) => `${name}#${occurrences[position] ?? 1}`).join('/');
}

/** The leaves of a tree `{ <root>: { … } }` built from a workbook row, in the tree's order. */
export function leavesOfTree(tree: TTaxauthTree, table: TXsdOrderTable | undefined): TLeaf[] {
  const leaves: TLeaf[] = [];
  const root = Object.values(tree)[0];
  const visit = (node: TTaxauthTree, names: string[], occurrences: number[]): void => {
    for (const [name, value] of Object.entries(node)) {
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, index) => {
        const itemNames = [...names, name];
        const itemOccurrences = [...occurrences, index + 1];
        if (typeof item === 'string') {
          leaves.push({
            key: keyOf(itemNames, itemOccurrences),
            field: fieldName(itemNames, itemOccurrences, table),
            value: item,
          });
        } else {
          visit(item, itemNames, itemOccurrences);
        }
      });
    }
  };
  if (root !== undefined && typeof root !== 'string' && !Array.isArray(root)) visit(root, [], []);
  return leaves;
}

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|</g;

type TFrame = {
  /** The element's own name (the root's too, whose name is not part of the paths). */
  readonly name: string;
  readonly names: string[];
  readonly occurrences: number[];
  readonly counts: Map<string, number>;
  text: string;
  hasChildren: boolean;
};

/**
 * The leaves of a received document, in document order; the root's `Signature` is left out.
 * Undefined when the text is not one tree of plain elements (never for a document that passed the XSD).
 */
export function leavesOfXml(xml: string, table: TXsdOrderTable | undefined): TLeaf[] | undefined {
  const leaves: TLeaf[] = [];
  const stack: TFrame[] = [];
  let rootSeen = false;
  /** Depth inside the root's Signature (skipped whole); 0 outside it. */
  let skipping = 0;
  for (const match of xml.replace(/^\uFEFF/, '').matchAll(TOKEN)) {
    const [whole, cdata, closing, name, , selfClosing, text] = match;
    if (whole.startsWith('<!--') || whole.startsWith('<?')) continue;
    if (whole === '<') return undefined;
    if (text !== undefined || cdata !== undefined) {
      if (skipping > 0) continue;
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if ((text ?? '').trim() !== '') return undefined;
        continue;
      }
      top.text += cdata ?? decodeText(text ?? '');
      continue;
    }
    if (name === undefined) return undefined;
    if (skipping > 0) {
      if (closing === '/') skipping -= 1;
      else if (selfClosing !== '/') skipping += 1;
      continue;
    }
    if (closing === '/') {
      const frame = stack.pop();
      if (frame === undefined || frame.name !== name) return undefined;
      if (!frame.hasChildren && frame.names.length > 0) {
        leaves.push({
          key: keyOf(frame.names, frame.occurrences),
          field: fieldName(frame.names, frame.occurrences, table),
          value: frame.text,
        });
      }
      continue;
    }
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      // The root: its own name is not part of the paths (the workbook's trees start inside it).
      if (rootSeen) return undefined;
      rootSeen = true;
      if (selfClosing !== '/')
        stack.push({ name, names: [], occurrences: [], counts: new Map(), text: '', hasChildren: false });
      continue;
    }
    if (parent.names.length === 0 && name === 'Signature') {
      if (selfClosing !== '/') skipping = 1;
      continue;
    }
    parent.hasChildren = true;
    const occurrence = (parent.counts.get(name) ?? 0) + 1;
    parent.counts.set(name, occurrence);
    const frame: TFrame = {
      name,
      names: [...parent.names, name],
      occurrences: [...parent.occurrences, occurrence],
      counts: new Map(),
      text: '',
      hasChildren: false,
    };
    if (selfClosing === '/') {
      leaves.push({
        key: keyOf(frame.names, frame.occurrences),
        field: fieldName(frame.names, frame.occurrences, table),
        value: '',
      });
    } else {
      stack.push(frame);
    }
  }
  return rootSeen && stack.length === 0 ? leaves : undefined;
}

/** The last element name of a leaf's key. */
function elementOf(leaf: TLeaf): string {
  const last = leaf.key.slice(leaf.key.lastIndexOf('/') + 1);
  return last.slice(0, last.indexOf('#'));
}

/**
 * Every difference between the workbook's leaves and the received ones: a leaf of the row absent
 * or with other text, then a received leaf the row does not have. Elements named in `ignored`
 * (the signing time, a summary's security code) are not compared; those in `amounts` are compared
 * as amounts (`7080` and `7080.00` are equal), every other leaf as text.
 */
export function compareLeaves(
  expected: readonly TLeaf[],
  received: readonly TLeaf[],
  options: { ignored?: ReadonlySet<string>; amounts?: ReadonlySet<string> } = {},
): TFieldMismatch[] {
  const ignored = options.ignored ?? new Set<string>();
  const amounts = options.amounts ?? new Set<string>();
  const receivedByKey = new Map(received.map((leaf) => [leaf.key, leaf]));
  const expectedKeys = new Set(expected.map((leaf) => leaf.key));
  const mismatches: TFieldMismatch[] = [];
  for (const leaf of expected) {
    const element = elementOf(leaf);
    if (ignored.has(element)) continue;
    const other = receivedByKey.get(leaf.key);
    const equal =
      other !== undefined &&
      (amounts.has(element) ? sameAmount(leaf.value, other.value) : leaf.value === other.value);
    if (!equal) mismatches.push({ field: leaf.field, expected: leaf.value, received: other?.value ?? null });
  }
  for (const leaf of received) {
    if (expectedKeys.has(leaf.key) || ignored.has(elementOf(leaf))) continue;
    mismatches.push({ field: leaf.field, expected: null, received: leaf.value });
  }
  return mismatches;
}

/** Two decimal texts of the same amount (`7080`, `7080.00`); anything else compares as text. */
function sameAmount(left: string, right: string): boolean {
  const normalize = (text: string): string | null => {
    const match = /^(-?)0*(\d*?)(?:\.(\d*?)0*)?$/.exec(text.trim());
    if (match === null || text.trim() === '') return null;
    return `${match[1] ?? ''}${match[2] === '' ? '0' : match[2]}.${match[3] ?? ''}`;
  };
  const a = normalize(left);
  return a !== null ? a === normalize(right) : left === right;
}

/**
 * The rejection text of one mismatch, in the tax authority's words: the workbook's value first,
 * then the value received (`El valor del campo CantidadItem[1] (15.00) no coincide con el valor
 * (15)`). An absent side is written as empty parentheses.
 */
export function mismatchText(mismatch: TFieldMismatch): string {
  return fill(ECF_MESSAGES.certificationMismatch.text, {
    campo: mismatch.field,
    esperado: mismatch.expected ?? '',
    recibido: mismatch.received ?? '',
  });
}
