/**
 * Whether an XML text holds a markup declaration (`<!DOCTYPE`, `<!ENTITY`, `<!ELEMENT`,
 * `<!ATTLIST`, `<!NOTATION`, any letter case) as markup, anywhere: the parsers (xmldom, libxml2)
 * must never see one, so no DTD is read and no entity expanded. Comments, CDATA sections and
 * processing instructions are skipped whole, so their text is never a declaration
 * (`<!-- <!DOCTYPE x> -->` is a comment, issue 25). When one of them never ends, the rest of the
 * text is judged as text (any declaration-looking sequence in it counts), so a malformed document
 * cannot hide a declaration behind an unterminated comment.
 */
const DECLARATION = /^<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;
const ANY_DECLARATION = /<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

export function hasMarkupDeclaration(text: string): boolean {
  // Every declaration starts with `<!`: most documents (ours always) have none, and the walk over
  // every tag cost 3 % of checking a 1,000-line e-CF against its schema.
  if (!text.includes('<!')) return false;
  let at = text.indexOf('<');
  while (at !== -1) {
    let closing: string | undefined;
    let skip = 0;
    if (text.startsWith('<!--', at)) [closing, skip] = ['-->', 4];
    else if (text.startsWith('<![CDATA[', at)) [closing, skip] = [']]>', 9];
    else if (text.startsWith('<?', at)) [closing, skip] = ['?>', 2];
    if (closing === undefined) {
      if (DECLARATION.test(text.slice(at, at + 10))) return true;
      at = text.indexOf('<', at + 1);
      continue;
    }
    const end = text.indexOf(closing, at + skip);
    if (end === -1) return ANY_DECLARATION.test(text.slice(at + skip));
    at = text.indexOf('<', end + closing.length);
  }
  return false;
}
