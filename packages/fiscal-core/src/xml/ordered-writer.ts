/**
 * Serializes an element tree (`TEcfTree`: member names are element names, leaves are formatted
 * strings, repeated elements are arrays) in the element order of an official XSD, as canonical XML.
 *
 * Member order in the tree carries no meaning; the order comes from the generated XSD tables. Anything
 * the schema does not declare at that place is reported, never silently dropped, except where the
 * caller's rules say otherwise (for example `Paginacion`, which the service never emits).
 */
import type { TEcfTree, TEcfValue } from '../model/ecf-tree.ts';
import { element, writeXml } from './canonical.ts';
import type { TXmlNode } from './canonical.ts';
import type { TXsdOrderTable } from './xsd-order-types.ts';
import { XML_ISSUE_CODES } from './xml-issues.ts';
import type { TXmlIssue, TXmlIssueCode } from './xml-issues.ts';

/** What to do with an element found at a schema path, before the schema itself is consulted. */
export type TElementRule = { action: 'drop' } | { action: 'reject'; code: TXmlIssueCode; message: string };

/** Rules keyed by slash-separated schema path (`ECF/Paginacion`). */
export type TElementRules = { readonly [schemaPath: string]: TElementRule };

// XML 1.0 Char production: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF (surrogate pairs).
const INVALID_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

type TContext = { table: TXsdOrderTable; rules: TElementRules; issues: TXmlIssue[] };

/** True for an element with children (an object that is not a list). */
export function isEcfTree(value: unknown): value is TEcfTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'child elements' : `a ${typeof value}`;
}

function writeComplex(
  context: TContext,
  schemaPath: string,
  name: string,
  tree: TEcfTree,
  issuePath: string,
): TXmlNode | undefined {
  const declared = context.table.elements[schemaPath];
  // The tables are generated from the same schemas the caller picked: a gap is a programming error.
  if (declared === undefined) throw new Error(`No XSD order for ${schemaPath} in ${context.table.file}`);
  const declaredNames = new Set(declared.map((child) => child.name));

  for (const [key, value] of Object.entries(tree)) {
    if (value === undefined) continue;
    const rule = context.rules[`${schemaPath}/${key}`];
    if (rule !== undefined) {
      if (rule.action === 'reject') context.issues.push({ code: rule.code, path: `${issuePath}.${key}`, message: rule.message });
      continue;
    }
    if (!declaredNames.has(key)) {
      context.issues.push({
        code: XML_ISSUE_CODES.ELEMENT_NOT_IN_XSD,
        path: `${issuePath}.${key}`,
        message: `${key} is not an element of ${issuePath} in ${context.table.file}.`,
        details: { allowed: declared.map((child) => child.name) },
      });
    }
  }

  const children: TXmlNode[] = [];
  const missing: TXmlIssue[] = [];
  for (const child of declared) {
    const childSchemaPath = `${schemaPath}/${child.name}`;
    const childIssuePath = `${issuePath}.${child.name}`;
    const value: TEcfValue | undefined = context.rules[childSchemaPath] === undefined ? tree[child.name] : undefined;
    const isList = Array.isArray(value);
    const occurrences: ReadonlyArray<unknown> = value === undefined ? [] : isList ? value : [value];
    if (occurrences.length > child.maxOccurs) {
      context.issues.push({
        code: XML_ISSUE_CODES.ELEMENT_OCCURS_EXCEEDED,
        path: childIssuePath,
        message: `${child.name} may occur at most ${child.maxOccurs} time(s) here; ${occurrences.length} given.`,
        details: { maxOccurs: child.maxOccurs, given: occurrences.length },
      });
    }
    let written = 0;
    occurrences.forEach((occurrence, index) => {
      const occurrencePath = isList ? `${childIssuePath}[${index}]` : childIssuePath;
      const node = child.isComplex
        ? writeComplexOccurrence(context, childSchemaPath, child.name, occurrence, occurrencePath)
        : writeLeafOccurrence(context, child.name, occurrence, occurrencePath);
      if (node !== undefined) {
        children.push(node);
        written += 1;
      }
    });
    // An element already reported (wrong shape, bad characters...) is not reported missing as well.
    if (written < child.minOccurs && !hasIssueUnder(context, childIssuePath)) {
      missing.push({
        code: XML_ISSUE_CODES.REQUIRED_ELEMENT_MISSING,
        path: childIssuePath,
        message: `${child.name} is required in ${issuePath} by ${context.table.file}.`,
        details: { minOccurs: child.minOccurs },
      });
    }
  }
  if (children.length === 0) return undefined;
  // A required child only matters when its parent is written; an omitted optional parent needs none.
  context.issues.push(...missing);
  return element(name, ...children);
}

function hasIssueUnder(context: TContext, path: string): boolean {
  return context.issues.some((issue) => issue.path === path || issue.path.startsWith(`${path}.`) || issue.path.startsWith(`${path}[`));
}

function writeComplexOccurrence(
  context: TContext,
  schemaPath: string,
  name: string,
  occurrence: unknown,
  issuePath: string,
): TXmlNode | undefined {
  if (!isEcfTree(occurrence)) {
    context.issues.push({
      code: XML_ISSUE_CODES.ELEMENT_SHAPE_INVALID,
      path: issuePath,
      message: `${name} holds child elements; ${describeValue(occurrence)} was given.`,
    });
    return undefined;
  }
  return writeComplex(context, schemaPath, name, occurrence, issuePath);
}

function writeLeafOccurrence(context: TContext, name: string, occurrence: unknown, issuePath: string): TXmlNode | undefined {
  if (typeof occurrence !== 'string') {
    context.issues.push({
      code: XML_ISSUE_CODES.ELEMENT_SHAPE_INVALID,
      path: issuePath,
      message: `${name} holds text; ${describeValue(occurrence)} was given.`,
    });
    return undefined;
  }
  if (INVALID_XML_CHARACTER.test(occurrence)) {
    context.issues.push({
      code: XML_ISSUE_CODES.XML_CHARACTER_INVALID,
      path: issuePath,
      message: `${name} contains a character that XML cannot carry.`,
    });
    return undefined;
  }
  // No empty tags, ever: the tax authority rejects them (Descripción Técnica p.64).
  return occurrence === '' ? undefined : { name, text: occurrence };
}

/**
 * Writes `tree` as the root element of `table`'s schema, in schema order, as canonical XML
 * (no declaration, no whitespace, no empty elements). Returns the XML or every issue found.
 */
export function writeOrderedXml(
  table: TXsdOrderTable,
  tree: TEcfTree,
  rules: TElementRules = {},
): { success: true; data: string } | { success: false; issues: TXmlIssue[] } {
  const context: TContext = { table, rules, issues: [] };
  const node = writeComplexOccurrence(context, table.root, table.root, tree, table.root);
  if (node === undefined && context.issues.length === 0) {
    context.issues.push({
      code: XML_ISSUE_CODES.REQUIRED_ELEMENT_MISSING,
      path: table.root,
      message: `${table.root} has no content.`,
    });
  }
  if (context.issues.length > 0 || node === undefined) return { success: false, issues: context.issues };
  return { success: true, data: writeXml(node) };
}
