/**
 * Just enough XML reading for the simulator. Documents reaching the judge have passed the XSD
 * (except in load-test mode), so the elements read here are flat text leaves without namespaces;
 * a regular expression per element name is sufficient and keeps the simulator free of a parser.
 */

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five predefined entities and numeric character references. */
export function decodeText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The text of the first element `name` (exact tag name) in `xml`, trimmed; undefined when absent or empty. */
export function leafText(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`).exec(xml);
  const value = match?.[1] === undefined ? undefined : decodeText(match[1]).trim();
  return value === '' ? undefined : value;
}

/** The inner XML of the first element `name`, or undefined. */
export function blockOf(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];
}

/** The inner XML of every element `name` (not nested in itself). */
export function blocksOf(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g'))].map(
    (match) => match[1] ?? '',
  );
}

/** The local name of the root element, skipping a BOM, declaration, comments and processing instructions. */
export function rootNameOf(xml: string): string | undefined {
  const body = xml.replace(/^\uFEFF/, '').replace(/^(\s*(<\?[\s\S]*?\?>|<!--[\s\S]*?-->))*\s*/, '');
  return /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(body)?.[2];
}

/** Whether the text looks like an XML document at all (the tax authority's "Tipo de archivo" check). */
export function looksLikeXml(text: string): boolean {
  return rootNameOf(text) !== undefined;
}

type TXmlValue = string | number | boolean | null | undefined | TXmlValue[] | { [key: string]: TXmlValue };

function writeValue(name: string, value: TXmlValue): string {
  if (value === null || value === undefined) return `<${name} />`;
  if (Array.isArray(value)) return value.map((item) => writeValue(name, item)).join('');
  if (typeof value === 'object') {
    return `<${name}>${Object.entries(value)
      .map(([key, inner]) => writeValue(key, inner))
      .join('')}</${name}>`;
  }
  return `<${name}>${escapeText(String(value))}</${name}>`;
}

/** Serializes a JSON answer as the tax authority's XML alternative (`Accept: application/xml`). */
export function toXml(rootName: string, value: Readonly<Record<string, unknown>>): string {
  return `<?xml version="1.0" encoding="utf-8"?>${writeValue(rootName, value as TXmlValue)}`;
}
