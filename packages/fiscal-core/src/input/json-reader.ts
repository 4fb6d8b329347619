import { parseDecimal, type TDecimal } from '../decimal/decimal.ts';
import type { TJsonArray, TJsonObject, TJsonValue } from '../json/lossless-json.ts';
import { ERROR_CODES, type TIssueCollector } from '../validation/issues.ts';

/**
 * Typed, path-aware reading of one JSON object of the simplified contract. Every member read is
 * marked as known; {@link finishObject} reports the rest as `UNKNOWN_FIELD` (or
 * `SIMPLIFIED_CONTRACT_UNSUPPORTED` for concepts the contract deliberately leaves to the
 * tax-authority JSON).
 */
export type TObjectReader = {
  readonly path: string;
  readonly value: TJsonObject;
  readonly known: Set<string>;
  readonly issues: TIssueCollector;
};

/** A reader of one object at the client path `path`. */
export function createReader(value: TJsonObject, path: string, issues: TIssueCollector): TObjectReader {
  return { path, value, known: new Set(), issues };
}

/** The client path of a member (`lines[0].unitPrice`). */
export function memberPath(reader: TObjectReader, key: string): string {
  return reader.path === '' ? key : `${reader.path}.${key}`;
}

/** The member's value, marking it known; null counts as absent. */
export function readMember(reader: TObjectReader, key: string): TJsonValue | undefined {
  reader.known.add(key);
  const value = reader.value.members.get(key);
  return value === undefined || value.kind === 'null' ? undefined : value;
}

function typeError(reader: TObjectReader, key: string, expected: string): undefined {
  reader.issues.error(
    memberPath(reader, key),
    ERROR_CODES.FIELD_TYPE_INVALID,
    `${memberPath(reader, key)} must be ${expected}`,
    { expected },
  );
  return undefined;
}

/** A non-empty string member; wrong types are `FIELD_TYPE_INVALID`, a missing required one `FIELD_REQUIRED`. */
export function readString(reader: TObjectReader, key: string, required = false): string | undefined {
  const value = readMember(reader, key);
  if (value === undefined) {
    if (required)
      reader.issues.error(
        memberPath(reader, key),
        ERROR_CODES.FIELD_REQUIRED,
        `${memberPath(reader, key)} is required`,
      );
    return undefined;
  }
  if (value.kind !== 'string') return typeError(reader, key, 'a string');
  if (value.value.trim() === '') {
    // The tax authority rejects empty elements; an empty text is a missing value, said early.
    if (required)
      reader.issues.error(
        memberPath(reader, key),
        ERROR_CODES.FIELD_REQUIRED,
        `${memberPath(reader, key)} must not be empty`,
      );
    return undefined;
  }
  return value.value;
}

/** A boolean member. */
export function readBoolean(reader: TObjectReader, key: string): boolean | undefined {
  const value = readMember(reader, key);
  if (value === undefined) return undefined;
  if (value.kind !== 'boolean') return typeError(reader, key, 'true or false');
  return value.value;
}

/** A decimal as JSON number or string (rule 11); text that is not a plain decimal is `DECIMAL_FORMAT_INVALID`. */
export function readDecimal(reader: TObjectReader, key: string, required = false): TDecimal | undefined {
  const value = readMember(reader, key);
  const path = memberPath(reader, key);
  if (value === undefined) {
    if (required) reader.issues.error(path, ERROR_CODES.FIELD_REQUIRED, `${path} is required`);
    return undefined;
  }
  if (value.kind !== 'number' && value.kind !== 'string') return typeError(reader, key, 'a decimal number');
  const text = value.kind === 'number' ? value.text : value.value;
  const parsed = parseDecimal(text);
  if (parsed === null) {
    reader.issues.error(
      path,
      ERROR_CODES.DECIMAL_FORMAT_INVALID,
      `${path} must be a decimal with a point and no separators, got ${JSON.stringify(text)}`,
      { value: text },
    );
    return undefined;
  }
  return parsed;
}

/** A nested object member, as a reader of its own. */
export function readObject(reader: TObjectReader, key: string, required = false): TObjectReader | undefined {
  const value = readMember(reader, key);
  if (value === undefined) {
    if (required)
      reader.issues.error(
        memberPath(reader, key),
        ERROR_CODES.FIELD_REQUIRED,
        `${memberPath(reader, key)} is required`,
      );
    return undefined;
  }
  if (value.kind !== 'object') return typeError(reader, key, 'an object');
  return createReader(value, memberPath(reader, key), reader.issues);
}

/** An array member. */
export function readArray(reader: TObjectReader, key: string, required = false): TJsonArray | undefined {
  const value = readMember(reader, key);
  if (value === undefined) {
    if (required)
      reader.issues.error(
        memberPath(reader, key),
        ERROR_CODES.FIELD_REQUIRED,
        `${memberPath(reader, key)} is required`,
      );
    return undefined;
  }
  if (value.kind !== 'array') return typeError(reader, key, 'an array');
  return value;
}

/** Reports members never read: unsupported concepts by name, everything else as unknown. */
export function finishObject(
  reader: TObjectReader,
  unsupported: ReadonlyMap<string, string> = new Map(),
): void {
  for (const key of reader.value.members.keys()) {
    if (reader.known.has(key)) continue;
    const path = memberPath(reader, key);
    const reason = unsupported.get(key);
    if (reason !== undefined) {
      reader.issues.error(
        path,
        ERROR_CODES.SIMPLIFIED_CONTRACT_UNSUPPORTED,
        `${reason} is not available in the simplified contract; send the tax-authority-shaped JSON (root ECF)`,
        { concept: reason },
      );
    } else {
      reader.issues.error(
        path,
        ERROR_CODES.UNKNOWN_FIELD,
        `${path} is not a property of the simplified contract`,
      );
    }
  }
}
