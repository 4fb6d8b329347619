/**
 * Request bodies, valid and hostile. A valid value comes from json-schema-faker over the
 * operation's JSON Schema (or from the corpus of known-good bodies); each hostile case is one
 * fast-check sample (the mutation, where it applies, and the random text, bytes and JSON it uses)
 * applied to that value. Everything is seeded: the same seed gives the same cases.
 */
import fc from 'fast-check';
import { generateSync, type JsonSchema } from 'json-schema-faker';

/** A request body: a JSON value (serialized as is), raw bytes, or nothing. */
export type TBody =
  { kind: 'json'; value: unknown } | { kind: 'raw'; bytes: Buffer; contentType?: string } | { kind: 'none' };

export type TCaseDraw = {
  mutation: TMutationName;
  pick: number;
  text: string;
  bytes: Uint8Array;
  json: unknown;
};

/** Strings that once broke a surface or are classic injections (issue 25, item 1: eNCF-shaped or not). */
export const HOSTILE_STRINGS = [
  'abc',
  'E31',
  'E31000000010X',
  "' OR '1'='1",
  '-1',
  '0',
  '99999999999999999999999999',
  '1e309',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY y SYSTEM "file:///etc/passwd">]><x>&y;</x>',
  '{{RNC}}',
  '\u202e\u2028\u2029',
  '\ufffe\uffff',
  '😀'.repeat(20),
  '00000000-0000-0000-0000-000000000000',
  'null',
  ' ',
  '',
];

/** Lengths at and past the limits the contracts use (names 100/200, URLs 2,048, text 4,096...). */
const BOUNDARY_LENGTHS = [
  0, 1, 2, 64, 65, 100, 101, 200, 201, 255, 256, 1000, 1001, 2048, 2049, 4096, 4097, 100_001,
];

/** Number texts JSON.parse turns into something a database or BigInt may refuse. */
const HUGE_NUMBERS = [
  '1e309',
  '-1e309',
  '123456789012345678901234567890123456789',
  '9007199254740993',
  '-0',
  '1e-400',
  '0.000000000000000000000000000001',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
];

/** Bytes that are not UTF-8: a lone continuation, a truncated sequence, an overlong, a surrogate, past U+10FFFF. */
const INVALID_UTF8 = [
  [0xff],
  [0x80],
  [0xc3, 0x28],
  [0xe2, 0x82],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
];

export const MUTATIONS = [
  'missing_member',
  'extra_member',
  'wrong_type',
  'boundary_length',
  'nul_character',
  'lone_surrogate',
  'invalid_utf8',
  'duplicate_key',
  'huge_number',
  'deep_nesting',
  'long_array',
  'hostile_string',
  'truncated',
  'random_bytes',
  'random_json',
  'not_json_content_type',
  'empty_body',
] as const;
export type TMutationName = (typeof MUTATIONS)[number];

/**
 * Mutations the request edge refuses whatever the operation (strict UTF-8, duplicate member names,
 * nesting past the limit): a 2xx answer to one of them is a finding. U+0000 and lone surrogates are
 * refused in any body a write stores (`unsupported_character`): a 2xx to a write is a finding.
 */
export const ALWAYS_REFUSED: ReadonlySet<TMutationName> = new Set([
  'invalid_utf8',
  'duplicate_key',
  'deep_nesting',
]);
export const REFUSED_BY_WRITES: ReadonlySet<TMutationName> = new Set(['nul_character', 'lone_surrogate']);

/** The fast-check arbitrary of one hostile case. */
export const caseDrawArbitrary: fc.Arbitrary<TCaseDraw> = fc.record({
  mutation: fc.constantFrom(...MUTATIONS),
  pick: fc.nat(),
  text: fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
  ),
  bytes: fc.uint8Array({ maxLength: 64 }),
  json: fc.jsonValue({ maxDepth: 3 }),
});

/** `count` hostile cases for a seed. */
export function sampleCases(seed: number, count: number): TCaseDraw[] {
  if (count <= 0) return [];
  return fc.sample(caseDrawArbitrary, { seed, numRuns: count });
}

/**
 * Members whose generated text the service would refuse for reasons a JSON Schema cannot say (a
 * webhook URL must be one it may call: loopback is allowed in the fuzzer's servers).
 */
const PLAUSIBLE: Array<[RegExp, string]> = [
  [/(^|[a-z])url$/i, 'http://127.0.0.1:9/fuzz'],
  [/^origin$/i, 'https://erp.fuzz.example'],
];

function plausible(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plausible);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const replacement =
        typeof item === 'string' ? PLAUSIBLE.find(([pattern]) => pattern.test(key)) : undefined;
      return [key, replacement ? replacement[1] : plausible(item)];
    }),
  );
}

/** A valid-looking value of a JSON Schema (json-schema-faker, seeded). */
export function fakeValue(schema: unknown, seed: number): unknown {
  try {
    return plausible(
      generateSync(schema as JsonSchema, {
        seed,
        optionalsProbability: 0.5,
        maxItems: 3,
        // Valid values stay small; the hostile lengths are the mutations' (boundary_length).
        maxLength: 300,
        useExamplesValue: true,
        useDefaultValue: true,
      }),
    );
  } catch {
    return {};
  }
}

type TPath = Array<string | number>;

/** Every path of a JSON value (the root included), in document order. */
function pathsOf(value: unknown, path: TPath = []): TPath[] {
  const paths: TPath[] = [path];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...path, index])));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...path, key]));
  return paths;
}

function getAt(value: unknown, path: TPath): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** A copy of `value` with the member at `path` replaced (or deleted when `replacement` is DELETE). */
export function setAt(value: unknown, path: TPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...TPath];
  if (Array.isArray(value)) {
    const copy = [...(value as unknown[])];
    if (replacement === DELETE && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = setAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (replacement === DELETE && rest.length === 0) delete copy[head];
  else copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}
const DELETE = Symbol('delete');

const MARKER = 'ZZ-fuzz-marker-ZZ';

/** Serializes `value` with the JSON text of the marker member replaced by raw bytes. */
function withRawAt(value: unknown, path: TPath, raw: Buffer, inString: boolean): Buffer {
  const text = JSON.stringify(setAt(value, path, MARKER));
  const [before = '', after = ''] = text.split(inString ? MARKER : `"${MARKER}"`);
  return Buffer.concat([Buffer.from(before, 'utf8'), raw, Buffer.from(after, 'utf8')]);
}

function pickOf<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A hostile body made from `base` by one drawn mutation, and a label saying what was done where. */
export function mutate(
  base: unknown,
  draw: TCaseDraw,
): { label: string; body: TBody; mutation: TMutationName } {
  return { ...mutateOnce(base, draw), mutation: draw.mutation };
}

function mutateOnce(base: unknown, draw: TCaseDraw): { label: string; body: TBody } {
  const paths = pathsOf(base);
  const stringPaths = paths.filter((path) => typeof getAt(base, path) === 'string');
  const leafPaths = paths.filter((path) => {
    const node = getAt(base, path);
    return node === null || typeof node !== 'object';
  });
  const objectPaths = paths.filter((path) => isObject(getAt(base, path)));
  const memberPaths = paths.filter((path) => path.length > 0 && isObject(getAt(base, path.slice(0, -1))));
  const anyPath = pickOf(paths, draw.pick) ?? [];
  const stringPath = pickOf(stringPaths, draw.pick) ?? pickOf(leafPaths, draw.pick) ?? anyPath;
  const where = (path: TPath) => (path.length === 0 ? '(root)' : path.join('.'));
  const json = (label: string, value: unknown) => ({ label, body: { kind: 'json', value } as TBody });
  const raw = (label: string, bytes: Buffer, contentType?: string) => ({
    label,
    body: { kind: 'raw', bytes, ...(contentType ? { contentType } : {}) } as TBody,
  });
  switch (draw.mutation) {
    case 'missing_member': {
      const path = pickOf(memberPaths, draw.pick);
      return path ? json(`missing ${where(path)}`, setAt(base, path, DELETE)) : json('empty object', {});
    }
    case 'extra_member': {
      const path = pickOf(objectPaths, draw.pick) ?? [];
      const target = getAt(base, path);
      return json(
        `extra member in ${where(path)}`,
        setAt(base, path, { ...(isObject(target) ? target : {}), zzExtra: draw.json }),
      );
    }
    case 'wrong_type': {
      const current = getAt(base, anyPath);
      const candidates: unknown[] = [draw.pick, 'x', true, null, [draw.json], { zz: draw.json }].filter(
        (candidate) =>
          typeof candidate !== typeof current || Array.isArray(candidate) !== Array.isArray(current),
      );
      return json(
        `wrong type at ${where(anyPath)}`,
        setAt(base, anyPath, pickOf(candidates, draw.pick >> 3)),
      );
    }
    case 'boundary_length': {
      const length = pickOf(BOUNDARY_LENGTHS, draw.pick >> 3) ?? 0;
      const unit = draw.text.length > 0 ? draw.text : 'x';
      const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
      return json(`length ${length} at ${where(stringPath)}`, setAt(base, stringPath, text));
    }
    case 'nul_character':
      return json(`U+0000 at ${where(stringPath)}`, setAt(base, stringPath, `${draw.text}\u0000x`));
    case 'lone_surrogate':
      // JSON.stringify writes a lone surrogate as the escape \ud800: valid JSON text, invalid Unicode.
      return json(
        `lone surrogate at ${where(stringPath)}`,
        setAt(base, stringPath, `a${draw.pick % 2 === 0 ? '\ud800' : '\udfff'}b`),
      );
    case 'invalid_utf8': {
      const bytes = pickOf(INVALID_UTF8, draw.pick >> 3) ?? [0xff];
      return raw(
        `invalid UTF-8 ${Buffer.from(bytes).toString('hex')} at ${where(stringPath)}`,
        withRawAt(base, stringPath, Buffer.from(bytes), true),
      );
    }
    case 'duplicate_key': {
      const path = pickOf(objectPaths, draw.pick) ?? [];
      const target = getAt(base, path);
      const key = (isObject(target) ? Object.keys(target)[0] : undefined) ?? 'zz';
      const duplicate = Buffer.from(`{${JSON.stringify(key)}:${JSON.stringify(draw.json)},`, 'utf8');
      // The object at `path` becomes the marker; its text is re-added after a first copy of one member.
      const text = JSON.stringify(isObject(target) ? target : {});
      const bytes = withRawAt(
        base,
        path,
        Buffer.concat([duplicate, Buffer.from(text === '{}' ? `${JSON.stringify(key)}:1}` : text.slice(1))]),
        false,
      );
      return raw(`duplicate member ${JSON.stringify(key)} in ${where(path)}`, bytes);
    }
    case 'huge_number': {
      const number = pickOf(HUGE_NUMBERS, draw.pick >> 3) ?? '1e309';
      const path = pickOf(leafPaths, draw.pick) ?? anyPath;
      return raw(`number ${number} at ${where(path)}`, withRawAt(base, path, Buffer.from(number), false));
    }
    case 'deep_nesting': {
      const depth = draw.pick % 2 === 0 ? 300 : 100_000;
      return raw(
        `nesting ${depth} at ${where(anyPath)}`,
        withRawAt(base, anyPath, Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`), false),
      );
    }
    case 'long_array': {
      const length = draw.pick % 2 === 0 ? 10_001 : 200_000;
      return raw(
        `array of ${length} at ${where(anyPath)}`,
        withRawAt(base, anyPath, Buffer.from(`[${Array(length).fill('0').join(',')}]`), false),
      );
    }
    case 'hostile_string': {
      const text = pickOf(HOSTILE_STRINGS, draw.pick >> 3) ?? '';
      return json(`${JSON.stringify(text)} at ${where(stringPath)}`, setAt(base, stringPath, text));
    }
    case 'truncated': {
      const text = Buffer.from(JSON.stringify(base) ?? '', 'utf8');
      const cut = text.length === 0 ? 0 : draw.pick % text.length;
      return raw(`truncated at byte ${cut}`, text.subarray(0, cut));
    }
    case 'random_bytes':
      return raw('random bytes', Buffer.from(draw.bytes));
    case 'random_json':
      return json('random JSON value', draw.json);
    case 'not_json_content_type':
      return raw(
        'JSON sent as text/plain',
        Buffer.from(JSON.stringify(base) ?? '{}'),
        pickOf(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'], draw.pick),
      );
    case 'empty_body':
      return { label: 'no body', body: { kind: 'none' } };
  }
}

/**
 * One case per string member of a write's body: U+0000 or a lone surrogate in that member (which
 * one alternates with the seed, so that consecutive days cover both). Issue 25's item 2 was a 500
 * on exactly this, one stored field at a time.
 */
export function unsupportedCharacterCases(
  base: unknown,
  seed: number,
): Array<{ label: string; body: TBody; mutation: TMutationName }> {
  return pathsOf(base)
    .filter((path) => typeof getAt(base, path) === 'string')
    .slice(0, 24)
    .map((path, index) => {
      const nul = (seed + index) % 2 === 0;
      const text = `${String(getAt(base, path)).slice(0, 20)}${nul ? '\u0000' : '\ud800'}x`;
      return {
        label: `${nul ? 'U+0000' : 'lone surrogate'} at ${path.join('.') || '(root)'}`,
        body: { kind: 'json', value: setAt(base, path, text) },
        mutation: nul ? 'nul_character' : 'lone_surrogate',
      };
    });
}

/** Garbage for a path parameter (already percent-encoded where needed). */
export function garbageSegment(draw: TCaseDraw): string {
  const fixed = [
    '%00',
    '%FF',
    '%C0%AF',
    '%ED%A0%80',
    '..',
    '%2e%2e',
    "'%20OR%20'1'%3D'1",
    'E31',
    'abc',
    'E31000000010X',
    '-1',
    '99999999999999999999999999',
    'a'.repeat(3000),
    '%F0%9F%98%80',
    '%',
    '%zz',
    'null',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ];
  if (draw.pick % 3 === 0) return encodeURIComponent(draw.text.replace(/[\ud800-\udfff]/g, '')) || '%20';
  return fixed[(draw.pick >> 2) % fixed.length] ?? 'x';
}

/** Garbage for a query string: bad encodings, repeats, unknown names, long values. */
export function garbageQuery(draw: TCaseDraw, names: readonly string[]): string {
  const name = pickOf(names, draw.pick) ?? 'zz';
  const value = garbageSegment(draw);
  switch (draw.pick % 5) {
    case 0:
      return `${name}=${value}`;
    case 1:
      return `${name}=1&${name}=2`;
    case 2:
      return `${name}[]=1&${name}[a]=2`;
    case 3:
      return `zzUnknown=${value}`;
    default:
      return `${name}=${'9'.repeat(400)}`;
  }
}
