/**
 * Generates `src/xml/xsd-order.generated.ts`: for every official schema the document writers use,
 * the ordered children of each complex element, read from the tax authority's XSDs.
 *
 * Run from packages/fiscal-core:
 *   ../../scripts/node24.sh node --import tsx scripts/generate-xsd-order.ts [--xsd-dir <dir>]
 *
 * The XSDs stay outside the package (operators download the published set), so the writers carry
 * only these tables; a test regenerates them in memory and fails when the committed file is stale.
 * Every schema declares its whole tree with anonymous nested `xs:complexType/xs:sequence` blocks, no
 * named complex types, no `ref`, no `xs:choice`; the generator refuses anything else rather than guess.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';
import type { Element } from '@xmldom/xmldom';

const XS_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';

/** The schemas turned into tables, keyed as the writers look them up. */
export const XSD_SOURCES = [
  { key: 'E31', file: 'e-CF 31 v.1.0.xsd' },
  { key: 'E32', file: 'e-CF 32 v.1.0.xsd' },
  { key: 'E33', file: 'e-CF 33 v.1.0.xsd' },
  { key: 'E34', file: 'e-CF 34 v.1.0.xsd' },
  { key: 'E41', file: 'e-CF 41 v.1.0.xsd' },
  { key: 'E43', file: 'e-CF 43 v.1.0.xsd' },
  { key: 'E44', file: 'e-CF 44 v.1.0.xsd' },
  { key: 'E45', file: 'e-CF 45 v.1.0.xsd' },
  { key: 'E46', file: 'e-CF 46 v.1.0.xsd' },
  { key: 'E47', file: 'e-CF 47 v.1.0.xsd' },
  { key: 'RFCE', file: 'RFCE 32 v.1.0.xsd' },
  { key: 'ACECF', file: 'ACECF v.1.0.xsd' },
  { key: 'ARECF', file: 'ARECF v1.0.xsd' },
  { key: 'ANECF', file: 'ANECF v.1.0.xsd' },
] as const;

type TChild = { name: string; minOccurs: number; maxOccurs: number; isComplex: boolean; type?: string };
type TOccurs = { minOccurs: number; maxOccurs: number };
type TSchemaOrder = {
  file: string;
  root: string;
  trailingAny: TOccurs | undefined;
  elements: Map<string, TChild[]>;
};

function childElements(parent: Element, localName?: string): Element[] {
  const result: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType !== node.ELEMENT_NODE) continue;
    const element = node as Element;
    if (element.namespaceURI !== XS_NAMESPACE) continue;
    if (localName === undefined || element.localName === localName) result.push(element);
  }
  return result;
}

function readOccurs(element: Element, file: string): TOccurs {
  const minText = element.getAttribute('minOccurs')?.trim() || '1';
  const maxText = element.getAttribute('maxOccurs')?.trim() || '1';
  const minOccurs = Number(minText);
  // "unbounded" is written as Infinity in memory and as a named constant in the generated file.
  const maxOccurs = maxText === 'unbounded' ? Number.POSITIVE_INFINITY : Number(maxText);
  if (
    !Number.isInteger(minOccurs) ||
    !(Number.isInteger(maxOccurs) || maxOccurs === Number.POSITIVE_INFINITY)
  ) {
    throw new Error(
      `${file}: unreadable occurrences on ${element.getAttribute('name') ?? element.localName}`,
    );
  }
  return { minOccurs, maxOccurs };
}

/** Reads one schema's element tree. Throws on constructs the writers do not support (a dev-time error). */
export function readSchemaOrder(xsdText: string, file: string): TSchemaOrder {
  // The published files start with a BOM and use CRLF; neither matters to the element tree.
  const document = new DOMParser().parseFromString(xsdText.replace(/^\uFEFF/, ''), 'text/xml');
  const schema = document.documentElement;
  if (schema === null || schema.localName !== 'schema') throw new Error(`${file}: not an XML Schema`);
  const roots = childElements(schema, 'element');
  const [rootElement] = roots;
  if (rootElement === undefined || roots.length !== 1)
    throw new Error(`${file}: expected exactly one top-level element`);
  const root = rootElement.getAttribute('name') ?? '';
  const elements = new Map<string, TChild[]>();
  let trailingAny: TOccurs | undefined;

  const visit = (element: Element, elementPath: string): void => {
    const [complexType] = childElements(element, 'complexType');
    if (complexType === undefined) throw new Error(`${file}: ${elementPath} has no inline complex type`);
    const content = childElements(complexType);
    const [sequence] = content;
    if (sequence === undefined || content.length !== 1 || sequence.localName !== 'sequence') {
      throw new Error(`${file}: ${elementPath} is not a plain xs:sequence`);
    }
    // Parents precede their descendants in the table, as they do in the schema.
    if (elements.has(elementPath)) throw new Error(`${file}: ${elementPath} declared twice`);
    const children: TChild[] = [];
    elements.set(elementPath, children);
    const particles = childElements(sequence);
    particles.forEach((particle, index) => {
      if (particle.localName === 'any') {
        // The schemas admit <Signature> through a trailing wildcard on the root only.
        if (elementPath !== root || index !== particles.length - 1)
          throw new Error(`${file}: xs:any inside ${elementPath}`);
        trailingAny = readOccurs(particle, file);
        return;
      }
      if (particle.localName !== 'element')
        throw new Error(`${file}: unsupported xs:${particle.localName} in ${elementPath}`);
      const name = particle.getAttribute('name');
      if (!name || particle.hasAttribute('ref'))
        throw new Error(`${file}: unnamed element in ${elementPath}`);
      const isComplex = childElements(particle, 'complexType').length > 0;
      const type = particle.getAttribute('type')?.trim();
      if (!isComplex && !type)
        throw new Error(`${file}: ${elementPath}/${name} has neither a type nor a complex type`);
      children.push({
        name,
        ...readOccurs(particle, file),
        isComplex,
        ...(isComplex || !type ? {} : { type }),
      });
      if (isComplex) visit(particle, `${elementPath}/${name}`);
    });
  };

  visit(rootElement, root);
  return { file, root, trailingAny, elements };
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function renderOccurs(value: number): string {
  return value === Number.POSITIVE_INFINITY ? 'UNBOUNDED' : String(value);
}

/** Renders the TypeScript module for the given schemas (deterministic: same input, same bytes). */
export function renderXsdOrderModule(schemas: ReadonlyArray<{ key: string; order: TSchemaOrder }>): string {
  const usesUnbounded = schemas.some(({ order }) =>
    [...order.elements.values()].some((children) =>
      children.some((child) => child.maxOccurs === Number.POSITIVE_INFINITY),
    ),
  );
  const lines: string[] = [
    '// GENERATED by scripts/generate-xsd-order.ts from the official XSDs. Do not edit by hand;',
    '// run `node --import tsx scripts/generate-xsd-order.ts` instead (a test fails when this file is stale).',
    '',
    "import type { TXsdOrderTables } from './xsd-order-types.ts';",
    '',
    ...(usesUnbounded
      ? ['/** `maxOccurs="unbounded"`. */', 'const UNBOUNDED = Number.POSITIVE_INFINITY;', '']
      : []),
    '/** Ordered children of every complex element of each official schema, keyed by slash-separated element path. */',
    'export const XSD_ORDER_TABLES = {',
  ];
  for (const { key, order } of schemas) {
    lines.push(`  ${key}: {`);
    lines.push(`    file: ${quote(order.file)},`);
    lines.push(`    root: ${quote(order.root)},`);
    if (order.trailingAny !== undefined) {
      lines.push(
        `    trailingAny: { minOccurs: ${renderOccurs(order.trailingAny.minOccurs)}, maxOccurs: ${renderOccurs(order.trailingAny.maxOccurs)} },`,
      );
    }
    lines.push('    elements: {');
    for (const [elementPath, children] of order.elements) {
      lines.push(`      ${quote(elementPath)}: [`);
      for (const child of children) {
        const type = child.type === undefined ? '' : `, type: ${quote(child.type)}`;
        lines.push(
          `        { name: ${quote(child.name)}, minOccurs: ${renderOccurs(child.minOccurs)}, maxOccurs: ${renderOccurs(child.maxOccurs)}, isComplex: ${String(child.isComplex)}${type} },`,
        );
      }
      lines.push('      ],');
    }
    lines.push('    },');
    lines.push('  },');
  }
  lines.push('} as const satisfies TXsdOrderTables;', '');
  return lines.join('\n');
}

/** Reads every schema from `xsdDirectory` and returns the module text. */
export function generateXsdOrderSource(xsdDirectory: string): string {
  const schemas = XSD_SOURCES.map(({ key, file }) => ({
    key,
    order: readSchemaOrder(readFileSync(path.join(xsdDirectory, file), 'utf8'), file),
  }));
  return renderXsdOrderModule(schemas);
}

const scriptDirectory = path.dirname(fileURLToPath(import.meta.url));
/** The repository's copy of the published schemas (checked against their digests by @ecf/config's tests). */
export const DEFAULT_XSD_DIRECTORY = path.resolve(scriptDirectory, '../../../config/xsd');
/** Where the generated module is committed. */
export const GENERATED_MODULE_PATH = path.resolve(scriptDirectory, '../src/xml/xsd-order.generated.ts');

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const flagIndex = process.argv.indexOf('--xsd-dir');
  const xsdDirectory =
    flagIndex >= 0 ? path.resolve(process.argv[flagIndex + 1] ?? '') : DEFAULT_XSD_DIRECTORY;
  writeFileSync(GENERATED_MODULE_PATH, generateXsdOrderSource(xsdDirectory));
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_MODULE_PATH)} from ${xsdDirectory}`);
}
