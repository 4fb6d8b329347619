import { isDecimalText } from '../decimal/decimal.ts';
import type { TJsonObject, TJsonValue } from '../json/lossless-json.ts';
import { ECF_TYPES, type TEcfType } from '../model/ecf-tree.ts';
import { ERROR_CODES, type TIssueCollector } from '../validation/issues.ts';
import { parseTaxauthDate } from './dates.ts';
import type { TDocumentDraft, TMutableTree, TMutableValue } from './draft.ts';
import { DATE_ELEMENTS, DECIMAL_ELEMENTS, REPEATED_ELEMENTS } from './element-kinds.ts';

/**
 * Reads the tax-authority-shaped JSON (root `ECF`) into a draft tree.
 *
 * - Leaves may be JSON strings or numbers; a number keeps its source text (rule 11).
 * - A repeated element is an array under its own name; one occurrence may be a plain object (clarification 14).
 * - `null` means absent (a JSON habit for "not sent"; the tax authority rejects empty elements anyway).
 * - Decimal text is kept as sent (`1.10` stays `1.10`): the document the ERP built is what gets signed;
 *   whether its digits fit the element is the XSD's job.
 * - Element names are not checked here: the XSD of the type does that, with its own message.
 */
export function readTaxauthJson(body: TJsonObject, issues: TIssueCollector): TDocumentDraft {
  const paths = new Map<string, string>();
  const ecf = body.members.get('ECF');
  const root: TMutableTree = {};
  paths.set('ECF', 'ECF');
  if (ecf === undefined || ecf.kind !== 'object') {
    issues.error('ECF', ERROR_CODES.FIELD_TYPE_INVALID, 'ECF must be an object with the e-CF elements', {
      expected: 'object',
    });
    return { format: 'taxauth_json', root, type: null, paths };
  }
  root['ECF'] = readObject(ecf, 'ECF', 'ECF', paths, issues);
  const typeText = typeof root['ECF'] === 'object' ? readTypeText(root['ECF']) : undefined;
  const type = (ECF_TYPES as readonly string[]).includes(typeText ?? '') ? (typeText as TEcfType) : null;
  return { format: 'taxauth_json', root, type, paths };
}

/** Repeated elements whose occurrences are text, not objects. */
const LEAF_REPEATED_ELEMENTS: ReadonlySet<string> = new Set(['TelefonoEmisor']);

function readTypeText(ecf: TMutableValue): string | undefined {
  if (typeof ecf !== 'object' || Array.isArray(ecf)) return undefined;
  const header = ecf['Encabezado'];
  if (header === undefined || typeof header !== 'object' || Array.isArray(header)) return undefined;
  const idDoc = header['IdDoc'];
  if (idDoc === undefined || typeof idDoc !== 'object' || Array.isArray(idDoc)) return undefined;
  const type = idDoc['TipoeCF'];
  return typeof type === 'string' ? type : undefined;
}

/**
 * Tree paths and client paths are the same text in this format except inside a repeated element
 * sent as one plain object (`...Item` for the tree's `...Item[0]`): only those differences are
 * recorded in `paths`, and `clientPathOf` maps every other path to itself.
 */
function readObject(
  value: TJsonObject,
  treePath: string,
  clientPath: string,
  paths: Map<string, string>,
  issues: TIssueCollector,
): TMutableTree {
  const tree: TMutableTree = {};
  for (const [name, member] of value.members) {
    if (member.kind === 'null') continue;
    if (REPEATED_ELEMENTS.has(name)) {
      const isArray = member.kind === 'array';
      const occurrences = isArray ? member.items : [member];
      const list: Array<string | TMutableTree> = [];
      for (let index = 0; index < occurrences.length; index += 1) {
        const occurrence = occurrences[index] as TJsonValue;
        const itemTreePath = `${treePath}.${name}[${index}]`;
        const itemClientPath = isArray ? `${clientPath}.${name}[${index}]` : `${clientPath}.${name}`;
        if (itemTreePath !== itemClientPath) paths.set(itemTreePath, itemClientPath);
        const isLeaf = occurrence.kind === 'string' || occurrence.kind === 'number';
        if (isLeaf !== LEAF_REPEATED_ELEMENTS.has(name) && occurrence.kind !== 'null') {
          issues.error(
            itemClientPath,
            ERROR_CODES.FIELD_TYPE_INVALID,
            `Each ${name} must be ${isLeaf ? 'an object' : 'a string'}`,
            { expected: isLeaf ? 'object' : 'string' },
          );
          continue;
        }
        const item = readValue(name, occurrence, itemTreePath, itemClientPath, paths, issues);
        if (item !== undefined && !Array.isArray(item)) list.push(item);
      }
      tree[name] = list;
      continue;
    }
    const element = readElement(name, member, treePath, clientPath, paths, issues);
    if (element !== undefined) tree[name] = element;
  }
  return tree;
}

/** Reads a member of an object, building its paths only where they are needed (objects, issues). */
function readElement(
  name: string,
  value: TJsonValue,
  parentTreePath: string,
  parentClientPath: string,
  paths: Map<string, string>,
  issues: TIssueCollector,
): TMutableValue | undefined {
  if (value.kind === 'string' || value.kind === 'number') {
    const text = value.kind === 'number' ? value.text : value.value;
    if (DECIMAL_ELEMENTS.has(name) || DATE_ELEMENTS.has(name))
      checkLeaf(name, text, `${parentClientPath}.${name}`, issues);
    return text;
  }
  return readValue(name, value, `${parentTreePath}.${name}`, `${parentClientPath}.${name}`, paths, issues);
}

function readValue(
  name: string,
  value: TJsonValue,
  treePath: string,
  clientPath: string,
  paths: Map<string, string>,
  issues: TIssueCollector,
): TMutableValue | undefined {
  switch (value.kind) {
    case 'null':
      return undefined;
    case 'object':
      return readObject(value, treePath, clientPath, paths, issues);
    case 'array':
      issues.error(
        clientPath,
        ERROR_CODES.FIELD_TYPE_INVALID,
        `${name} does not repeat; send one value, not an array`,
        { expected: 'single value' },
      );
      return undefined;
    case 'boolean':
      issues.error(
        clientPath,
        ERROR_CODES.FIELD_TYPE_INVALID,
        `${name} must be a string or a number, not a boolean`,
        { expected: 'string' },
      );
      return undefined;
    case 'number':
    case 'string': {
      const text = value.kind === 'number' ? value.text : value.value;
      checkLeaf(name, text, clientPath, issues);
      return text;
    }
  }
}

function checkLeaf(name: string, text: string, clientPath: string, issues: TIssueCollector): void {
  if (DECIMAL_ELEMENTS.has(name) && !isDecimalText(text)) {
    issues.error(
      clientPath,
      ERROR_CODES.DECIMAL_FORMAT_INVALID,
      `${name} must be a decimal with a point and no separators, got ${JSON.stringify(text)}`,
      { value: text },
    );
    return;
  }
  if (DATE_ELEMENTS.has(name) && parseTaxauthDate(text) === null) {
    // Clarification 11: the specific code wins for the sequence expiration.
    if (name === 'FechaVencimientoSecuencia') {
      issues.error(
        clientPath,
        ERROR_CODES.SEQUENCE_EXPIRATION_DATE_INVALID,
        `FechaVencimientoSecuencia must be a real date DD-MM-YYYY, got ${JSON.stringify(text)}`,
        { value: text },
      );
    } else {
      issues.error(
        clientPath,
        ERROR_CODES.DATE_INVALID,
        `${name} must be a real date DD-MM-YYYY, got ${JSON.stringify(text)}`,
        { value: text },
      );
    }
  }
}
