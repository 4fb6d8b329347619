/**
 * Reads a stored e-CF XML (signed or not) back into the internal tree, so that anything printed or
 * re-derived from a document comes from the bytes that were actually signed and sent, never from a
 * second copy of the submission.
 */
import { DOMParser } from '@xmldom/xmldom';
import type { Element as XmlElement } from '@xmldom/xmldom';
import { REPEATED_ELEMENTS } from '../input/element-kinds.ts';
import type { TEcfDocument } from '../model/ecf-tree.ts';
import { hasMarkupDeclaration } from './markup-declaration.ts';

type TMutableTree = { [elementName: string]: string | TMutableTree | Array<string | TMutableTree> };

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/**
 * Parses the XML of an e-CF into the element tree (`TEcfDocument`), the inverse of `buildEcfXml`:
 * leaves are the element text as written, elements the XSDs declare repeatable (`Item`,
 * `TelefonoEmisor`, `FormaDePago`, `SubDescuento`, ...) are always arrays, and the root's
 * `Signature` is ignored.
 *
 * Returns `undefined` when the text is not one well-formed `ECF` document of plain elements: a
 * DOCTYPE (refused so no entity is ever expanded), a parse error, another root, mixed content,
 * attributes on e-CF elements or an element given twice where the schemas allow it once.
 */
export function readEcfXml(xml: string): TEcfDocument | undefined {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (hasMarkupDeclaration(text)) return undefined;
  let failed = false;
  const parser = new DOMParser({
    onError: (level) => {
      if (level !== 'warning') failed = true;
    },
  });
  let root: XmlElement | null;
  try {
    root = parser.parseFromString(text, 'text/xml').documentElement;
  } catch {
    return undefined;
  }
  if (failed || root === null || root.localName !== 'ECF' || root.namespaceURI !== null) return undefined;
  const tree = readElement(root, true);
  return tree === undefined || typeof tree === 'string' ? undefined : { ECF: tree };
}

/** The tree or text of one element; `undefined` for anything the tree cannot represent. */
function readElement(element: XmlElement, isRoot: boolean): TMutableTree | string | undefined {
  // The root carries namespace declarations (xmlns:xsi, xmlns:xsd); inner elements carry none.
  if (!isRoot && element.attributes.length > 0) return undefined;
  const children: XmlElement[] = [];
  let text = '';
  for (let node = element.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE) children.push(node as XmlElement);
    else if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE)
      text += node.nodeValue ?? '';
  }
  if (children.length === 0) return text;
  // Indentation between elements is tolerated; real text beside child elements is not.
  if (!/^[ \t\r\n]*$/.test(text)) return undefined;

  const tree: TMutableTree = {};
  for (const child of children) {
    const name = child.localName ?? child.nodeName;
    if (isRoot && name === 'Signature') continue;
    if (child.prefix !== null && child.prefix !== undefined) return undefined;
    const value = readElement(child, false);
    if (value === undefined) return undefined;
    if (REPEATED_ELEMENTS.has(name)) {
      const list = tree[name];
      if (Array.isArray(list)) list.push(value);
      else tree[name] = [value];
    } else if (Object.hasOwn(tree, name)) {
      return undefined;
    } else {
      tree[name] = value;
    }
  }
  return tree;
}
