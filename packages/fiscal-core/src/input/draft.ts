import type { TEcfTree, TEcfType } from '../model/ecf-tree.ts';

/** A tree under construction; frozen into {@link TEcfTree} once validation passes. */
export type TMutableTree = { [elementName: string]: TMutableValue | undefined };
/** A leaf, an element with children, or the occurrences of a repeated element. */
export type TMutableValue = string | TMutableTree | Array<string | TMutableTree>;

/** The two submission formats: root `ECF`, or the simplified contract. */
export type TSubmissionFormat = 'taxauth_json' | 'simplified';

/**
 * A submission converted to the tax authority's tree, with the way back to the client's names:
 * rules inspect the tree with canonical tree paths (`ECF.DetallesItems.Item[2].PrecioUnitarioItem`)
 * and report on the path the client wrote (`lines[2].unitPrice`, or `ECF.DetallesItems.Item.PrecioUnitarioItem`
 * when a single item was sent as an object).
 */
export type TDocumentDraft = {
  readonly format: TSubmissionFormat;
  readonly root: TMutableTree;
  readonly type: TEcfType | null;
  /** Tree path -> client path. */
  readonly paths: Map<string, string>;
};

/**
 * The client's path for a tree path: the exact mapping, or the nearest mapped ancestor's. In the
 * tax-authority format an absent element keeps its own name under that ancestor
 * (`ECF.Encabezado.IdDoc.FechaVencimientoSecuencia`); in the simplified contract the concept's
 * property is the ancestor's mapping itself.
 */
export function clientPathOf(draft: TDocumentDraft, treePath: string): string {
  let candidate = treePath;
  while (true) {
    const mapped = draft.paths.get(candidate);
    if (mapped !== undefined)
      return draft.format === 'taxauth_json' ? mapped + treePath.slice(candidate.length) : mapped;
    const cut = Math.max(candidate.lastIndexOf('.'), candidate.lastIndexOf('['));
    if (cut <= 0) return draft.format === 'taxauth_json' ? treePath : '';
    candidate = candidate.slice(0, cut);
  }
}

// The rules read the same few hundred paths for every document: each is split once per process.
const SPLIT_PATHS = new Map<string, ReadonlyArray<string | number>>();
const SPLIT_PATHS_KEPT = 4_096;

/** `splitPath`, remembered: a bounded cache (cleared when full: a document's item paths are many but cheap to split again). */
function segmentsOf(path: string): ReadonlyArray<string | number> {
  let segments = SPLIT_PATHS.get(path);
  if (segments === undefined) {
    segments = splitPath(path);
    if (SPLIT_PATHS.size >= SPLIT_PATHS_KEPT) SPLIT_PATHS.clear();
    SPLIT_PATHS.set(path, segments);
  }
  return segments;
}

/** `ECF.DetallesItems.Item[2].MontoItem` → `['ECF', 'DetallesItems', 'Item', 2, 'MontoItem']` (a hot path: no regex). */
function splitPath(path: string): Array<string | number> {
  const segments: Array<string | number> = [];
  let position = 0;
  while (position < path.length) {
    let end = position;
    while (end < path.length && path.charCodeAt(end) !== DOT && path.charCodeAt(end) !== OPEN) end += 1;
    if (end === position) badPath(path);
    segments.push(path.slice(position, end));
    while (end < path.length && path.charCodeAt(end) === OPEN) {
      const close = path.indexOf(']', end);
      if (close <= end + 1) badPath(path);
      let index = 0;
      for (let digit = end + 1; digit < close; digit += 1) {
        const code = path.charCodeAt(digit) - ZERO;
        if (code < 0 || code > 9) badPath(path);
        index = index * 10 + code;
      }
      segments.push(index);
      end = close + 1;
    }
    if (end < path.length) {
      if (path.charCodeAt(end) !== DOT || end + 1 === path.length) badPath(path);
      end += 1;
    }
    position = end;
  }
  return segments;
}

function badPath(path: string): never {
  throw new Error(`Bad tree path ${path}`);
}

const DOT = 46;
const OPEN = 91;
const ZERO = 48;

/** The value at a tree path (`ECF.Encabezado.IdDoc.eNCF`, `ECF.DetallesItems.Item[0]`). */
export function valueAt(root: TMutableTree | TEcfTree, path: string): TMutableValue | undefined {
  let current: unknown = root;
  for (const segment of segmentsOf(path)) {
    if (current === undefined || current === null || typeof current === 'string') return undefined;
    if (typeof segment === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = (current as unknown[])[segment];
    } else {
      if (Array.isArray(current)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current as TMutableValue | undefined;
}

/** Text of a leaf, undefined when absent or not a leaf. */
export function textAt(root: TMutableTree | TEcfTree, path: string): string | undefined {
  const value = valueAt(root, path);
  return typeof value === 'string' ? value : undefined;
}

/** Elements of a repeated element (always arrays in a draft); objects only. */
export function elementsAt(root: TMutableTree | TEcfTree, path: string): TMutableTree[] {
  const value = valueAt(root, path);
  if (value === undefined || typeof value === 'string') return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is TMutableTree => typeof item === 'object');
}

/** Leaves of a repeated leaf element (`TelefonoEmisor`). */
export function leavesAt(root: TMutableTree | TEcfTree, path: string): string[] {
  const value = valueAt(root, path);
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Sets a leaf or subtree, creating parents (objects only). */
export function setAt(root: TMutableTree, path: string, value: TMutableValue): void {
  const segments = path.split('.');
  let current = root;
  for (const segment of segments.slice(0, -1)) {
    const next = current[segment];
    if (next === undefined || typeof next === 'string' || Array.isArray(next)) {
      const created: TMutableTree = {};
      current[segment] = created;
      current = created;
    } else {
      current = next;
    }
  }
  current[segments[segments.length - 1] ?? ''] = value;
}

/** Removes empty objects and arrays so the tree never carries empty elements (the tax authority rejects empty tags). */
export function pruneEmpty(tree: TMutableTree): TMutableTree {
  for (const [name, value] of Object.entries(tree)) {
    if (value === undefined) {
      delete tree[name];
      continue;
    }
    if (typeof value === 'string') continue;
    if (Array.isArray(value)) {
      const kept = value
        .map((item) => (typeof item === 'string' ? item : pruneEmpty(item)))
        .filter((item) => typeof item === 'string' || Object.keys(item).length > 0);
      if (kept.length === 0) delete tree[name];
      else tree[name] = kept;
      continue;
    }
    pruneEmpty(value);
    if (Object.keys(value).length === 0) delete tree[name];
  }
  return tree;
}
