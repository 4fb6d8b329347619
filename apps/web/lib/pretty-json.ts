/**
 * Indents JSON text for reading without parsing it: every token stays as received (numbers keep
 * their digits, strings their escapes), only whitespace between tokens changes. Text that is not
 * JSON comes out re-spaced but whole; the caller shows the raw text beside it anyway.
 */
export function prettyJson(text: string, indent = 2): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${' '.repeat(depth * indent)}`;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (inString) {
      out += character;
      if (escaped) escaped = false;
      else if (character === '\\') escaped = true;
      else if (character === '"') inString = false;
      continue;
    }
    switch (character) {
      case '"':
        inString = true;
        out += character;
        break;
      case '{':
      case '[': {
        const close = character === '{' ? '}' : ']';
        const next = text.slice(index + 1).trimStart()[0];
        if (next === close) {
          out += `${character}${close}`;
          index = text.indexOf(close, index + 1);
          break;
        }
        depth += 1;
        out += character + newline();
        break;
      }
      case '}':
      case ']':
        depth = Math.max(0, depth - 1);
        out += newline() + character;
        break;
      case ',':
        out += `,${newline()}`;
        break;
      case ':':
        out += ': ';
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      default:
        out += character;
    }
  }
  return out;
}
