/**
 * THE reader of every JSON body, on every surface (the API's Fastify parser, the portal's tRPC
 * handler and route handlers): bytes in, a value out, or an AppError with the spec's code and the
 * field path. Pure: no framework, no I/O; the transports only feed it bytes they read under the
 * route's `bodyBytes` and `bodyTimeoutMs` (see `read-body.ts` for a fetch Request).
 */
import { parseJsonLosslessly, type TJsonParseError } from '@ecf/fiscal-core';
import { AppError } from '../shared/errors.ts';
import type { TEdgeLimits } from './limits.ts';

/** RFC 8259 §8.1: JSON exchanged between systems is UTF-8. `fatal`: a malformed sequence throws instead of becoming U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const JSON_WHITESPACE_ONLY = /^[\t\n\r ]*$/;

function invalidJson(message: string, details: Record<string, unknown>): AppError {
  return new AppError('INVALID_JSON', message, { details });
}

/** `BODY_TOO_LARGE` for a route's limit. */
export function bodyTooLarge(limitBytes: number): AppError {
  return new AppError('BODY_TOO_LARGE', `The request body exceeds ${limitBytes} bytes.`, {
    details: { limitBytes },
  });
}

/** `REQUEST_TIMEOUT`: the body did not arrive within the route's time. */
export function bodyTimedOut(timeoutMs: number): AppError {
  return new AppError('REQUEST_TIMEOUT', `The request body did not arrive within ${timeoutMs} ms.`, {
    details: { reason: 'body_timeout', timeoutMs },
  });
}

/**
 * The body's bytes as text. Invalid UTF-8 is refused (`details.reason` `invalid_utf8`, with the
 * byte offset of the first bad sequence): decoding it leniently turned bytes into U+FFFD and the
 * replacement characters were stored, signed and sent. A leading UTF-8 BOM is dropped (RFC 8259
 * lets a parser ignore it; .NET and Windows tools add one); it is not part of the stored text.
 */
export function decodeUtf8Body(body: Uint8Array): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw invalidJson('The request body is not valid UTF-8; send JSON encoded in UTF-8.', {
      reason: 'invalid_utf8',
      offset: firstInvalidUtf8Offset(body),
    });
  }
}

/**
 * Byte offset of the first malformed UTF-8 sequence (Unicode Table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF). Only computed for a body the decoder refused.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    // [length, lowest second byte, highest second byte] of a sequence starting with `lead`.
    const shape: [number, number, number] | null =
      lead >= 0xc2 && lead <= 0xdf
        ? [2, 0x80, 0xbf]
        : lead === 0xe0
          ? [3, 0xa0, 0xbf]
          : lead === 0xed
            ? [3, 0x80, 0x9f]
            : lead >= 0xe1 && lead <= 0xef
              ? [3, 0x80, 0xbf]
              : lead === 0xf0
                ? [4, 0x90, 0xbf]
                : lead >= 0xf1 && lead <= 0xf3
                  ? [4, 0x80, 0xbf]
                  : lead === 0xf4
                    ? [4, 0x80, 0x8f]
                    : null;
    if (shape === null) return index;
    const [length, low, high] = shape;
    const second = bytes[index + 1];
    if (second === undefined || second < low || second > high) return index;
    for (let next = 2; next < length; next += 1) {
      const continuation = bytes[index + next];
      if (continuation === undefined || continuation >> 6 !== 0b10) return index;
    }
    index += length;
  }
  return bytes.length;
}

/** `charset` of a JSON content type must be UTF-8 when given (anything else would be decoded wrongly). */
export function assertUtf8Charset(contentType: string | null | undefined): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return;
  throw new AppError('UNSUPPORTED_CONTENT_TYPE', 'Send the body as application/json in UTF-8.', {
    details: { accepted: ['application/json'], reason: 'charset', charset },
  });
}

function fromParseError(error: TJsonParseError): AppError {
  const where = { offset: error.offset, line: error.line, column: error.column };
  switch (error.code) {
    case 'JSON_DUPLICATE_KEY':
      return invalidJson(`The request body repeats a member name at ${error.path ?? 'the top level'}.`, {
        reason: 'duplicate_key',
        path: error.path ?? '',
        ...where,
      });
    case 'JSON_TOO_DEEP':
      return invalidJson(`The request body nests deeper than fiscal-core's limit.`, {
        reason: 'too_deep',
        ...where,
      });
    default:
      return invalidJson(`The request body is not valid JSON: ${error.message}`, {
        reason: 'syntax',
        ...where,
      });
  }
}

/** Half of a surrogate pair (a `\uD800` escape without its partner). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The `U+XXXX` of the first character PostgreSQL cannot store in `text`, or null. */
export function unstorableCodePoint(text: string): string | null {
  const unit = text.includes('\u0000') ? 0 : LONE_SURROGATE.exec(text)?.[0].charCodeAt(0);
  if (unit === undefined) return null;
  return `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** 400 `INVALID_REQUEST` `unsupported_character` for `text` at `path`, when it holds U+0000 or a lone surrogate. */
export function assertStorableText(text: string, path: string): void {
  const codePoint = unstorableCodePoint(text);
  if (codePoint === null) return;
  throw new AppError('INVALID_REQUEST', `${path || 'The body'} holds ${codePoint}, which cannot be stored.`, {
    details: { reason: 'unsupported_character', path, codePoint },
  });
}

export type TJsonShapeOptions = {
  limits: Pick<TEdgeLimits, 'maxDepth' | 'maxStringLength' | 'maxArrayLength'>;
  /**
   * True on the submission routes, whose text fiscal-core checks field by field (422
   * `TEXT_CHARACTER_NOT_ALLOWED`, a larger set of characters): U+0000 and lone surrogates are left
   * to it. Everywhere else they are refused here.
   */
  textCheckedByRoute?: boolean;
};

/**
 * One walk of a parsed value against the route's shape limits: depth (400 `INVALID_JSON`
 * `too_deep`), string length (400 `INVALID_REQUEST` `string_too_long`), array length
 * (`array_too_long`), and text PostgreSQL cannot store, U+0000 and lone surrogates (400
 * `INVALID_REQUEST` `unsupported_character`, with `codePoint`). Each refusal names the `path`
 * (member names and `[i]`).
 */
export function assertJsonShape(value: unknown, options: TJsonShapeOptions): void {
  const { maxDepth, maxStringLength, maxArrayLength } = options.limits;
  const checkText = (text: string, path: string) => {
    if (text.length > maxStringLength)
      throw new AppError(
        'INVALID_REQUEST',
        `${path || 'The body'} is longer than ${maxStringLength} characters.`,
        {
          details: { reason: 'string_too_long', path, limit: maxStringLength },
        },
      );
    if (!options.textCheckedByRoute) assertStorableText(text, path);
  };
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      checkText(current, path);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth)
      throw invalidJson(
        `The request body nests deeper than ${maxDepth} levels at ${path || 'the top level'}.`,
        {
          reason: 'too_deep',
          path,
          limit: maxDepth,
        },
      );
    if (Array.isArray(current)) {
      if (current.length > maxArrayLength)
        throw new AppError(
          'INVALID_REQUEST',
          `${path || 'The body'} has more than ${maxArrayLength} items.`,
          {
            details: { reason: 'array_too_long', path, limit: maxArrayLength },
          },
        );
      current.forEach((item: unknown, index) =>
        stack.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 }),
      );
      continue;
    }
    for (const [key, member] of Object.entries(current)) {
      const memberPath = path === '' ? key : `${path}.${key}`;
      checkText(key, memberPath);
      stack.push({ value: member, path: memberPath, depth: depth + 1 });
    }
  }
}

export type TReadJsonOptions = TJsonShapeOptions & {
  /** The request's Content-Type (its charset must be UTF-8 when given). */
  contentType?: string | null;
  /**
   * Called between the expensive steps of a large body (decoding, parsing, the duplicate-key scan),
   * so the process serves other requests between them (the API's `takeCpuTurn`).
   */
  yieldTurn?: () => Promise<void>;
  /** The route's own cheap checks of the bytes, before they are decoded (the submission's line limits). */
  checkBytes?: (body: Uint8Array) => Promise<void>;
};

/** Bodies from this size on yield a CPU turn between steps (see {@link TReadJsonOptions.yieldTurn}). */
export const LARGE_BODY_BYTES = 64 * 1024;

/**
 * Bytes → `{ text, value }`: the declared charset must be UTF-8; the route's cheap byte checks;
 * strict UTF-8 decoding (400 `INVALID_JSON` `invalid_utf8`, a leading BOM dropped); empty is
 * `empty`; `JSON.parse` (`syntax`); fiscal-core's lossless parser refuses repeated member names
 * (`duplicate_key`, with `path`: `JSON.parse` keeps the last silently); then the shape walk
 * ({@link assertJsonShape}). `text` is the body as received (decimal text and replay fingerprints
 * come from it).
 */
export async function readJsonBody(
  body: Uint8Array,
  options: TReadJsonOptions,
): Promise<{ text: string; value: unknown }> {
  assertUtf8Charset(options.contentType);
  const turn = body.length >= LARGE_BODY_BYTES && options.yieldTurn ? options.yieldTurn : null;
  // Bytes first: a hostile body is refused without ever becoming a multi-megabyte string.
  await options.checkBytes?.(body);
  if (turn) await turn();
  const text = decodeUtf8Body(body);
  if (JSON_WHITESPACE_ONLY.test(text)) {
    throw invalidJson('The request body is empty; send a JSON document.', { reason: 'empty' });
  }
  if (turn) await turn();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidJson(`The request body is not valid JSON: ${(error as Error).message}`, {
      reason: 'syntax',
    });
  }
  if (turn) await turn();
  const lossless = parseJsonLosslessly(text);
  if (!lossless.success) throw fromParseError(lossless.error);
  assertJsonShape(value, options);
  return { text, value };
}
