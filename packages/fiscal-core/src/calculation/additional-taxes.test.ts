import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decimal, formatDecimal, type TDecimal } from '../decimal/decimal.ts';
import {
  additionalTaxKindOf,
  computeAdditionalTaxes,
  norma1007RateOf,
  selectiveTaxByRate,
  type TAdditionalTaxGroup,
  type TAdditionalTaxInput,
  type TAdditionalTaxLine,
} from './additional-taxes.ts';
import { computeTotals, type TTotalsAdjustment } from './totals.ts';

const money = (value: TDecimal | null): string | null => (value === null ? null : formatDecimal(value, 2));
const amount = (text: string | null | undefined): TDecimal | null =>
  text === null || text === undefined ? null : decimal(text);

function line(fields: {
  amount: string;
  codes: string[];
  indicator?: 0 | 1 | 2 | 3 | 4;
  quantity?: string;
  unitPrice?: string;
  referenceQuantity?: string;
  subquantity?: string;
  alcoholDegrees?: string;
  referenceUnitPrice?: string;
  isBulk?: boolean;
}): TAdditionalTaxLine {
  return {
    amount: decimal(fields.amount),
    indicator: fields.indicator ?? 1,
    codes: fields.codes,
    quantity: amount(fields.quantity),
    unitPrice: amount(fields.unitPrice),
    referenceQuantity: amount(fields.referenceQuantity),
    subquantity: amount(fields.subquantity),
    alcoholDegrees: amount(fields.alcoholDegrees),
    referenceUnitPrice: amount(fields.referenceUnitPrice),
    isBulk: fields.isBulk ?? false,
  };
}

function group(code: string, rate: string, declared: { specific?: string; adValorem?: string } = {}) {
  return {
    code,
    rate: decimal(rate),
    specificAmount: amount(declared.specific),
    adValoremAmount: amount(declared.adValorem),
    otherAmount: null,
  } satisfies TAdditionalTaxGroup;
}

function expectations(input: Partial<TAdditionalTaxInput> & Pick<TAdditionalTaxInput, 'lines' | 'groups'>) {
  return computeAdditionalTaxes({ adjustments: [], pricesIncludeTax: false, ...input }).map(
    ({ code, field, expected }) => ({ code, field, expected: money(expected) }),
  );
}

// The tax authority's own example: "Modelo ilustrativo de e-FCF para Impuesto Selectivo al Consumo"
// (Representación Impresa, modelos ilustrativos, 1.4): a case of 16 bottles of 650 ml of beer at
// 4.30 % (PVP 80.00) and a carton of 20 packs of cigarettes (PVP 200.00), with the rates then in
// force (RD$612.56 per litre of absolute alcohol, RD$25.86 per pack of 10). Its printed amounts:
// ISCe 273.94 and 517.20, ISCav 73.71 and 478.77, ITBIS 694.37, total 4,551.96.
const beer = {
  amount: '1063.97',
  quantity: '1',
  unitPrice: '1063.97',
  referenceQuantity: '16',
  subquantity: '0.650',
  alcoholDegrees: '4.30',
  referenceUnitPrice: '80.00',
};
const cigarettes = {
  amount: '1450.00',
  quantity: '1',
  unitPrice: '1450.00',
  referenceQuantity: '20',
  referenceUnitPrice: '200.00',
};

describe('computeAdditionalTaxes: the tax authority example (RI model 1.4)', () => {
  test('each item carrying its specific and its ad valorem code', () => {
    const lines = [line({ ...beer, codes: ['006', '023'] }), line({ ...cigarettes, codes: ['021', '038'] })];
    const groups = [group('006', '612.56'), group('023', '10'), group('021', '25.86'), group('038', '20')];
    assert.deepEqual(expectations({ lines, groups }), [
      { code: '006', field: 'MontoImpuestoSelectivoConsumoEspecifico', expected: '273.94' },
      { code: '023', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '73.71' },
      { code: '021', field: 'MontoImpuestoSelectivoConsumoEspecifico', expected: '517.20' },
      { code: '038', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '478.77' },
    ]);
  });

  test('each item carrying its ad valorem code only: the group declares the specific amount the base subtracts', () => {
    const lines = [line({ ...beer, codes: ['023'] }), line({ ...cigarettes, codes: ['038'] })];
    const groups = [
      group('023', '10', { specific: '273.94', adValorem: '73.71' }),
      group('038', '20', { specific: '517.20', adValorem: '478.77' }),
    ];
    assert.deepEqual(expectations({ lines, groups }), [
      { code: '023', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '73.71' },
      { code: '038', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '478.77' },
    ]);
    // Subtotal Gravado 2,513.97, Total ISC 1,343.62, Total ITBIS 694.37 (ISC is part of the ITBIS base), Total 4,551.96.
    const selective = selectiveTaxByRate(lines, groups);
    assert.equal(money(selective[1]), '1343.62');
    const totals = computeTotals({
      lines: lines.map((entry) => ({ amount: entry.amount, indicator: entry.indicator })),
      adjustments: [],
      pricesIncludeTax: false,
      withoutItbis: false,
      additionalTaxAmount: decimal('1343.62'),
      selectiveTaxByRate: selective,
    });
    assert.equal(money(totals.taxableByRate[1]), '2513.97');
    assert.equal(money(totals.itbisByRate[1]), '694.37');
    assert.equal(money(totals.total), '4551.96');
  });
});

describe('computeAdditionalTaxes: specific ISC (006-022)', () => {
  test('alcohol 006-018: quantity x reference quantity x litres x degrees / 100 x rate, rounded per item', () => {
    for (let code = 6; code <= 18; code += 1) {
      const tipo = String(code).padStart(3, '0');
      const lines = [
        line({ ...beer, codes: [tipo] }),
        // 2 cases of 24 bottles of 355 ml at 5 %: 0.852 litres of alcohol x 632.58 = 538.958...
        line({
          amount: '3230.00',
          codes: [tipo],
          quantity: '2',
          referenceQuantity: '24',
          subquantity: '0.355',
          alcoholDegrees: '5.00',
        }),
      ];
      assert.deepEqual(expectations({ lines, groups: [group(tipo, '632.58')] }), [
        // 0.4472 l x 632.58 = 282.89 and 538.96.
        { code: tipo, field: 'MontoImpuestoSelectivoConsumoEspecifico', expected: '821.85' },
      ]);
    }
  });

  test('cigarettes 019-022: quantity x reference quantity (packs) x rate', () => {
    for (const [tipo, rate, expected] of [
      ['019', '53.51', '1605.30'],
      ['020', '53.51', '1605.30'],
      ['021', '26.75', '802.50'],
      ['022', '26.75', '802.50'],
    ] as const) {
      const lines = [line({ amount: '4500.00', codes: [tipo], quantity: '3', referenceQuantity: '10' })];
      assert.deepEqual(expectations({ lines, groups: [group(tipo, rate)] }), [
        { code: tipo, field: 'MontoImpuestoSelectivoConsumoEspecifico', expected },
      ]);
    }
  });

  test('a bulk item (UnidadMedida 18) carries no specific ISC', () => {
    const lines = [line({ ...beer, codes: ['006'], isBulk: true }), line({ ...beer, codes: ['006'] })];
    assert.deepEqual(expectations({ lines, groups: [group('006', '612.56')] }), [
      { code: '006', field: 'MontoImpuestoSelectivoConsumoEspecifico', expected: '273.94' },
    ]);
  });

  test('a value the formula needs is absent: not determined (the declared amount stands)', () => {
    const { alcoholDegrees: _omitted, ...withoutDegrees } = beer;
    assert.deepEqual(
      expectations({
        lines: [line({ ...withoutDegrees, codes: ['006'] })],
        groups: [group('006', '612.56')],
      }),
      [{ code: '006', field: 'MontoImpuestoSelectivoConsumoEspecifico', expected: null }],
    );
  });
});

describe('computeAdditionalTaxes: ad valorem ISC (023-039)', () => {
  test('alcohol 023-035: (PVP / 1.18 - specific per unit) / (1 + rate) x units x rate', () => {
    for (let code = 23; code <= 35; code += 1) {
      const tipo = String(code).padStart(3, '0');
      assert.deepEqual(
        expectations({
          lines: [line({ ...beer, codes: ['006', tipo] })],
          groups: [group('006', '612.56'), group(tipo, '10')],
        })[1],
        { code: tipo, field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '73.71' },
      );
    }
  });

  test('cigarettes 036-039: (PVP / 1.18 - specific rate) / (1 + rate) x units x rate', () => {
    for (let code = 36; code <= 39; code += 1) {
      const tipo = String(code).padStart(3, '0');
      assert.deepEqual(
        expectations({
          lines: [line({ ...cigarettes, codes: ['021', tipo] })],
          groups: [group('021', '25.86'), group(tipo, '20')],
        })[1],
        { code: tipo, field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '478.77' },
      );
    }
  });

  test('bulk alcohol: unit price raised 30 % (list price) x quantity x rate, no specific ISC needed', () => {
    const lines = [
      line({ amount: '3230.00', codes: ['023'], quantity: '2', unitPrice: '1615.00', isBulk: true }),
    ];
    assert.deepEqual(expectations({ lines, groups: [group('023', '10')] }), [
      { code: '023', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '419.90' },
    ]);
  });

  test('the specific amount an ad valorem group declares is shared by litres of alcohol among its items', () => {
    const small = {
      amount: '3230.00',
      quantity: '2',
      referenceQuantity: '24',
      subquantity: '0.355',
      alcoholDegrees: '5.00',
      referenceUnitPrice: '65.00',
    };
    // 282.89 (0.4472 l) + 538.96 (0.852 l) at RD$632.58: each item's share is its own specific amount.
    const lines = [line({ ...beer, codes: ['023'] }), line({ ...small, codes: ['023'] })];
    assert.deepEqual(
      expectations({ lines, groups: [group('023', '10', { specific: '821.85' })] }),
      // 72.90 + 191.37
      [{ code: '023', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: '264.27' }],
    );
  });

  test('without a specific code of its own nor a declared specific amount: not determined', () => {
    assert.deepEqual(
      expectations({ lines: [line({ ...beer, codes: ['023'] })], groups: [group('023', '10')] }),
      [{ code: '023', field: 'MontoImpuestoSelectivoConsumoAdvalorem', expected: null }],
    );
  });
});

describe('computeAdditionalTaxes: other additional taxes (001-005)', () => {
  const service = (codes: string[], amountText = '1000.00', indicator: 1 | 4 = 1) =>
    line({ amount: amountText, codes, indicator });

  test('item amounts carrying the code x rate; with ITBIS included, divided by 1.18 first', () => {
    const groups = [
      group('001', '10'),
      group('002', '2'),
      group('003', '16'),
      group('004', '10'),
      group('005', '17'),
    ];
    const lines = [service(['001', '002']), service(['003', '004']), service(['005']), service([])];
    assert.deepEqual(
      expectations({ lines, groups }).map(({ expected }) => expected),
      ['100.00', '20.00', '160.00', '100.00', '170.00'],
    );
    assert.deepEqual(
      expectations({ lines: [service(['001'], '1180.00')], groups, pricesIncludeTax: true }).map(
        ({ expected }) => expected,
      ),
      ['100.00', '0.00', '0.00', '0.00', '0.00'],
    );
  });

  test('Norma 10-07: 002 and 004 divide by 1 + 18 % + the item rates of 002 and 004', () => {
    const groups = [group('002', '2'), group('004', '10'), group('001', '10')];
    const lines = [service(['002', '004'], '1300.00'), service(['001'], '1180.00')];
    const discount: TTotalsAdjustment = {
      kind: 'discount',
      amount: decimal('100.00'),
      indicator: 1,
      norma1007: true,
    };
    assert.deepEqual(
      expectations({ lines, groups, pricesIncludeTax: true, adjustments: [discount] }).map(
        ({ code, expected }) => `${code}=${expected}`,
      ),
      // 1300 / 1.30 = 1000; the tip's item keeps the 1.18 divisor; the Norma 10-07 discount is not subtracted.
      ['002=20.00', '004=100.00', '001=100.00'],
    );
    assert.equal(formatDecimal(norma1007RateOf(['002', '004'], groups), 2), '0.12');
    // Base I1 of the same document: 1300 / 1.30 + 1180 / 1.18.
    const totals = computeTotals({
      lines: lines.map((entry) => ({
        amount: entry.amount,
        indicator: entry.indicator,
        norma1007Rate: norma1007RateOf(entry.codes, groups),
      })),
      adjustments: [discount],
      pricesIncludeTax: true,
      withoutItbis: false,
      additionalTaxAmount: decimal('220.00'),
    });
    assert.equal(money(totals.taxableByRate[1]), '2000.00');
    assert.equal(money(totals.itbisByRate[1]), '360.00');
    assert.equal(money(totals.total), '2580.00');
    assert.equal(money(totals.payable), '2480.00');
  });

  test('global discounts and surcharges count by the code items share of their indicator', () => {
    const groups = [group('001', '10'), group('003', '16')];
    const lines = [service(['001', '003'], '600.00'), service([], '400.00'), service([], '500.00', 4)];
    const adjustments: TTotalsAdjustment[] = [
      { kind: 'discount', amount: decimal('100.00'), indicator: 1, norma1007: false },
      { kind: 'surcharge', amount: decimal('50.00'), indicator: 1, norma1007: false },
      // Another indicator's adjustment, and one without an indicator, touch no code of these items.
      { kind: 'discount', amount: decimal('50.00'), indicator: 4, norma1007: false },
      { kind: 'discount', amount: decimal('70.00'), indicator: null, norma1007: false },
    ];
    assert.deepEqual(
      expectations({ lines, groups, adjustments }).map(({ code, expected }) => `${code}=${expected}`),
      // 001: (600 - 60 + 30) x 10 %; 003 takes discounts but, as the format lists them, not surcharges: (600 - 60) x 16 %.
      ['001=57.00', '003=86.40'],
    );
  });
});

describe('classification and ITBIS base', () => {
  test('Tabla I kinds', () => {
    assert.deepEqual(['001', '005', '006', '022', '023', '039', '040', '000', '6'].map(additionalTaxKindOf), [
      'other',
      'other',
      'isc_specific',
      'isc_specific',
      'isc_ad_valorem',
      'isc_ad_valorem',
      null,
      null,
      null,
    ]);
  });

  test('ISC goes to the ITBIS base of its items indicators; other additional taxes do not', () => {
    const lines = [
      line({ amount: '300.00', codes: ['006'], indicator: 1 }),
      line({ amount: '100.00', codes: ['006'], indicator: 4 }),
      line({ amount: '100.00', codes: ['001'], indicator: 2 }),
    ];
    const groups: TAdditionalTaxGroup[] = [
      group('006', '632.58', { specific: '40.00' }),
      { ...group('001', '10'), otherAmount: decimal('10.00') },
    ];
    const byRate = selectiveTaxByRate(lines, groups);
    assert.deepEqual([money(byRate[1]), money(byRate[2]), money(byRate[3])], ['30.00', '0.00', '0.00']);
  });
});
