import { MAX_JSON_DEPTH } from '@ecf/fiscal-core';
import { AppError } from '../shared/errors.ts';
import { takeCpuTurn } from './take-cpu-turn.ts';
import type { TSubmissionIssue } from './validate-document-submission.ts';

/** Most detail lines one e-CF carries: `Item` of `DetallesItems` has maxOccurs 1000 in every official e-CF XSD. */
export const SUBMISSION_LINE_LIMIT = 1000;
/** Most entries of any other array: no element of the official e-CF XSDs repeats more than 1000 times (`Pagina`). */
export const SUBMISSION_ARRAY_LIMIT = 1000;
/**
 * Most members of one object. The largest sequence of the official e-CF XSDs has 25 elements and
 * the simplified contract's top level 27 properties: 100 leaves room for a few unknown fields
 * (each answered as UNKNOWN_FIELD) without letting one object of a million members through.
 */
export const SUBMISSION_MEMBER_LIMIT = 100;
/**
 * Most objects and arrays in one submission: a 1000-line e-CF with every table of every line full
 * has about 49,000; a body of millions of empty arrays is refused before anything walks it.
 */
export const SUBMISSION_CONTAINER_LIMIT = 100_000;

/** Where each format keeps its detail lines. */
const LINE_PATHS = new Set(['lines', 'ECF.DetallesItems.Item']);

/** Characters scanned per CPU turn in a large body (a few milliseconds of work). */
const SCAN_SLICE = 512 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * One open object or array. `commas` counts the separators seen (an array's current index, an
 * object's members so far minus one); `keyStart`/`keyEnd` delimit an object's current member name
 * in the text, decoded only if a path has to be reported.
 */
type TFrame = { isArray: boolean; commas: number; keyStart: number; keyEnd: number };

type TViolation = { kind: 'array' | 'members'; frames: TFrame[] } | { kind: 'containers' };

/**
 * The cheap limits of a submission, checked on its raw JSON text (or its UTF-8 bytes) BEFORE it is parsed, validated,
 * built into XML or checked against the XSD: at most 1000 detail lines (`lines` or
 * `ECF.DetallesItems.Item`: 422 `LINE_LIMIT_EXCEEDED` on that path, `details.limit`,
 * `details.count`), no other array over 1000 entries and no object over 100 members (422
 * `STRUCTURE_LIMIT_EXCEEDED` on its path, `details.reason` `array_too_long` or
 * `too_many_members`), at most 100,000 objects and arrays in all (`too_many_containers`, on the
 * body). Validating 75,000 lines to report that 74,000 are too many took seconds of CPU and
 * gigabytes of memory; an object of a million unknown members would be answered with a million
 * errors.
 *
 * One pass over the characters that tracks only strings (so brackets inside them do not count),
 * nesting, commas and colons: it stops at the first limit exceeded (then only counts that
 * container's entries to report how many) and allocates nothing per value. A large body is scanned
 * in CPU turns (`takeCpuTurn`). It trusts the text to be JSON: what it cannot read as JSON is left
 * to the parser, which reports it; nesting deeper than fiscal-core's {@link MAX_JSON_DEPTH} is too.
 */
export async function assertSubmissionWithinLimits(options: { rawBody: string | Uint8Array }): Promise<void> {
  const { rawBody } = options;
  const isLarge = rawBody.length > SCAN_SLICE;
  const scanner = createScanner();
  // One index across slices: an escape may skip past a slice's end.
  let index = 0;
  while (index < rawBody.length && scanner.outcome === null) {
    if (isLarge && index > 0) await takeCpuTurn();
    const sliceEnd = Math.min(rawBody.length, index + SCAN_SLICE);
    // One loop per representation, so each stays monomorphic (bytes: the API scans before decoding).
    if (typeof rawBody === 'string') {
      for (; index < sliceEnd && scanner.outcome === null; index += 1) {
        index = scanner.step(rawBody.charCodeAt(index), index);
      }
    } else {
      for (; index < sliceEnd && scanner.outcome === null; index += 1) {
        index = scanner.step(rawBody[index]!, index);
      }
    }
  }
  const outcome = scanner.outcome ?? scanner.pending();
  if (outcome === null || outcome === 'stop') return;
  refuse(outcome.violation, (start, end) => textOf(rawBody, start, end), outcome.count);
}

/** The text between two offsets of the body (a member name), decoded. */
function textOf(rawBody: string | Uint8Array, start: number, end: number): string {
  return typeof rawBody === 'string'
    ? rawBody.slice(start, end)
    : Buffer.from(rawBody.buffer, rawBody.byteOffset + start, end - start).toString('utf8');
}

type TOutcome = 'stop' | { violation: TViolation; count: number | null };

/**
 * The scan's state machine, fed one character (or byte: every structural character is ASCII, and
 * no byte of a multi-byte UTF-8 sequence is below 0x80) at a time. `step` answers the index to
 * continue from (past an escaped character) and sets `outcome` when the scan can stop: a limit
 * was exceeded (with the count of the container's entries), or the text is not JSON it can read.
 */
function createScanner() {
  const stack: TFrame[] = [];
  let containers = 0;
  let inString = false;
  let stringStart = 0;
  let lastStringStart = -1;
  let lastStringEnd = -1;
  let violation: TViolation | null = null;
  /** While counting the entries of the container at this depth after its violation. */
  let countingDepth = -1;
  const scanner = {
    outcome: null as TOutcome | null,
    /** At the end of the text: a violation in a container never closed, counted as far as it went. */
    pending: (): TOutcome | null => (violation ? { violation, count: null } : null),
    step(code: number, index: number): number {
      if (inString) {
        if (code === BACKSLASH) return index + 1;
        if (code === QUOTE) {
          inString = false;
          lastStringStart = stringStart;
          lastStringEnd = index + 1;
        }
        return index;
      }
      switch (code) {
        case QUOTE:
          inString = true;
          stringStart = index;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          if (countingDepth < 0) {
            containers += 1;
            if (containers > SUBMISSION_CONTAINER_LIMIT) {
              scanner.outcome = { violation: { kind: 'containers' }, count: null };
              break;
            }
          }
          if (stack.length >= MAX_JSON_DEPTH) {
            scanner.outcome = 'stop'; // the parsers refuse this nesting
            break;
          }
          stack.push({ isArray: code === OPEN_ARRAY, commas: 0, keyStart: -1, keyEnd: -1 });
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY: {
          const closed = stack.pop();
          if (closed === undefined)
            scanner.outcome = 'stop'; // not JSON: the parser says where
          else if (violation && stack.length === countingDepth) {
            // Entries: commas + 1 (a container over a limit is not empty).
            scanner.outcome = { violation, count: closed.commas + 1 };
          }
          break;
        }
        case COMMA: {
          const frame = stack.at(-1);
          if (frame === undefined) {
            scanner.outcome = 'stop';
            break;
          }
          frame.commas += 1;
          if (countingDepth >= 0) break;
          const entries = frame.commas + 1;
          // Lines and other arrays share the limit of 1000; the path decides the code when reported.
          if (entries > (frame.isArray ? SUBMISSION_ARRAY_LIMIT : SUBMISSION_MEMBER_LIMIT)) {
            violation = {
              kind: frame.isArray ? 'array' : 'members',
              frames: stack.map((open) => ({ ...open })),
            };
            countingDepth = stack.length - 1;
          }
          break;
        }
        case COLON: {
          const frame = stack.at(-1);
          if (frame && !frame.isArray) {
            frame.keyStart = lastStringStart;
            frame.keyEnd = lastStringEnd;
          }
          break;
        }
        default:
          break;
      }
      return index;
    },
  };
  return scanner;
}

/** The path of the container at the top of `frames`, with the names the client wrote. */
function pathOf(frames: TFrame[], textBetween: (start: number, end: number) => string): string {
  let path = '';
  for (let depth = 0; depth < frames.length - 1; depth += 1) {
    const parent = frames[depth]!;
    if (parent.isArray) {
      path += `[${parent.commas}]`;
    } else {
      let name: string;
      try {
        name = JSON.parse(textBetween(parent.keyStart, parent.keyEnd)) as string;
      } catch {
        name = textBetween(parent.keyStart + 1, parent.keyEnd - 1);
      }
      path += path === '' ? name : `.${name}`;
    }
  }
  return path;
}

function refuse(
  violation: TViolation,
  textBetween: (start: number, end: number) => string,
  count: number | null,
): never {
  let error: TSubmissionIssue;
  if (violation.kind === 'containers') {
    error = issue(
      '',
      'STRUCTURE_LIMIT_EXCEEDED',
      `More than ${SUBMISSION_CONTAINER_LIMIT} objects and arrays.`,
      {
        reason: 'too_many_containers',
        limit: SUBMISSION_CONTAINER_LIMIT,
      },
    );
  } else {
    const path = pathOf(violation.frames, textBetween);
    const counted = count === null ? {} : { count };
    const howMany = count === null ? 'More than' : String(count);
    if (violation.kind === 'members') {
      error = issue(
        path,
        'STRUCTURE_LIMIT_EXCEEDED',
        `${howMany} members; no object of an e-CF has more than ${SUBMISSION_MEMBER_LIMIT}.`,
        { reason: 'too_many_members', limit: SUBMISSION_MEMBER_LIMIT, ...counted },
      );
    } else if (LINE_PATHS.has(path)) {
      error = issue(
        path,
        'LINE_LIMIT_EXCEEDED',
        `${howMany} detail lines; an e-CF carries at most ${SUBMISSION_LINE_LIMIT}.`,
        { limit: SUBMISSION_LINE_LIMIT, ...counted },
      );
    } else {
      error = issue(
        path,
        'STRUCTURE_LIMIT_EXCEEDED',
        `${howMany} entries; no array of an e-CF has more than ${SUBMISSION_ARRAY_LIMIT}.`,
        { reason: 'array_too_long', limit: SUBMISSION_ARRAY_LIMIT, ...counted },
      );
    }
  }
  throw new AppError(
    'VALIDATION_FAILED',
    `The document exceeds the limits of an e-CF (${error.code} at ${error.path || 'the body'}); it was not validated and nothing was stored.`,
    { details: { errorCount: 1 }, body: { errors: [error], warnings: [] } },
  );
}

function issue(
  path: string,
  code: string,
  message: string,
  details: Record<string, unknown>,
): TSubmissionIssue {
  return { path, code, message, details: { code, ...details } };
}
