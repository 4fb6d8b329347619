import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseJsonLosslessly, type TJsonParseError } from '@ecf/fiscal-core';
import { AppError, takeCpuTurn } from '@ecf/services';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received (decoded, without a UTF-8 BOM): replay fingerprints and decimal text come from it. */
    rawBody?: string;
  }
  interface FastifyContextConfig {
    /**
     * A route's own cheap checks of its body's bytes, run before they are decoded and parsed (the
     * submission's line and structure limits): rejects with the route's refusal.
     */
    checkJsonBytes?: (body: Buffer) => Promise<void>;
    /** A route's checks of the parsed value, after the duplicate-key scan (text it will store). */
    checkJsonValue?: (value: unknown) => void;
  }
}

/** RFC 8259 §8.1: JSON exchanged between systems is UTF-8. `fatal`: a malformed sequence throws instead of becoming U+FFFD. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bodies from this size on are parsed in CPU turns (`takeCpuTurn` of `@ecf/services`): decoding,
 * `JSON.parse` and the duplicate-key scan of a multi-megabyte body take tens of milliseconds each,
 * and other requests (`/healthz` among them) are served between them.
 */
const LARGE_BODY_BYTES = 64 * 1024;

const JSON_WHITESPACE_ONLY = /^[\t\n\r ]*$/;

function invalidJson(message: string, details: Record<string, unknown>): AppError {
  return new AppError('INVALID_JSON', message, { details });
}

/**
 * The body's bytes as text. Invalid UTF-8 is refused (`details.reason` `invalid_utf8`, with the
 * byte offset of the first bad sequence): decoding it leniently turned bytes into U+FFFD and the
 * replacement characters were stored, signed and sent. A leading UTF-8 BOM is dropped (RFC 8259
 * lets a parser ignore it; .NET and Windows tools add one); it is not part of the stored text.
 */
export function decodeUtf8Body(body: Buffer): string {
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
function assertUtf8Charset(contentType: string | undefined): void {
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

/**
 * THE parser of every JSON body (all routes, one way): the declared charset must be UTF-8; the
 * route's cheap checks run on the bytes (`checkJsonBytes`: the submission's limits, so a
 * 75,000-line document is refused after scanning its first thousand lines, never decoded nor
 * parsed); the bytes are decoded strictly (invalid UTF-8 is 400 `INVALID_JSON` `invalid_utf8`);
 * empty is `empty`; `JSON.parse` gives the value (`syntax`); then fiscal-core's lossless parser refuses repeated
 * member names (`duplicate_key`, with the member's `path`: `JSON.parse` keeps the last silently)
 * and nesting over its depth limit (`too_deep`). The text is kept as `request.rawBody`. A large
 * body takes a CPU turn before each step.
 */
export async function parseJsonBody(request: FastifyRequest, body: Buffer): Promise<unknown> {
  assertUtf8Charset(request.headers['content-type']);
  const isLarge = body.length >= LARGE_BODY_BYTES;
  // Bytes first: a hostile body is refused without ever becoming a multi-megabyte string.
  await request.routeOptions.config.checkJsonBytes?.(body);
  if (isLarge) await takeCpuTurn();
  const text = decodeUtf8Body(body);
  request.rawBody = text;
  if (JSON_WHITESPACE_ONLY.test(text)) {
    throw invalidJson('The request body is empty; send a JSON document.', { reason: 'empty' });
  }
  if (isLarge) await takeCpuTurn();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidJson(`The request body is not valid JSON: ${(error as Error).message}`, {
      reason: 'syntax',
    });
  }
  if (isLarge) await takeCpuTurn();
  const lossless = parseJsonLosslessly(text);
  if (!lossless.success) throw fromParseError(lossless.error);
  request.routeOptions.config.checkJsonValue?.(value);
  return value;
}

/** Half of a surrogate pair (a `\uD800` escape without its partner). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses text PostgreSQL cannot store: U+0000 (not allowed in `text` or `jsonb`) and lone
 * surrogates (not Unicode; a JSON `\uD800` escape parses into one). Stored as they were, a
 * reconciliation note holding one failed in the database (500). 400 `INVALID_REQUEST`,
 * `details.reason` `unsupported_character`, with the `path` (names and `[i]`) and the `codePoint`.
 * The status batch and the reconciliation use it; the submission's text is checked by fiscal-core,
 * field by field (422 `TEXT_CHARACTER_NOT_ALLOWED`, a larger set of characters).
 */
export function rejectUnstorableText(value: unknown): void {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      assertStorable(current, path);
    } else if (Array.isArray(current)) {
      current.forEach((item: unknown, index) => stack.push({ value: item, path: `${path}[${index}]` }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, member] of Object.entries(current)) {
        const memberPath = path === '' ? key : `${path}.${key}`;
        assertStorable(key, memberPath);
        stack.push({ value: member, path: memberPath });
      }
    }
  }
}

function assertStorable(text: string, path: string): void {
  const unstorable = text.includes('\u0000') ? 0 : LONE_SURROGATE.exec(text)?.[0].charCodeAt(0);
  if (unstorable === undefined) return;
  const codePoint = `U+${unstorable.toString(16).toUpperCase().padStart(4, '0')}`;
  throw new AppError('INVALID_REQUEST', `${path || 'The body'} holds ${codePoint}, which cannot be stored.`, {
    details: { reason: 'unsupported_character', path, codePoint },
  });
}

/** Only JSON is accepted, through {@link parseJsonBody}, unless a route family registers its own parser. */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser<Buffer>('application/json', { parseAs: 'buffer' }, parseJsonBody);
}
