/**
 * Serializes an element tree (`TEcfTree`: member names are element names, leaves are formatted
 * strings, repeated elements are arrays) in the element order of an official XSD, as canonical XML.
 *
 * Member order in the tree carries no meaning; the order comes from the generated XSD tables. Anything
 * the schema does not declare at that place is reported, never silently dropped, except where the
 * caller's rules say otherwise (for example `Paginacion`, which the service never emits).
 */
import type { TEcfTree, TEcfValue } from '../model/ecf-tree.ts';
import { escapeText } from './canonical.ts';
import type { TXsdChild, TXsdOrderTable } from './xsd-order-types.ts';
import { XML_ISSUE_CODES } from './xml-issues.ts';
import type { TXmlIssue, TXmlIssueCode } from './xml-issues.ts';

/** What to do with an element found at a schema path, before the schema itself is consulted. */
export type TElementRule = { action: 'drop' } | { action: 'reject'; code: TXmlIssueCode; message: string };

/** Rules keyed by slash-separated schema path (`ECF/Paginacion`). */
export type TElementRules = { readonly [schemaPath: string]: TElementRule };

// XML 1.0 Char production: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF (surrogate pairs).
export const INVALID_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

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

/** One declared child with everything the writer needs precomputed (paths, tags, its rule). */
type TCompiledChild = {
  readonly child: TXsdChild;
  readonly schemaPath: string;
  readonly rule: TElementRule | undefined;
  readonly open: string;
  readonly close: string;
};

/** A complex element of one table under one rule set, compiled on first use and cached. */
type TCompiledElement = {
  readonly declared: ReadonlyArray<TXsdChild>;
  readonly children: ReadonlyArray<TCompiledChild>;
  readonly declaredNames: ReadonlySet<string>;
  /** Rules of child names at this path, declared or not. */
  readonly rules: ReadonlyMap<string, TElementRule>;
};

const EMPTY_RULES: TElementRules = {};
const compiledElements = new WeakMap<TXsdOrderTable, WeakMap<TElementRules, Map<string, TCompiledElement>>>();

function compiledElement(context: TContext, schemaPath: string): TCompiledElement {
  let byRules = compiledElements.get(context.table);
  if (byRules === undefined)
    compiledElements.set(
      context.table,
      (byRules = new WeakMap<TElementRules, Map<string, TCompiledElement>>()),
    );
  let byPath = byRules.get(context.rules);
  if (byPath === undefined) byRules.set(context.rules, (byPath = new Map<string, TCompiledElement>()));
  const cached = byPath.get(schemaPath);
  if (cached !== undefined) return cached;

  const declared = context.table.elements[schemaPath];
  // The tables are generated from the same schemas the caller picked: a gap is a programming error.
  if (declared === undefined) throw new Error(`No XSD order for ${schemaPath} in ${context.table.file}`);
  const rules = new Map<string, TElementRule>();
  for (const [rulePath, rule] of Object.entries(context.rules)) {
    const slash = rulePath.lastIndexOf('/');
    if (rulePath.slice(0, slash) === schemaPath) rules.set(rulePath.slice(slash + 1), rule);
  }
  const compiled: TCompiledElement = {
    declared,
    declaredNames: new Set(declared.map((child) => child.name)),
    rules,
    children: declared.map((child) => ({
      child,
      schemaPath: `${schemaPath}/${child.name}`,
      rule: rules.get(child.name),
      open: `<${child.name}>`,
      close: `</${child.name}>`,
    })),
  };
  byPath.set(schemaPath, compiled);
  return compiled;
}

/** Writes a complex element's content and tags, or `''` when nothing in it is written. */
function writeComplex(
  context: TContext,
  schemaPath: string,
  name: string,
  tree: TEcfTree,
  issuePath: string,
): string {
  const compiled = compiledElement(context, schemaPath);

  for (const key of Object.keys(tree)) {
    if (tree[key] === undefined) continue;
    const rule = compiled.rules.get(key);
    if (rule !== undefined) {
      if (rule.action === 'reject')
        context.issues.push({ code: rule.code, path: `${issuePath}.${key}`, message: rule.message });
      continue;
    }
    if (!compiled.declaredNames.has(key)) {
      context.issues.push({
        code: XML_ISSUE_CODES.ELEMENT_NOT_IN_XSD,
        path: `${issuePath}.${key}`,
        message: `${key} is not an element of ${issuePath} in ${context.table.file}.`,
        details: { allowed: compiled.declared.map((child) => child.name) },
      });
    }
  }

  let inner = '';
  let missing: TXmlIssue[] | undefined;
  for (const entry of compiled.children) {
    // A child with a rule was handled above (dropped or reported), never written nor missing.
    if (entry.rule !== undefined) continue;
    const { child } = entry;
    const value: TEcfValue | undefined = tree[child.name];
    // Issues recorded from here on belong to this child: none means a missing one is reported missing.
    const issuesBefore = context.issues.length;
    let written = 0;
    if (value !== undefined) {
      const isList = Array.isArray(value);
      const occurrences: ReadonlyArray<unknown> = isList ? value : [value];
      if (occurrences.length > child.maxOccurs) {
        context.issues.push({
          code: XML_ISSUE_CODES.ELEMENT_OCCURS_EXCEEDED,
          path: `${issuePath}.${child.name}`,
          message: `${child.name} may occur at most ${child.maxOccurs} time(s) here; ${occurrences.length} given.`,
          details: { maxOccurs: child.maxOccurs, given: occurrences.length },
        });
      }
      for (let index = 0; index < occurrences.length; index += 1) {
        const occurrence = occurrences[index];
        const xml = child.isComplex
          ? writeComplexOccurrence(
              context,
              entry.schemaPath,
              child.name,
              occurrence,
              isList ? `${issuePath}.${child.name}[${index}]` : `${issuePath}.${child.name}`,
            )
          : writeLeafOccurrence(context, entry, occurrence, issuePath, isList ? index : undefined);
        if (xml !== '') {
          inner += xml;
          written += 1;
        }
      }
    }
    // An element already reported (wrong shape, bad characters...) is not reported missing as well.
    if (written < child.minOccurs && context.issues.length === issuesBefore) {
      (missing ??= []).push({
        code: XML_ISSUE_CODES.REQUIRED_ELEMENT_MISSING,
        path: `${issuePath}.${child.name}`,
        message: `${child.name} is required in ${issuePath} by ${context.table.file}.`,
        details: { minOccurs: child.minOccurs },
      });
    }
  }
  if (inner === '') return '';
  // A required child only matters when its parent is written; an omitted optional parent needs none.
  if (missing !== undefined) context.issues.push(...missing);
  return `<${name}>${inner}</${name}>`;
}

function writeComplexOccurrence(
  context: TContext,
  schemaPath: string,
  name: string,
  occurrence: unknown,
  issuePath: string,
): string {
  if (!isEcfTree(occurrence)) {
    context.issues.push({
      code: XML_ISSUE_CODES.ELEMENT_SHAPE_INVALID,
      path: issuePath,
      message: `${name} holds child elements; ${describeValue(occurrence)} was given.`,
    });
    return '';
  }
  return writeComplex(context, schemaPath, name, occurrence, issuePath);
}

function writeLeafOccurrence(
  context: TContext,
  entry: TCompiledChild,
  occurrence: unknown,
  parentPath: string,
  index: number | undefined,
): string {
  const name = entry.child.name;
  if (typeof occurrence !== 'string') {
    context.issues.push({
      code: XML_ISSUE_CODES.ELEMENT_SHAPE_INVALID,
      path: leafPath(parentPath, name, index),
      message: `${name} holds text; ${describeValue(occurrence)} was given.`,
    });
    return '';
  }
  // No empty tags, ever: the tax authority rejects them (Descripción Técnica p.64).
  if (occurrence === '') return '';
  if (INVALID_XML_CHARACTER.test(occurrence)) {
    context.issues.push({
      code: XML_ISSUE_CODES.XML_CHARACTER_INVALID,
      path: leafPath(parentPath, name, index),
      message: `${name} contains a character that XML cannot carry.`,
    });
    return '';
  }
  return entry.open + escapeText(occurrence) + entry.close;
}

function leafPath(parentPath: string, name: string, index: number | undefined): string {
  return index === undefined ? `${parentPath}.${name}` : `${parentPath}.${name}[${index}]`;
}

/**
 * Writes `tree` as the root element of `table`'s schema, in schema order, as canonical XML
 * (no declaration, no whitespace, no empty elements). Returns the XML or every issue found.
 */
export function writeOrderedXml(
  table: TXsdOrderTable,
  tree: TEcfTree,
  rules: TElementRules = EMPTY_RULES,
): { success: true; data: string } | { success: false; issues: TXmlIssue[] } {
  const context: TContext = { table, rules, issues: [] };
  const xml = writeComplexOccurrence(context, table.root, table.root, tree, table.root);
  if (xml === '' && context.issues.length === 0) {
    context.issues.push({
      code: XML_ISSUE_CODES.REQUIRED_ELEMENT_MISSING,
      path: table.root,
      message: `${table.root} has no content.`,
    });
  }
  if (context.issues.length > 0 || xml === '') return { success: false, issues: context.issues };
  return { success: true, data: xml };
}
