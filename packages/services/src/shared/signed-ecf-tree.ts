/**
 * Reading a signed e-CF back into its element tree, for what is derived from the bytes actually
 * signed and sent: the RFCE of an E32 below RD$250,000, the parties a receiver delivery names.
 */
import type { TEcfDocument, TEcfTree, TEcfValue } from '@ecf/fiscal-core';

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? '';
  });
}

type TFrame = { name: string; members: Map<string, Array<string | TEcfTree>>; text: string };

/**
 * The element tree of a signed e-CF as written by fiscal-core (elements and text only; the
 * `Signature` is left out). Repeated elements become arrays, single ones a value, as the tree
 * model wants. Returns undefined when the XML is not an `ECF` document.
 */
export function readSignedEcfTree(xml: string): TEcfDocument | undefined {
  const token =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  const stack: TFrame[] = [];
  let skipDepth = 0;
  let root: TEcfTree | undefined;
  let rootName: string | undefined;
  for (const match of xml.matchAll(token)) {
    const [, closing, name, , selfClosing, text] = match;
    if (name === undefined) {
      if (text !== undefined && skipDepth === 0 && stack.length > 0) (stack.at(-1) as TFrame).text += text;
      continue;
    }
    const localName = name.includes(':') ? (name.split(':').at(-1) ?? name) : name;
    if (skipDepth > 0 || (localName === 'Signature' && !closing)) {
      if (closing) skipDepth -= 1;
      else if (!selfClosing) skipDepth += 1;
      continue;
    }
    if (!closing) {
      stack.push({ name: localName, members: new Map(), text: '' });
      if (!selfClosing) continue;
    }
    const frame = stack.pop();
    if (frame === undefined || frame.name !== localName) return undefined;
    const value: string | TEcfTree = frame.members.size > 0 ? treeOf(frame) : unescapeXml(frame.text.trim());
    const parent = stack.at(-1);
    if (parent === undefined) {
      root = typeof value === 'string' ? {} : value;
      rootName = frame.name;
      continue;
    }
    const list = parent.members.get(frame.name) ?? [];
    list.push(value);
    parent.members.set(frame.name, list);
  }
  if (rootName !== 'ECF' || root === undefined || stack.length > 0) return undefined;
  return { ECF: root };
}

function treeOf(frame: TFrame): TEcfTree {
  const tree: Record<string, TEcfValue> = {};
  for (const [name, values] of frame.members)
    tree[name] = values.length === 1 ? (values[0] as string | TEcfTree) : values;
  return tree;
}

/** The text of the leaf at `path` below `value`, or undefined when absent or empty. */
export function leafOf(value: TEcfValue | undefined, path: readonly string[]): string | undefined {
  let current: TEcfValue | undefined = value;
  for (const name of path) {
    if (current === undefined || typeof current === 'string' || Array.isArray(current)) return undefined;
    current = (current as TEcfTree)[name];
  }
  return typeof current === 'string' && current !== '' ? current : undefined;
}
