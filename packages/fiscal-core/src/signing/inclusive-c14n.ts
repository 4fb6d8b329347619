/**
 * Parsing and inclusive Canonical XML 1.0 (without comments) for verifying signatures over XML that
 * someone else wrote, so that our verdict is the one any conforming implementation (xmlsec1, the
 * reference used by our tests; the tax authority's .NET) reaches on the same bytes.
 *
 * Parsing follows XML 1.0: only CR LF and a lone CR are line breaks. xmldom's default is XML 1.1's
 * list, which also turns U+0085, U+2028 (and, in 0.9, U+2029) into LF, so a name holding one of
 * them lost it in the parsed tree: a correct signature failed, and a signed line feed replaced by
 * U+0085 still verified.
 *
 * Canonicalization is xml-crypto's, with its departures from C14N 1.0 corrected where they change
 * the digest of a document xmlsec1 judges otherwise:
 * - a processing instruction is written as one (xml-crypto wrote its data as if it were text, so a
 *   text node replaced by a processing instruction with the same data kept the digest);
 * - the processing instructions around the root element belong to a same-document reference;
 * - namespace declarations are ordered by prefix and attributes by namespace URI then local name,
 *   both in code-point order (xml-crypto ordered prefixes with `localeCompare` and compared
 *   attributes on their URI and local name joined into one string);
 * - an attribute whose name only starts with `xmlns` (`xmlnsx="1"`) is an attribute, not a
 *   namespace declaration to leave out;
 * - the apex of a document subset (the `SignedInfo` that `SignatureValue` signs) carries the
 *   `xml:*` attributes it inherits, as C14N 1.0 requires.
 */
import { DOMParser } from '@xmldom/xmldom';
import type { Document as XmlDocument, Element as XmlElement, Node as XmlNode } from '@xmldom/xmldom';
import { C14nCanonicalization } from 'xml-crypto';
import { escapeAttribute } from '../xml/canonical.ts';

const ELEMENT_NODE = 1;
const PROCESSING_INSTRUCTION_NODE = 7;
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** XML 1.0 §2.11 end-of-line handling: CR LF and a lone CR become LF; nothing else does. */
function normalizeXml10LineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * Parses XML text as XML 1.0 does; the message of the first error (warnings aside) on failure,
 * including what xmldom lets through and libxml2 refuses (see {@link findXml10Violation}).
 */
export function parseXml10(xml: string): XmlDocument | string {
  let problem: string | undefined;
  const parser = new DOMParser({
    normalizeLineEndings: normalizeXml10LineEnds,
    onError: (level, message) => {
      if (level !== 'warning') problem ??= message;
    },
  });
  try {
    const document = parser.parseFromString(xml, 'text/xml');
    return problem ?? findXml10Violation(document) ?? document;
  } catch (error) {
    return problem ?? (error instanceof Error ? error.message : String(error));
  }
}

// XML 1.0 Char production: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF (surrogate pairs).
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * What xmldom accepts although XML 1.0 does not: characters outside the Char production, raw or as
 * character references (`&#1;`, `&#xFFFE;`, a lone surrogate). libxml2 (xmlsec1) refuses such a
 * document; so do we, instead of judging its signature.
 */
function findXml10Violation(document: XmlDocument): string | undefined {
  const pending: XmlNode[] = [];
  for (let child = document.firstChild; child !== null; child = child.nextSibling) pending.push(child);
  while (pending.length > 0) {
    const node = pending.pop() as XmlNode;
    const values = [node.nodeValue ?? ''];
    if (node.nodeType === ELEMENT_NODE) {
      for (const attribute of Array.from((node as XmlElement).attributes ?? [])) values.push(attribute.value);
      for (let child = node.firstChild; child !== null; child = child.nextSibling) pending.push(child);
    }
    for (const value of values) {
      const invalid = NOT_XML_CHARACTER.exec(value)?.[0];
      if (invalid !== undefined) {
        const codePoint = (invalid.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
        return `U+${codePoint} is not a character XML 1.0 allows.`;
      }
    }
  }
  return undefined;
}

type TAttribute = { name: string; value: string; namespaceURI: string; localName: string };
type TNamespace = { prefix: string; namespaceURI: string };

/** Orders two strings by Unicode code point, as C14N does (JavaScript's `<` compares UTF-16 code units). */
function compareCodePoints(left: string, right: string): number {
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const a = left.codePointAt(i) as number;
    const b = right.codePointAt(j) as number;
    if (a !== b) return a < b ? -1 : 1;
    i += a > 0xffff ? 2 : 1;
    j += b > 0xffff ? 2 : 1;
  }
  if (i < left.length) return 1;
  return j < right.length ? -1 : 0;
}

function renderProcessingInstruction(node: XmlNode): string {
  const { target, data } = node as unknown as { target: string; data: string };
  return data === '' ? `<?${target}?>` : `<?${target} ${data}?>`;
}

/** xml-crypto declares its nodes with the global `Node` type: the DOM's where the DOM types are loaded (the portal). */
type TC14nNode = Parameters<C14nCanonicalization['process']>[0];

class Canonicalizer extends C14nCanonicalization {
  constructor(
    private readonly apex?: XmlElement,
    private readonly inheritedXmlAttributes: readonly TAttribute[] = [],
  ) {
    super();
  }

  /** `process` of an xmldom node, whichever `Node` type xml-crypto's declaration resolves to. */
  processXml(node: XmlNode, options: Parameters<C14nCanonicalization['process']>[1]): string {
    // Unnecessary where the DOM types are absent (here), needed where they are loaded (the portal's build).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    return this.process(node as unknown as TC14nNode, options);
  }

  override nsCompare(a: TNamespace, b: TNamespace): number {
    return compareCodePoints(a.prefix, b.prefix);
  }

  override attrCompare(a: TAttribute, b: TAttribute): 1 | 0 | -1 {
    const order =
      compareCodePoints(a.namespaceURI, b.namespaceURI) || compareCodePoints(a.localName, b.localName);
    return order < 0 ? -1 : order > 0 ? 1 : 0;
  }

  override renderAttrs(node: XmlElement): string {
    const attributes: TAttribute[] = [];
    for (const attribute of Array.from(node.attributes ?? [])) {
      // Namespace declarations are namespace nodes, rendered by renderNs.
      if (attribute.name === 'xmlns' || attribute.prefix === 'xmlns') continue;
      attributes.push({
        name: attribute.name,
        value: attribute.value,
        namespaceURI: attribute.namespaceURI ?? '',
        localName: attribute.localName ?? attribute.name,
      });
    }
    if (node === this.apex) {
      for (const inherited of this.inheritedXmlAttributes) {
        if (!attributes.some((attribute) => attribute.name === inherited.name)) attributes.push(inherited);
      }
    }
    attributes.sort((a, b) => this.attrCompare(a, b));
    return attributes.map((attribute) => ` ${attribute.name}="${escapeAttribute(attribute.value)}"`).join('');
  }

  override processInner(
    node: XmlNode,
    prefixesInScope: unknown,
    defaultNs: unknown,
    defaultNsForPrefix: unknown,
    ancestorNamespaces: unknown,
    namespacesInScope?: TNamespace[],
  ): string {
    if (node.nodeType === PROCESSING_INSTRUCTION_NODE) return renderProcessingInstruction(node);
    return super.processInner(
      node,
      prefixesInScope,
      defaultNs,
      defaultNsForPrefix,
      ancestorNamespaces,
      namespacesInScope,
    );
  }
}

/** xmldom keeps the XML declaration as a processing instruction; it is not a node of the data model. */
function xmlDeclarationOf(document: XmlDocument): XmlNode | undefined {
  const first = document.firstChild;
  if (first === null || first.nodeType !== PROCESSING_INSTRUCTION_NODE) return undefined;
  return (first as unknown as { target: string }).target === 'xml' ? first : undefined;
}

/**
 * The canonical form of a whole document (a same-document `Reference URI=""`): the root element,
 * and the processing instructions before it (each followed by LF) and after it (each preceded by LF).
 * Comments are not part of it; the XML declaration and the whitespace outside the root are not nodes.
 */
export function canonicalizeDocument(document: XmlDocument): string {
  const canonicalizer = new Canonicalizer();
  let output = '';
  let isAfterRoot = false;
  for (let child = document.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) {
      output += canonicalizer.processXml(child, {});
      isAfterRoot = true;
    } else if (child.nodeType === PROCESSING_INSTRUCTION_NODE && child !== xmlDeclarationOf(document)) {
      const instruction = renderProcessingInstruction(child);
      output += isAfterRoot ? `\n${instruction}` : `${instruction}\n`;
    }
  }
  return output;
}

/**
 * The canonical form of the document subset rooted at `apex` (a `SignedInfo`): the apex renders
 * every namespace in scope and the `xml:*` attributes it inherits from its ancestors.
 */
export function canonicalizeSubset(apex: XmlElement): string {
  const namespaces: TNamespace[] = [];
  const inheritedXmlAttributes: TAttribute[] = [];
  // The apex's own namespace and its own declarations are rendered by renderNs; an ancestor's binding
  // of the same prefix is shadowed.
  const seenPrefixes = new Set<string>([apex.prefix ?? '']);
  for (const attribute of Array.from(apex.attributes ?? [])) {
    if (attribute.name === 'xmlns') seenPrefixes.add('');
    else if (attribute.prefix === 'xmlns') seenPrefixes.add(attribute.localName ?? '');
  }
  const seenXmlAttributes = new Set<string>();
  for (let ancestor = apex.parentNode; ancestor !== null; ancestor = ancestor.parentNode) {
    if (ancestor.nodeType !== ELEMENT_NODE) break;
    for (const attribute of Array.from((ancestor as XmlElement).attributes ?? [])) {
      const prefix =
        attribute.name === 'xmlns' ? '' : attribute.prefix === 'xmlns' ? attribute.localName : undefined;
      if (prefix !== undefined && prefix !== null) {
        // The nearest declaration of a prefix wins; an undeclaration (`xmlns=""`) leaves no namespace node.
        if (!seenPrefixes.has(prefix) && attribute.value !== '')
          namespaces.push({ prefix, namespaceURI: attribute.value });
        seenPrefixes.add(prefix);
      } else if (attribute.namespaceURI === XML_NAMESPACE && !seenXmlAttributes.has(attribute.name)) {
        seenXmlAttributes.add(attribute.name);
        inheritedXmlAttributes.push({
          name: attribute.name,
          value: attribute.value,
          namespaceURI: XML_NAMESPACE,
          localName: attribute.localName ?? attribute.name,
        });
      }
    }
  }
  return new Canonicalizer(apex, inheritedXmlAttributes).processXml(apex, {
    ancestorNamespaces: namespaces,
  });
}
