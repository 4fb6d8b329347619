import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../shared/errors.ts';
import {
  assertSubmissionWithinLimits,
  SUBMISSION_CONTAINER_LIMIT,
  SUBMISSION_LINE_LIMIT,
} from './assert-submission-within-limits.ts';

type TRefusal = { path: string; code: string; details: Record<string, unknown> };

/** The refusal of a body (as JSON text, or a value to stringify), or null when it is within the limits. */
async function refusalOf(body: unknown): Promise<TRefusal | null> {
  try {
    await assertSubmissionWithinLimits({ rawBody: typeof body === 'string' ? body : JSON.stringify(body) });
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'VALIDATION_FAILED');
    assert.equal(error.status, 422);
    const errors = error.body['errors'] as TRefusal[];
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.details['code'], errors[0]!.code);
    assert.deepEqual(error.body['warnings'], []);
    return errors[0]!;
  }
}

const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ name: `x${index}`, tags: [1, 2] }));

test('up to 1000 lines in either format; 1001 is LINE_LIMIT_EXCEEDED on the path the client wrote, with the count', async () => {
  assert.equal(await refusalOf({ lines: lines(SUBMISSION_LINE_LIMIT) }), null);
  assert.equal(await refusalOf({ ECF: { DetallesItems: { Item: lines(1000) } } }), null);
  assert.deepEqual(await refusalOf({ type: 'E31', lines: lines(1001) }), {
    path: 'lines',
    code: 'LINE_LIMIT_EXCEEDED',
    message: '1001 detail lines; an e-CF carries at most 1000.',
    details: { code: 'LINE_LIMIT_EXCEEDED', limit: 1000, count: 1001 },
  });
  const taxauth = await refusalOf({
    ECF: { Encabezado: { a: [1] }, DetallesItems: { Item: lines(75_000) } },
  });
  assert.equal(taxauth?.path, 'ECF.DetallesItems.Item');
  assert.equal(taxauth?.code, 'LINE_LIMIT_EXCEEDED');
  assert.equal(taxauth?.details['count'], 75_000);
  // A single line given as an object is one line.
  assert.equal(await refusalOf({ ECF: { DetallesItems: { Item: { name: 'x' } } } }), null);
});

test('other arrays over 1000 and objects over 100 members are STRUCTURE_LIMIT_EXCEEDED on their path', async () => {
  const array = await refusalOf({ lines: [{ a: 1 }, { codes: Array.from({ length: 1001 }, () => 1) }] });
  assert.equal(array?.path, 'lines[1].codes');
  assert.equal(array?.code, 'STRUCTURE_LIMIT_EXCEEDED');
  assert.deepEqual(array?.details, {
    code: 'STRUCTURE_LIMIT_EXCEEDED',
    reason: 'array_too_long',
    limit: 1000,
    count: 1001,
  });
  const wide = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, [index]]));
  const members = await refusalOf({ 'a "quoted" \\ name': { b: [{}, wide] } });
  assert.equal(members?.path, 'a "quoted" \\ name.b[1]');
  assert.equal(members?.details['reason'], 'too_many_members');
  assert.equal(members?.details['count'], 101);
  assert.equal((await refusalOf(wide))?.path, '');
});

test('more than 100,000 objects and arrays in all is refused on the body', async () => {
  const many = Array.from({ length: 1000 }, () => Array.from({ length: 101 }, () => ({})));
  assert.ok(1000 * 101 > SUBMISSION_CONTAINER_LIMIT);
  const refusal = await refusalOf({ lines: [{ many }] });
  assert.equal(refusal?.path, '');
  assert.equal(refusal?.details['reason'], 'too_many_containers');
});

test('brackets, commas and colons inside strings (escaped quotes included) are text, not structure', async () => {
  const tricky = `"\\",[[[,,,:::{{{" ${','.repeat(5000)} ${'['.repeat(300)}`;
  assert.equal(await refusalOf({ lines: [{ name: tricky }], note: 'a\\"b' }), null);
});

test('what is not JSON is left to the parser; deep nesting is not walked', async () => {
  for (const text of ['', '{', ']]]', '{"a":', '"unterminated', `${'['.repeat(100_000)}`]) {
    assert.equal(await refusalOf(text), null, text.slice(0, 20));
  }
});

test('the same answers on the UTF-8 bytes as on the text, escapes across scan slices included', async () => {
  // Quotes escaped right at the 512 Ki boundary must not end the string they are in: with the
  // prefix `{"note":"`, the backslashes sit at 512 Ki - 7, -5, -3, -1 (+ the shift).
  const filler = 'a'.repeat(512 * 1024 - 16);
  const body = JSON.stringify({ note: `${filler}""""[[[[,,,,`, ñame: [{}], lines: lines(1001) });
  assert.equal(body.indexOf('\\"', 512 * 1024 - 8), 512 * 1024 - 7);
  for (const rawBody of [body, Buffer.from(body, 'utf8')]) {
    for (let shift = 0; shift < 12; shift += 1) {
      const shifted =
        typeof rawBody === 'string'
          ? ' '.repeat(shift) + rawBody
          : Buffer.concat([Buffer.alloc(shift, 0x20), rawBody]);
      try {
        await assertSubmissionWithinLimits({ rawBody: shifted });
        assert.fail('not refused');
      } catch (error) {
        assert.ok(error instanceof AppError);
        const [refusal] = error.body['errors'] as TRefusal[];
        assert.equal(refusal?.path, 'lines');
        assert.equal(refusal?.details['count'], 1001);
      }
    }
  }
  const wide = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`k${index}`, 1]));
  const named = Buffer.from(JSON.stringify({ 'año\\"x': [wide] }), 'utf8');
  const refusal = await assertSubmissionWithinLimits({ rawBody: named }).catch(
    (error: AppError) => (error.body['errors'] as TRefusal[])[0],
  );
  assert.equal(refusal?.path, 'año\\"x[0]');
});
