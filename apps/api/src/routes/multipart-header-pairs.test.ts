// The header lines of each multipart part, counted as the body streams (issue 25, item 10): busboy's
// `headerPairs` only stops reading them, the route refuses a part with more than 20. Counted the
// same whatever the chunking; folded lines and the parts' contents never count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPartHeaderCounter, multipartBoundaryOf } from './multipart-header-pairs.ts';

const BOUNDARY = 'b0und4ry';

function body(headerCounts: number[], content = 'X-Not-A-Header: 1\r\n\r\n<ECF/>'): string {
  return (
    'preamble\r\n' +
    headerCounts
      .map(
        (count) =>
          `--${BOUNDARY}\r\n${Array.from({ length: count }, (_unused, index) => `X-H${index}: v\r\n`).join('')}\r\n${content}\r\n`,
      )
      .join('') +
    `--${BOUNDARY}--\r\n` +
    Array.from({ length: 50 }, (_unused, index) => `X-Epilogue${index}: v\r\n`).join('')
  );
}

function exceeded(text: string, chunkSize: number, maxPairs = 20): boolean {
  const counter = createPartHeaderCounter(BOUNDARY, maxPairs);
  for (let at = 0; at < text.length; at += chunkSize)
    counter.push(Buffer.from(text.slice(at, at + chunkSize), 'latin1'));
  return counter.exceeded;
}

test('20 header lines per part pass, 21 do not, in any chunking', () => {
  for (const chunkSize of [1, 2, 3, 7, 64, 100_000]) {
    assert.equal(exceeded(body([20, 3, 20]), chunkSize), false, `chunks of ${chunkSize}`);
    assert.equal(exceeded(body([2, 21]), chunkSize), true, `chunks of ${chunkSize}`);
    assert.equal(exceeded(body([200]), chunkSize), true, `chunks of ${chunkSize}`);
  }
});

test('folded continuation lines, the preamble, the contents and the epilogue are not header lines', () => {
  const folded = `--${BOUNDARY}\r\nX-Long: a\r\n${' more\r\n'.repeat(40)}\r\nbody\r\n--${BOUNDARY}--\r\n`;
  assert.equal(exceeded(folded, 5), false);
  const headerLikeContent = Array.from({ length: 100 }, (_unused, index) => `X-C${index}: v`).join('\r\n');
  assert.equal(exceeded(body([1], headerLikeContent), 9), false);
});

test('the boundary of a Content-Type, quoted or not', () => {
  assert.equal(multipartBoundaryOf('multipart/form-data; boundary=abc'), 'abc');
  assert.equal(multipartBoundaryOf('multipart/form-data; charset=utf-8; BOUNDARY="a b"'), 'a b');
  assert.equal(multipartBoundaryOf('multipart/form-data'), undefined);
  assert.equal(multipartBoundaryOf(undefined), undefined);
});
