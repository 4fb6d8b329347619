import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { add, compare, decimal, formatDecimal, sum, type TDecimal } from '../decimal/decimal.ts';
import {
  apportion,
  computeLineAmount,
  computeLineItbis,
  computeTotals,
  exceedsTolerance,
  type TBillingIndicator,
  type TTotalsLine,
} from './totals.ts';

const money = (value: TDecimal): string => formatDecimal(value, 2);

describe('computeLineAmount', () => {
  test('MontoItem = quantity x price - discount + surcharge, half up', () => {
    assert.equal(money(computeLineAmount(decimal('3'), decimal('33.3333'))), '100.00');
    assert.equal(
      money(computeLineAmount(decimal('2.5'), decimal('10.1050'), decimal('1.00'), decimal('0.50'))),
      '24.76',
    );
  });
});

describe('computeTotals', () => {
  test('prices without ITBIS: bases per rate, ITBIS, exempt, non-billable', () => {
    const totals = computeTotals({
      lines: [
        { amount: decimal('1000.00'), indicator: 1 },
        { amount: decimal('500.00'), indicator: 2 },
        { amount: decimal('200.00'), indicator: 3 },
        { amount: decimal('300.00'), indicator: 4 },
        { amount: decimal('50.00'), indicator: 0 },
      ],
      adjustments: [],
      pricesIncludeTax: false,
      withoutItbis: false,
    });
    assert.equal(money(totals.taxableByRate[1]), '1000.00');
    assert.equal(money(totals.itbisByRate[1]), '180.00');
    assert.equal(money(totals.itbisByRate[2]), '80.00');
    assert.equal(money(totals.itbisByRate[3]), '0.00');
    assert.equal(money(totals.taxableTotal), '1700.00');
    assert.equal(money(totals.totalItbis), '260.00');
    assert.equal(money(totals.exempt), '300.00');
    assert.equal(money(totals.total), '2260.00');
    assert.equal(money(totals.nonBillable), '50.00');
    assert.equal(money(totals.period), '2310.00');
  });

  test('prices with ITBIS: base = sum / (1 + rate), half up', () => {
    const totals = computeTotals({
      lines: [{ amount: decimal('790.00'), indicator: 1 }],
      adjustments: [],
      pricesIncludeTax: true,
      withoutItbis: false,
    });
    assert.equal(money(totals.taxableByRate[1]), '669.49');
    assert.equal(money(totals.itbisByRate[1]), '120.51');
    assert.equal(money(totals.total), '790.00');
  });

  test('global discount reduces its base; a Norma 10-07 discount goes to ValorPagar only', () => {
    const lines = [{ amount: decimal('1180.00'), indicator: 1 as const }];
    const normal = computeTotals({
      lines,
      adjustments: [{ kind: 'discount', amount: decimal('100.00'), indicator: 1, norma1007: false }],
      pricesIncludeTax: true,
      withoutItbis: false,
    });
    assert.equal(money(normal.taxableByRate[1]), '900.00');
    assert.equal(money(normal.total), '1062.00');
    const norma = computeTotals({
      lines,
      adjustments: [{ kind: 'discount', amount: decimal('100.00'), indicator: 1, norma1007: true }],
      pricesIncludeTax: true,
      withoutItbis: false,
    });
    assert.equal(money(norma.taxableByRate[1]), '1000.00');
    assert.equal(money(norma.total), '1180.00');
    assert.equal(money(norma.payable), '1080.00');
  });

  test('Norma 10-07: base I1 divides each item by 1 + 18% + the rates of 002 and 004 it carries', () => {
    const adjustments = [
      { kind: 'discount' as const, amount: decimal('100.00'), indicator: 1 as const, norma1007: true },
    ];
    const lines = [
      { amount: decimal('1300.00'), indicator: 1 as const, norma1007Rate: decimal('0.12') },
      { amount: decimal('650.00'), indicator: 1 as const, norma1007Rate: decimal('0.12') },
      { amount: decimal('1180.00'), indicator: 1 as const, norma1007Rate: decimal('0') },
    ];
    const norma = computeTotals({ lines, adjustments, pricesIncludeTax: true, withoutItbis: false });
    // (1300 + 650) / 1.30 + 1180 / 1.18
    assert.equal(money(norma.taxableByRate[1]), '2500.00');
    assert.equal(money(norma.itbisByRate[1]), '450.00');
    // Without a Norma 10-07 discount the rates of 002 and 004 do not divide.
    const plain = computeTotals({ lines, adjustments: [], pricesIncludeTax: true, withoutItbis: false });
    assert.equal(money(plain.taxableByRate[1]), '2652.54');
  });

  test('ISC of a rate joins its ITBIS base, not its taxable amount', () => {
    const totals = computeTotals({
      lines: [{ amount: decimal('2513.97'), indicator: 1 }],
      adjustments: [],
      pricesIncludeTax: false,
      withoutItbis: false,
      additionalTaxAmount: decimal('1343.62'),
      selectiveTaxByRate: { 1: decimal('1343.62') },
    });
    assert.equal(money(totals.taxableByRate[1]), '2513.97');
    assert.equal(money(totals.itbisByRate[1]), '694.37');
    assert.equal(money(totals.total), '4551.96');
  });

  test('surcharges add to their base', () => {
    const totals = computeTotals({
      lines: [{ amount: decimal('100.00'), indicator: 4 }],
      adjustments: [{ kind: 'surcharge', amount: decimal('10.00'), indicator: 4, norma1007: false }],
      pricesIncludeTax: false,
      withoutItbis: false,
    });
    assert.equal(money(totals.exempt), '110.00');
  });

  test('credit note of more than 30 days: no ITBIS, total without it', () => {
    const totals = computeTotals({
      lines: [{ amount: decimal('900.00'), indicator: 1 }],
      adjustments: [],
      pricesIncludeTax: false,
      withoutItbis: true,
    });
    assert.equal(money(totals.totalItbis), '0.00');
    assert.equal(money(totals.total), '900.00');
  });

  test('withholding totals are sums of the lines', () => {
    const totals = computeTotals({
      lines: [
        {
          amount: decimal('10000.00'),
          indicator: 1,
          itbisWithheld: decimal('1800.00'),
          isrWithheld: decimal('1000.00'),
        },
        { amount: decimal('600.00'), indicator: 1, itbisWithheld: decimal('54.00') },
      ],
      adjustments: [],
      pricesIncludeTax: false,
      withoutItbis: false,
    });
    assert.equal(money(totals.itbisWithheld), '1854.00');
    assert.equal(money(totals.isrWithheld), '1000.00');
  });
});

describe('helpers', () => {
  test('line ITBIS with and without ITBIS included', () => {
    assert.equal(money(computeLineItbis(decimal('1000.00'), 1, false)), '180.00');
    assert.equal(money(computeLineItbis(decimal('1180.00'), 1, true)), '180.00');
    assert.equal(money(computeLineItbis(decimal('1000.00'), 4, false)), '0.00');
  });

  test('apportion splits exactly', () => {
    const parts = apportion(decimal('100.00'), [decimal('1'), decimal('1'), decimal('1')]);
    assert.deepEqual(parts.map(money), ['33.33', '33.33', '33.34']);
  });

  test('tolerance is strict above the cents given', () => {
    assert.equal(exceedsTolerance(decimal('101.00'), decimal('100.00'), 100), false);
    assert.equal(exceedsTolerance(decimal('101.01'), decimal('100.00'), 100), true);
    assert.equal(exceedsTolerance(decimal('98.99'), decimal('100.00'), 100), true);
  });
});

describe('properties', () => {
  const amount = fc.bigInt({ min: 0n, max: 10n ** 10n }).map((units) => ({ units, scale: 2 }));
  const indicator = fc.constantFrom<TBillingIndicator>(0, 1, 2, 3, 4);
  const line = fc.record({ amount, indicator }) as fc.Arbitrary<TTotalsLine>;

  test('MontoTotal = MontoGravadoTotal + MontoExento + TotalITBIS; bases and ITBIS per rate add up', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 50 }),
        fc.boolean(),
        (lines, pricesIncludeTax) => {
          const totals = computeTotals({ lines, adjustments: [], pricesIncludeTax, withoutItbis: false });
          assert.equal(
            compare(totals.total, sum([totals.taxableTotal, totals.exempt, totals.totalItbis])),
            0,
          );
          assert.equal(
            compare(
              totals.taxableTotal,
              sum([totals.taxableByRate[1], totals.taxableByRate[2], totals.taxableByRate[3]]),
            ),
            0,
          );
          assert.equal(
            compare(
              totals.totalItbis,
              sum([totals.itbisByRate[1], totals.itbisByRate[2], totals.itbisByRate[3]]),
            ),
            0,
          );
          assert.equal(compare(totals.period, add(totals.total, totals.nonBillable)), 0);
          if (pricesIncludeTax) {
            // Base + ITBIS of each rate stays within a cent per rate of what the lines charged.
            for (const rate of [1, 2, 3] as const) {
              assert.ok(
                !exceedsTolerance(
                  add(totals.taxableByRate[rate], totals.itbisByRate[rate]),
                  totals.itemSums[rate],
                  1,
                ),
              );
            }
          }
        },
      ),
    );
  });
});
