/**
 * A JSON parser that keeps what `JSON.parse` throws away.
 *
 * - Numbers keep their source text (rule 11: "a valid JSON number equals its text"; `1.10` stays
 *   `1.10`, `12345678901234567.89` keeps every digit).
 * - Object members keep their order and the position of each key is known while parsing.
 * - Duplicate keys are rejected: `JSON.parse` keeps the last one silently, other parsers keep the
 *   first, so the document the client meant is ambiguous; and the replay fingerprint must not
 *   treat two different bodies as one.
 * - Errors are data with an offset, line and column, never exceptions.
 *
 * One pass over the text, O(n); nesting is limited to keep the recursion bounded.
 */
export type TJsonNumber = { readonly kind: 'number'; readonly text: string };
/** A JSON string, unescaped. */
export type TJsonString = { readonly kind: 'string'; readonly value: string };
/** A JSON boolean. */
export type TJsonBoolean = { readonly kind: 'boolean'; readonly value: boolean };
/** JSON null. */
export type TJsonNull = { readonly kind: 'null' };
/** A JSON array. */
export type TJsonArray = { readonly kind: 'array'; readonly items: readonly TJsonValue[] };
/** A JSON object; members in source order, names unique. */
export type TJsonObject = { readonly kind: 'object'; readonly members: ReadonlyMap<string, TJsonValue> };
/** Any JSON value. */
export type TJsonValue = TJsonNumber | TJsonString | TJsonBoolean | TJsonNull | TJsonArray | TJsonObject;

/**
 * Why a text is not acceptable JSON.
 * - `JSON_MALFORMED`: not JSON at all at `offset` (unexpected character, unterminated string, trailing data...).
 * - `JSON_DUPLICATE_KEY`: an object repeats a member name; `path` names the repeated member.
 * - `JSON_TOO_DEEP`: nesting beyond {@link MAX_JSON_DEPTH}.
 */
export type TJsonParseErrorCode = 'JSON_MALFORMED' | 'JSON_DUPLICATE_KEY' | 'JSON_TOO_DEEP';

/** Where and why parsing failed. */
export type TJsonParseError = {
  readonly code: TJsonParseErrorCode;
  readonly message: string;
  /** Offset in UTF-16 code units from the start of the text. */
  readonly offset: number;
  /** 1-based line and column of `offset`. */
  readonly line: number;
  readonly column: number;
  /** For duplicate keys: the member path (`ECF.Encabezado.IdDoc.eNCF`). */
  readonly path?: string;
};

/** The parsed value, or the error. */
export type TJsonParseResult =
  | { readonly success: true; readonly value: TJsonValue }
  | { readonly success: false; readonly error: TJsonParseError };

/** Deep enough for any e-CF (about 7 levels), shallow enough that recursion never overflows. */
export const MAX_JSON_DEPTH = 256;

const NUMBER_PATTERN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class JsonSyntaxError extends Error {
  constructor(
    readonly code: TJsonParseErrorCode,
    message: string,
    readonly offset: number,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** Parses JSON text losslessly. Never throws. */
export function parseJsonLosslessly(text: string): TJsonParseResult {
  let index = 0;

  const fail = (
    message: string,
    at = index,
    code: TJsonParseErrorCode = 'JSON_MALFORMED',
    path?: string,
  ): never => {
    throw new JsonSyntaxError(code, message, at, path);
  };

  const skipWhitespace = (): void => {
    while (index < text.length) {
      const c = text.charCodeAt(index);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) index += 1;
      else break;
    }
  };

  const describe = (at: number): string =>
    at >= text.length ? 'end of input' : `character ${JSON.stringify(text[at])}`;

  const parseString = (): string => {
    // index is on the opening quote
    index += 1;
    let result = '';
    let chunkStart = index;
    while (true) {
      if (index >= text.length) fail('Unterminated string');
      const c = text.charCodeAt(index);
      if (c === 0x22) {
        result += text.slice(chunkStart, index);
        index += 1;
        return result;
      }
      if (c === 0x5c) {
        result += text.slice(chunkStart, index);
        const escape = text[index + 1];
        switch (escape) {
          case '"':
            result += '"';
            break;
          case '\\':
            result += '\\';
            break;
          case '/':
            result += '/';
            break;
          case 'b':
            result += '\b';
            break;
          case 'f':
            result += '\f';
            break;
          case 'n':
            result += '\n';
            break;
          case 'r':
            result += '\r';
            break;
          case 't':
            result += '\t';
            break;
          case 'u': {
            const hex = text.slice(index + 2, index + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid unicode escape', index);
            result += String.fromCharCode(parseInt(hex, 16));
            index += 4;
            break;
          }
          default:
            fail('Invalid escape sequence', index);
        }
        index += 2;
        chunkStart = index;
        continue;
      }
      if (c < 0x20) fail('Control character in string');
      index += 1;
    }
  };

  const parseValue = (path: string, depth: number): TJsonValue => {
    if (depth > MAX_JSON_DEPTH) fail(`Nesting deeper than ${MAX_JSON_DEPTH} levels`, index, 'JSON_TOO_DEEP');
    skipWhitespace();
    const c = text[index];
    if (c === '{') return parseObject(path, depth);
    if (c === '[') return parseArray(path, depth);
    if (c === '"') return { kind: 'string', value: parseString() };
    if (c === 't' && text.startsWith('true', index)) {
      index += 4;
      return { kind: 'boolean', value: true };
    }
    if (c === 'f' && text.startsWith('false', index)) {
      index += 5;
      return { kind: 'boolean', value: false };
    }
    if (c === 'n' && text.startsWith('null', index)) {
      index += 4;
      return { kind: 'null' };
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER_PATTERN.lastIndex = index;
      const match = NUMBER_PATTERN.exec(text);
      if (match === null) return fail('Invalid number');
      index += match[0].length;
      return { kind: 'number', text: match[0] };
    }
    return fail(`Unexpected ${describe(index)}`);
  };

  const parseObject = (path: string, depth: number): TJsonObject => {
    index += 1;
    const members = new Map<string, TJsonValue>();
    skipWhitespace();
    if (text[index] === '}') {
      index += 1;
      return { kind: 'object', members };
    }
    while (true) {
      skipWhitespace();
      if (text[index] !== '"') fail(`Expected a member name, found ${describe(index)}`);
      const keyOffset = index;
      const key = parseString();
      const memberPath = path === '' ? key : `${path}.${key}`;
      if (members.has(key))
        fail(`Duplicate member name ${JSON.stringify(key)}`, keyOffset, 'JSON_DUPLICATE_KEY', memberPath);
      skipWhitespace();
      if (text[index] !== ':') fail(`Expected ':', found ${describe(index)}`);
      index += 1;
      members.set(key, parseValue(memberPath, depth + 1));
      skipWhitespace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === '}') {
        index += 1;
        return { kind: 'object', members };
      }
      fail(`Expected ',' or '}', found ${describe(index)}`);
    }
  };

  const parseArray = (path: string, depth: number): TJsonArray => {
    index += 1;
    const items: TJsonValue[] = [];
    skipWhitespace();
    if (text[index] === ']') {
      index += 1;
      return { kind: 'array', items };
    }
    while (true) {
      items.push(parseValue(`${path}[${items.length}]`, depth + 1));
      skipWhitespace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      if (text[index] === ']') {
        index += 1;
        return { kind: 'array', items };
      }
      fail(`Expected ',' or ']', found ${describe(index)}`);
    }
  };

  try {
    // A byte-order mark is not JSON (RFC 8259 §8.1) but some HTTP clients add one; tolerate it.
    if (text.charCodeAt(0) === 0xfeff) index = 1;
    const value = parseValue('', 0);
    skipWhitespace();
    if (index < text.length) fail(`Unexpected ${describe(index)} after the JSON value`);
    return { success: true, value };
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const { line, column } = lineAndColumn(text, error.offset);
    const base = { code: error.code, message: error.message, offset: error.offset, line, column };
    return { success: false, error: error.path === undefined ? base : { ...base, path: error.path } };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Converts to plain JavaScript for tests and logs; numbers stay as their source text. */
export function toPlainJson(value: TJsonValue): unknown {
  switch (value.kind) {
    case 'null':
      return null;
    case 'boolean':
    case 'string':
      return value.value;
    case 'number':
      return value.text;
    case 'array':
      return value.items.map(toPlainJson);
    case 'object':
      return Object.fromEntries([...value.members].map(([key, member]) => [key, toPlainJson(member)]));
  }
}
