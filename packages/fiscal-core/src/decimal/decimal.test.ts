import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  add,
  compare,
  decimal,
  divide,
  formatDecimal,
  formatDecimalTrimmed,
  multiply,
  parseDecimal,
  round,
  subtract,
  sum,
} from './decimal.ts';

describe('parseDecimal', () => {
  test('reads plain decimal text exactly', () => {
    assert.deepEqual(parseDecimal('1.10'), { units: 110n, scale: 2 });
    assert.deepEqual(parseDecimal('-3'), { units: -3n, scale: 0 });
    assert.deepEqual(parseDecimal('12345678901234567.89'), { units: 1234567890123456789n, scale: 2 });
  });

  test('rejects separators, letters, exponents, empty and signs it does not know', () => {
    for (const text of [
      '1,000.00',
      '1.000,00',
      'abc',
      '',
      ' 1',
      '1 ',
      '1e3',
      '1E-2',
      '+1',
      '.5',
      '5.',
      '--1',
      '0x10',
      'NaN',
      'Infinity',
    ]) {
      assert.equal(parseDecimal(text), null, text);
    }
  });
});

describe('arithmetic', () => {
  test('is exact where binary floating point is not', () => {
    assert.equal(formatDecimal(add(decimal('0.1'), decimal('0.2')), 2), '0.30');
    assert.equal(formatDecimal(multiply(decimal('1.15'), decimal('100')), 2), '115.00');
    assert.equal(formatDecimal(subtract(decimal('10'), decimal('0.01')), 2), '9.99');
  });

  test('rounds half up, away from zero, on the third decimal (tax authority examples)', () => {
    assert.equal(formatDecimal(decimal('750.5212'), 2), '750.52');
    assert.equal(formatDecimal(decimal('750.5276'), 2), '750.53');
    assert.equal(formatDecimal(decimal('0.125'), 2), '0.13');
    assert.equal(formatDecimal(decimal('-0.125'), 2), '-0.13');
    assert.equal(formatDecimal(decimal('2.675'), 2), '2.68'); // 2.675.toFixed(2) is "2.67" in floating point
  });

  test('divides with half-up rounding at the requested scale', () => {
    assert.equal(formatDecimal(divide(decimal('118'), decimal('1.18'), 2), 2), '100.00');
    assert.equal(formatDecimal(divide(decimal('790.00'), decimal('1.18'), 2), 2), '669.49');
    assert.equal(formatDecimal(divide(decimal('1'), decimal('3'), 4), 4), '0.3333');
    assert.equal(formatDecimal(divide(decimal('2'), decimal('3'), 2), 2), '0.67');
    assert.equal(formatDecimal(divide(decimal('-2'), decimal('3'), 2), 2), '-0.67');
    assert.throws(() => divide(decimal('1'), decimal('0'), 2));
  });

  test('formats with fixed or trimmed decimals', () => {
    assert.equal(formatDecimal(decimal('5'), 2), '5.00');
    assert.equal(formatDecimal(decimal('-0.001'), 2), '0.00');
    assert.equal(formatDecimalTrimmed(decimal('450.5000'), 2, 4), '450.50');
    assert.equal(formatDecimalTrimmed(decimal('60.2512'), 2, 4), '60.2512');
    assert.equal(formatDecimalTrimmed(decimal('10.00'), 0, 2), '10');
  });

  test('compares across scales and sums', () => {
    assert.equal(compare(decimal('1.10'), decimal('1.1')), 0);
    assert.equal(compare(decimal('1.01'), decimal('1.1')), -1);
    assert.equal(formatDecimal(sum([decimal('1.005'), decimal('2'), decimal('-0.5')]), 3), '2.505');
  });

  test('property: a + b - b == a, and round-trips through text', () => {
    const decimalText = fc
      .tuple(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.integer({ min: 0, max: 6 }))
      .map(([units, scale]) => ({ units, scale }));
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        assert.equal(compare(subtract(add(a, b), b), a), 0);
        const text = formatDecimal(a, a.scale);
        assert.equal(compare(decimal(text), a), 0);
        assert.equal(compare(round(a, a.scale + 2), a), 0);
      }),
    );
  });
});
