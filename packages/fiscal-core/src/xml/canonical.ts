/**
 * A tiny XML writer whose output is already in Canonical XML 1.0 form (C14N, without comments):
 * no XML declaration inside the signed content, no whitespace between elements, attributes
 * written in the order given (callers pass them sorted as C14N requires), empty elements never
 * produced (callers omit absent values), and text escaped exactly as C14N escapes it.
 * Because the bytes we emit are canonical by construction, signing needs no canonicalizer.
 */

/** Escapes character data as Canonical XML 1.0 does: `&`, `<`, `>` and carriage return. */
export function escapeText(value: string): string {
  if (!TEXT_NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[&<>\r]/g, (character) => TEXT_ESCAPES[character] ?? character);
}

/** Escapes an attribute value as Canonical XML 1.0 does: `&`, `<`, `"`, tab, newline, carriage return. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<"\t\n\r]/g, (character) => ATTRIBUTE_ESCAPES[character] ?? character);
}

const TEXT_NEEDS_ESCAPE = /[&<>\r]/;
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};

/** A node to write: an element with children, or a leaf with text. `undefined` children are skipped. */
export type TXmlNode =
  | {
      name: string;
      attributes?: ReadonlyArray<readonly [string, string]>;
      children: ReadonlyArray<TXmlNode | undefined>;
    }
  | { name: string; text: string };

/**
 * Writes a node as canonical XML. Elements with no children left after skipping `undefined`
 * are omitted entirely, so optional groups never appear as empty tags.
 */
export function writeXml(node: TXmlNode): string {
  if ('text' in node) {
    return `<${node.name}>${escapeText(node.text)}</${node.name}>`;
  }
  let inner = '';
  for (const child of node.children) {
    if (child !== undefined) inner += writeXml(child);
  }
  const attributes = (node.attributes ?? [])
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  if (inner === '' && attributes === '') return '';
  return `<${node.name}${attributes}>${inner}</${node.name}>`;
}

/** A leaf element, or `undefined` when the value is absent or empty (no empty tags are ever emitted). */
export function leaf(name: string, value: string | number | undefined | null): TXmlNode | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value);
  return text === '' ? undefined : { name, text };
}

/** An element whose children are given; it disappears when none of them is present. */
export function element(name: string, ...children: ReadonlyArray<TXmlNode | undefined>): TXmlNode {
  return { name, children };
}
