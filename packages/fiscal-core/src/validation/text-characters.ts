/**
 * Characters a fiscal document's text never carries (`TEXT_CHARACTER_NOT_ALLOWED`).
 *
 * The XSDs type every text element as `xs:string` (whitespace preserved, any XML character), so
 * the schema alone admits controls and separators that no name, address or description needs and
 * that XML tools disagree on: xmldom (under xml-crypto, which other issuers' and the tax authority
 * simulator's verifiers use) reads U+0085 and U+2028 as line ends, so a document holding one was
 * signed correctly yet judged tampered. The refused set:
 * - C0 controls U+0000–U+001F except TAB (U+0009) and LF (U+000A). TAB and LF are kept: the XSD
 *   preserves them, a multi-line address or description is ordinary, and both come out of any XML
 *   round trip unchanged. CR (U+000D) is refused: XML turns a raw CR into LF, so it can only travel
 *   as `&#xD;`, and a re-serializer that writes it raw (the tax authority re-serializes before
 *   verifying) changes the signed text; a line break is LF.
 * - DEL and the C1 controls, U+007F–U+009F (U+0085 NEXT LINE among them).
 * - U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
 * - Noncharacters: U+FDD0–U+FDEF and the last two code points of every plane (U+FFFE, U+FFFF,
 *   U+1FFFE, U+1FFFF, ... U+10FFFF).
 * - Lone surrogates (a JSON `\uD800` escape without its pair).
 * This is a superset of what XML 1.0 cannot carry (the writers' `XML_CHARACTER_INVALID`), so a
 * submission that passes validation never meets that code when its XML is built.
 */
import type { TMutableTree, TMutableValue } from '../input/draft.ts';
import type { TJsonValue } from '../json/lossless-json.ts';
import { ERROR_CODES, type TIssueCollector } from './issues.ts';

/** Where a refused character is: its code point as `U+XXXX` and its 1-based position, counted in characters (code points). */
export type TDisallowedCharacter = { readonly codePoint: string; readonly position: number };

// Everything outside this class needs the exact check below; text made only of it is accepted at once.
const PLAINLY_ALLOWED = /^[\t\n\u0020-\u007E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFDCF\uFDF0-\uFFFD]*$/;

function isDisallowed(codePoint: number): boolean {
  if (codePoint < 0x20) return codePoint !== 0x09 && codePoint !== 0x0a;
  if (codePoint >= 0x7f && codePoint <= 0x9f) return true;
  if (codePoint === 0x2028 || codePoint === 0x2029) return true;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return true;
  if (codePoint >= 0xfdd0 && codePoint <= 0xfdef) return true;
  return (codePoint & 0xfffe) === 0xfffe;
}

/** The first character of `text` that a fiscal document may not carry, or undefined. */
export function findDisallowedCharacter(text: string): TDisallowedCharacter | undefined {
  if (PLAINLY_ALLOWED.test(text)) return undefined;
  let position = 0;
  for (let index = 0; index < text.length;) {
    // A lone surrogate comes back as itself: codePointAt pairs only a high surrogate followed by a low one.
    const codePoint = text.codePointAt(index) as number;
    position += 1;
    if (isDisallowed(codePoint))
      return { codePoint: `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`, position };
    index += codePoint > 0xffff ? 2 : 1;
  }
  return undefined;
}

function describe(codePoint: string): string {
  const value = Number.parseInt(codePoint.slice(2), 16);
  if (value < 0x20 || value === 0x7f) return 'a control character';
  if (value <= 0x9f) return 'a C1 control character';
  if (value === 0x2028) return 'the line separator';
  if (value === 0x2029) return 'the paragraph separator';
  if (value >= 0xd800 && value <= 0xdfff) return 'half of a surrogate pair';
  return 'a Unicode noncharacter';
}

/** Reports one text value; true when it held a refused character. */
export function checkTextCharacters(text: string, path: string, issues: TIssueCollector): boolean {
  const found = findDisallowedCharacter(text);
  if (found === undefined) return false;
  issues.error(
    path,
    ERROR_CODES.TEXT_CHARACTER_NOT_ALLOWED,
    `${path || 'The value'} contains ${found.codePoint} (${describe(found.codePoint)}) at position ${found.position}; ` +
      'text in a fiscal document may not hold control characters other than tab and line feed, line or paragraph separators, or noncharacters',
    { codePoint: found.codePoint, position: found.position },
  );
  return true;
}

/**
 * Checks every string of a submission body (after placeholders are filled) on the path the client
 * wrote: `ECF.DetallesItems.Item[0].NombreItem`, `ECF.DetallesItems.Item.NombreItem` for a single
 * item sent as an object, `lines[2].name`. Returns the paths reported.
 */
export function checkBodyTextCharacters(body: TJsonValue, issues: TIssueCollector): Set<string> {
  const reported = new Set<string>();
  const visit = (value: TJsonValue, path: string): void => {
    switch (value.kind) {
      case 'string':
        if (checkTextCharacters(value.value, path, issues)) reported.add(path);
        return;
      case 'array':
        value.items.forEach((item, index) => visit(item, `${path}[${index}]`));
        return;
      case 'object':
        for (const [name, member] of value.members) visit(member, path === '' ? name : `${path}.${name}`);
        return;
      default:
        return;
    }
  };
  visit(body, '');
  return reported;
}

/**
 * Checks the text leaves of a finished tree, reporting on `clientPathOf(treePath)`. The body's
 * strings were checked already; what this finds came from elsewhere: the account's profile filling
 * the simplified contract's issuer (`issuer.legalName`, `issuer.address`...).
 */
export function checkTreeTextCharacters(
  tree: TMutableTree,
  clientPathOf: (treePath: string) => string,
  issues: TIssueCollector,
): void {
  const visit = (value: TMutableValue, treePath: string): void => {
    // The client's path only for a refused value: mapping every leaf's path is most of this walk's cost.
    if (typeof value === 'string') {
      if (findDisallowedCharacter(value) !== undefined)
        checkTextCharacters(value, clientPathOf(treePath), issues);
    } else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${treePath}[${index}]`));
    else
      for (const [name, child] of Object.entries(value))
        if (child !== undefined) visit(child, treePath === '' ? name : `${treePath}.${name}`);
  };
  visit(tree, '');
}
