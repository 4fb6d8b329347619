/**
 * Rules 4 and 7 on whole tax-authority JSON documents: additional taxes (other 001-005, specific ISC
 * 006-022, ad valorem ISC 023-039) and the Norma 10-07 divisor. For each code a document whose
 * declared amounts are the formula's validates without a warning, and one whose group amount is off
 * warns on that group with the formula's amount; the right documents are signed and accepted by the
 * official XSD, so they are documents the tax authority can receive.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { add, decimal, formatDecimal, multiply, round, sum, type TDecimal } from '../decimal/decimal.ts';
import { signEcfDocument } from '../issuance/sign-ecf.ts';
import type { TXsdValidators } from '../xsd/index.ts';
import type { TSigningCertificate } from '../signing/index.ts';
import { loadReferenceXsdValidators } from '../../test/reference-xsd.ts';
import { loadGoldenCertificate } from '../../test/golden/golden-documents.ts';
import { issuesOf, setPath, taxauthExample, TEST_NOW, validate } from '../../test/validation-support.ts';

type TJson = Record<string, unknown>;

let validators: TXsdValidators;
let certificate: TSigningCertificate;

before(() => {
  validators = loadReferenceXsdValidators();
  certificate = loadGoldenCertificate();
});
after(() => validators.dispose());

const TAX_GROUP = 'ECF.Encabezado.Totales.ImpuestosAdicionales.ImpuestoAdicional';
const money = (value: TDecimal): string => formatDecimal(value, 2);

/** An item of ITBIS rate 1 carrying `codes`, with the ISC fields given. */
function item(fields: TJson, codes: readonly string[]): TJson {
  return {
    IndicadorFacturacion: '1',
    NombreItem: 'Artículo',
    IndicadorBienoServicio: '1',
    ...fields,
    TablaImpuestoAdicional: { ImpuestoAdicional: codes.map((code) => ({ TipoImpuesto: code })) },
  };
}

/**
 * An E31 with these items (all at ITBIS 18 %, prices without ITBIS) and additional-tax groups, whose
 * totals agree with what it declares: base I1 the items, ITBIS 18 % of the base plus the declared ISC
 * (006-039), `MontoImpuestoAdicional` the groups' sum. Only a group's own formula can then disagree.
 */
async function e31(items: readonly TJson[], groups: readonly TJson[]): Promise<TJson> {
  const body = await taxauthExample('31');
  const numbered: TJson[] = items.map((entry, index) => ({ NumeroLinea: String(index + 1), ...entry }));
  setPath(body, 'ECF.DetallesItems.Item', numbered);
  const amountOf = (value: unknown): TDecimal => decimal(typeof value === 'string' ? value : '0');
  const taxable = sum(numbered.map((entry) => amountOf(entry['MontoItem'])));
  const isc = sum(
    groups
      .filter((group) => Number(group['TipoImpuesto']) >= 6)
      .flatMap((group) => [
        amountOf(group['MontoImpuestoSelectivoConsumoEspecifico']),
        amountOf(group['MontoImpuestoSelectivoConsumoAdvalorem']),
      ]),
  );
  const additional = sum(
    groups.flatMap((group) =>
      [
        'MontoImpuestoSelectivoConsumoEspecifico',
        'MontoImpuestoSelectivoConsumoAdvalorem',
        'OtrosImpuestosAdicionales',
      ].map((name) => amountOf(group[name])),
    ),
  );
  const itbis = round(multiply(add(taxable, isc), decimal('0.18')), 2);
  const total = sum([taxable, itbis, additional]);
  setPath(body, 'ECF.Encabezado.Totales', {
    MontoGravadoTotal: money(taxable),
    MontoGravadoI1: money(taxable),
    ITBIS1: '18',
    TotalITBIS: money(itbis),
    TotalITBIS1: money(itbis),
    MontoImpuestoAdicional: money(additional),
    ImpuestosAdicionales: { ImpuestoAdicional: groups },
    MontoTotal: money(total),
  });
  setPath(body, 'ECF.Encabezado.IdDoc.TablaFormasPago.FormaDePago[0].MontoPago', money(total));
  return body;
}

/** Validates: no error, no warning, signed and accepted by the official XSD of its type. */
async function assertSquares(body: TJson): Promise<void> {
  const result = await validate(body);
  assert.ok(result.success, JSON.stringify(issuesOf(result)));
  assert.deepEqual(result.data.warnings, []);
  const signed = signEcfDocument(result.data.document, certificate, TEST_NOW);
  assert.ok(signed.success, JSON.stringify(!signed.success && signed.issues));
  const schema = validators.validateXml(signed.data.xml);
  assert.ok(schema.success, JSON.stringify(!schema.success && schema.issues));
}

/** Validates and returns the only warnings, which must all be squaring warnings, by path. */
async function squaringWarnings(body: TJson): Promise<Record<string, unknown>> {
  const result = await validate(body);
  assert.ok(result.success, `squaring never blocks: ${JSON.stringify(issuesOf(result))}`);
  return Object.fromEntries(
    result.data.warnings.map((warning) => {
      assert.equal(warning.code, 'SQUARING_ABOVE_TAXAUTH_TOLERANCE');
      return [warning.path, warning.details];
    }),
  );
}

function squaringDetails(declared: string, expected: string, toleranceCents = 100) {
  return { code: 'SQUARING_ABOVE_TAXAUTH_TOLERANCE', declared, expected, toleranceCents };
}

const codes = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, offset) => String(from + offset).padStart(3, '0'));

/** 2 cases of 24 bottles of 355 ml of beer at 5 %, PVP 65.00 a bottle: 0.852 litres of absolute alcohol. */
const BEER_CASES = {
  CantidadItem: '2.00',
  UnidadMedida: '6',
  CantidadReferencia: '24',
  UnidadReferencia: '5',
  TablaSubcantidad: { SubcantidadItem: [{ Subcantidad: '0.355', CodigoSubcantidad: '24' }] },
  GradosAlcohol: '5.00',
  PrecioUnitarioReferencia: '65.00',
  PrecioUnitarioItem: '1615.00',
  MontoItem: '3230.00',
};
/** 3 cartons of 10 packs, PVP 200.00 a pack. */
const CIGARETTE_CARTONS = {
  CantidadItem: '3.00',
  UnidadMedida: '31',
  CantidadReferencia: '10',
  UnidadReferencia: '7',
  PrecioUnitarioReferencia: '200.00',
  PrecioUnitarioItem: '1500.00',
  MontoItem: '4500.00',
};

describe('other additional taxes 001-005: item amounts x rate', () => {
  const rates: Record<string, [string, string]> = {
    '001': ['10', '100.00'],
    '002': ['2', '20.00'],
    '003': ['16', '160.00'],
    '004': ['10', '100.00'],
    '005': ['17', '170.00'],
  };
  for (const [code, [rate, tax]] of Object.entries(rates)) {
    test(`${code}: right amount squares, an amount off warns with ${tax}`, async () => {
      const service = { CantidadItem: '1', PrecioUnitarioItem: '1000.00', MontoItem: '1000.00' };
      const declared = (amount: string) => [
        { TipoImpuesto: code, TasaImpuestoAdicional: rate, OtrosImpuestosAdicionales: amount },
      ];
      await assertSquares(await e31([item(service, [code])], declared(tax)));
      const off = money(add(decimal(tax), decimal('5.00')));
      assert.deepEqual(await squaringWarnings(await e31([item(service, [code])], declared(off))), {
        [`${TAX_GROUP}[0].OtrosImpuestosAdicionales`]: squaringDetails(off, tax),
      });
    });
  }

  test('with ITBIS included (IndicadorMontoGravado 1), the item amount is divided by 1.18 first', async () => {
    const body = await e31(
      [item({ CantidadItem: '1', PrecioUnitarioItem: '1180.00', MontoItem: '1180.00' }, ['001'])],
      [{ TipoImpuesto: '001', TasaImpuestoAdicional: '10', OtrosImpuestosAdicionales: '100.00' }],
    );
    setPath(body, 'ECF.Encabezado.IdDoc.IndicadorMontoGravado', '1');
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoTotal', '1000.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoI1', '1000.00');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS', '180.00');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS1', '180.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '1280.00');
    setPath(body, 'ECF.Encabezado.IdDoc.TablaFormasPago.FormaDePago[0].MontoPago', '1280.00');
    await assertSquares(body);
    setPath(body, `${TAX_GROUP}[0].OtrosImpuestosAdicionales`, '118.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoImpuestoAdicional', '118.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '1298.00');
    assert.deepEqual(await squaringWarnings(body), {
      [`${TAX_GROUP}[0].OtrosImpuestosAdicionales`]: squaringDetails('118.00', '100.00'),
    });
  });
});

describe('specific ISC 006-022', () => {
  for (const code of codes(6, 18)) {
    test(`${code} (alcohol): cases x bottles x litres x degrees x rate, 538.96`, async () => {
      const declared = (amount: string) => [
        {
          TipoImpuesto: code,
          TasaImpuestoAdicional: '632.58',
          MontoImpuestoSelectivoConsumoEspecifico: amount,
        },
      ];
      await assertSquares(await e31([item(BEER_CASES, [code])], declared('538.96')));
      assert.deepEqual(await squaringWarnings(await e31([item(BEER_CASES, [code])], declared('548.96'))), {
        [`${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoEspecifico`]: squaringDetails('548.96', '538.96'),
      });
    });
  }

  for (const [code, rate, tax] of [
    ['019', '53.51', '1605.30'],
    ['020', '53.51', '1605.30'],
    ['021', '26.75', '802.50'],
    ['022', '26.75', '802.50'],
  ] as const) {
    test(`${code} (cigarettes): cartons x packs x rate, ${tax}`, async () => {
      const declared = (amount: string) => [
        { TipoImpuesto: code, TasaImpuestoAdicional: rate, MontoImpuestoSelectivoConsumoEspecifico: amount },
      ];
      await assertSquares(await e31([item(CIGARETTE_CARTONS, [code])], declared(tax)));
      assert.deepEqual(
        await squaringWarnings(await e31([item(CIGARETTE_CARTONS, [code])], declared('1500.00'))),
        {
          [`${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoEspecifico`]: squaringDetails('1500.00', tax),
        },
      );
    });
  }
});

describe('ad valorem ISC 023-039', () => {
  for (const code of codes(23, 35)) {
    test(`${code} (alcohol): (PVP / 1.18 - specific per bottle) / 1.10 x bottles x 10 %, 191.37`, async () => {
      const declared = (amount: string) => [
        {
          TipoImpuesto: code,
          TasaImpuestoAdicional: '10',
          MontoImpuestoSelectivoConsumoEspecifico: '538.96',
          MontoImpuestoSelectivoConsumoAdvalorem: amount,
        },
      ];
      await assertSquares(await e31([item(BEER_CASES, [code])], declared('191.37')));
      assert.deepEqual(await squaringWarnings(await e31([item(BEER_CASES, [code])], declared('180.00'))), {
        [`${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoAdvalorem`]: squaringDetails('180.00', '191.37'),
      });
    });
  }

  for (const code of codes(36, 39)) {
    test(`${code} (cigarettes): (PVP / 1.18 - specific rate) / 1.20 x packs x 20 %, 579.91`, async () => {
      const declared = (amount: string) => [
        {
          TipoImpuesto: code,
          TasaImpuestoAdicional: '20',
          MontoImpuestoSelectivoConsumoEspecifico: '1605.30',
          MontoImpuestoSelectivoConsumoAdvalorem: amount,
        },
      ];
      await assertSquares(await e31([item(CIGARETTE_CARTONS, [code])], declared('579.91')));
      assert.deepEqual(
        await squaringWarnings(await e31([item(CIGARETTE_CARTONS, [code])], declared('600.00'))),
        {
          [`${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoAdvalorem`]: squaringDetails('600.00', '579.91'),
        },
      );
    });
  }

  test('bulk alcohol (UnidadMedida 18): unit price + 30 % x quantity x rate, no specific amount', async () => {
    const bulk = {
      CantidadItem: '2.00',
      UnidadMedida: '18',
      PrecioUnitarioItem: '1615.00',
      MontoItem: '3230.00',
    };
    const declared = (amount: string) => [
      { TipoImpuesto: '023', TasaImpuestoAdicional: '10', MontoImpuestoSelectivoConsumoAdvalorem: amount },
    ];
    await assertSquares(await e31([item(bulk, ['023'])], declared('419.90')));
    assert.deepEqual(await squaringWarnings(await e31([item(bulk, ['023'])], declared('323.00'))), {
      [`${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoAdvalorem`]: squaringDetails('323.00', '419.90'),
    });
  });
});

describe('the tax authority example (RI model 1.4): beer and cigarettes with specific and ad valorem ISC', () => {
  async function example(): Promise<TJson> {
    const body = await taxauthExample('31');
    setPath(body, 'ECF.DetallesItems.Item', [
      {
        NumeroLinea: '1',
        IndicadorFacturacion: '1',
        NombreItem: 'Presidente Light 16/650 ML 22 Onz.',
        IndicadorBienoServicio: '1',
        CantidadItem: '1',
        UnidadMedida: '6',
        CantidadReferencia: '16',
        UnidadReferencia: '5',
        TablaSubcantidad: { SubcantidadItem: [{ Subcantidad: '0.650', CodigoSubcantidad: '24' }] },
        GradosAlcohol: '4.30',
        PrecioUnitarioReferencia: '80.00',
        PrecioUnitarioItem: '1063.97',
        TablaImpuestoAdicional: { ImpuestoAdicional: [{ TipoImpuesto: '023' }] },
        MontoItem: '1063.97',
      },
      {
        NumeroLinea: '2',
        IndicadorFacturacion: '1',
        NombreItem: 'Malboro Light',
        IndicadorBienoServicio: '1',
        CantidadItem: '1',
        UnidadMedida: '31',
        CantidadReferencia: '20',
        UnidadReferencia: '7',
        PrecioUnitarioReferencia: '200.00',
        PrecioUnitarioItem: '1450.00',
        TablaImpuestoAdicional: { ImpuestoAdicional: [{ TipoImpuesto: '038' }] },
        MontoItem: '1450.00',
      },
    ]);
    // The printed totals: Subtotal Gravado 2,513.97, Total ISC 1,343.62, Total ITBIS 694.37, Total 4,551.96.
    setPath(body, 'ECF.Encabezado.Totales', {
      MontoGravadoTotal: '2513.97',
      MontoGravadoI1: '2513.97',
      ITBIS1: '18',
      TotalITBIS: '694.37',
      TotalITBIS1: '694.37',
      MontoImpuestoAdicional: '1343.62',
      ImpuestosAdicionales: {
        ImpuestoAdicional: [
          {
            TipoImpuesto: '023',
            TasaImpuestoAdicional: '10',
            MontoImpuestoSelectivoConsumoEspecifico: '273.94',
            MontoImpuestoSelectivoConsumoAdvalorem: '73.71',
          },
          {
            TipoImpuesto: '038',
            TasaImpuestoAdicional: '20',
            MontoImpuestoSelectivoConsumoEspecifico: '517.20',
            MontoImpuestoSelectivoConsumoAdvalorem: '478.77',
          },
        ],
      },
      MontoTotal: '4551.96',
    });
    setPath(body, 'ECF.Encabezado.IdDoc.TablaFormasPago.FormaDePago[0].MontoPago', '4551.96');
    return body;
  }

  test('its printed amounts square', async () => {
    await assertSquares(await example());
  });

  test('ITBIS leaving the ISC out of its base warns with the example ITBIS', async () => {
    const body = await example();
    // 18 % of 2,513.97 alone.
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS', '452.51');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS1', '452.51');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '4310.10');
    setPath(body, 'ECF.Encabezado.IdDoc.TablaFormasPago.FormaDePago[0].MontoPago', '4310.10');
    assert.deepEqual(await squaringWarnings(body), {
      'ECF.Encabezado.Totales.TotalITBIS': squaringDetails('452.51', '694.37', 200),
      'ECF.Encabezado.Totales.TotalITBIS1': squaringDetails('452.51', '694.37', 200),
      'ECF.Encabezado.Totales.MontoTotal': squaringDetails('4310.10', '4551.96', 200),
    });
  });

  test('an ad valorem amount off warns on its group with the example amount', async () => {
    const body = await example();
    // The cigarettes' ad valorem computed on the PVP with its ITBIS.
    setPath(body, `${TAX_GROUP}[1].MontoImpuestoSelectivoConsumoAdvalorem`, '580.00');
    const warnings = await squaringWarnings(body);
    assert.deepEqual(
      warnings[`${TAX_GROUP}[1].MontoImpuestoSelectivoConsumoAdvalorem`],
      squaringDetails('580.00', '478.77', 200),
    );
    assert.equal(warnings[`${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoAdvalorem`], undefined);
  });
});

describe('Norma 10-07: telecommunications with ITBIS, CDT (002) and ISC (004) in the price', () => {
  async function telecom(): Promise<TJson> {
    const body = await e31(
      [
        item(
          {
            IndicadorBienoServicio: '2',
            CantidadItem: '1',
            PrecioUnitarioItem: '1300.00',
            MontoItem: '1300.00',
          },
          ['002', '004'],
        ),
      ],
      [
        { TipoImpuesto: '002', TasaImpuestoAdicional: '2', OtrosImpuestosAdicionales: '20.00' },
        { TipoImpuesto: '004', TasaImpuestoAdicional: '10', OtrosImpuestosAdicionales: '100.00' },
      ],
    );
    setPath(body, 'ECF.Encabezado.IdDoc.IndicadorMontoGravado', '1');
    // 1,300 / (1 + 18 % + 2 % + 10 %) = 1,000; the Norma 10-07 discount goes to ValorPagar only.
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoTotal', '1000.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoI1', '1000.00');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS', '180.00');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS1', '180.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '1300.00');
    setPath(body, 'ECF.Encabezado.Totales.ValorPagar', '1200.00');
    setPath(body, 'ECF.Encabezado.IdDoc.TablaFormasPago.FormaDePago[0].MontoPago', '1200.00');
    setPath(body, 'ECF.DescuentosORecargos.DescuentoORecargo', [
      {
        NumeroLinea: '1',
        TipoAjuste: 'D',
        IndicadorNorma1007: '1',
        DescripcionDescuentooRecargo: 'Descuento Norma 10-07',
        TipoValor: '$',
        MontoDescuentooRecargo: '100.00',
        IndicadorFacturacionDescuentooRecargo: '1',
      },
    ]);
    return body;
  }

  test('base I1, CDT and ISC on the price divided by 1.30 square', async () => {
    await assertSquares(await telecom());
  });

  test('dividing by 1.18 only warns on base I1, ITBIS and both taxes with the Norma 10-07 values', async () => {
    const body = await telecom();
    // 1,300 / 1.18 = 1,101.69; its 18 %, 2 % and 10 %.
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoTotal', '1101.69');
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoI1', '1101.69');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS', '198.30');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBIS1', '198.30');
    setPath(body, `${TAX_GROUP}[0].OtrosImpuestosAdicionales`, '22.03');
    setPath(body, `${TAX_GROUP}[1].OtrosImpuestosAdicionales`, '110.17');
    setPath(body, 'ECF.Encabezado.Totales.MontoImpuestoAdicional', '132.20');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '1432.19');
    setPath(body, 'ECF.Encabezado.Totales.ValorPagar', '1332.19');
    const warnings = await squaringWarnings(body);
    assert.deepEqual(
      warnings['ECF.Encabezado.Totales.MontoGravadoI1'],
      squaringDetails('1101.69', '1000.00'),
    );
    assert.deepEqual(warnings['ECF.Encabezado.Totales.TotalITBIS1'], squaringDetails('198.30', '180.00'));
    assert.deepEqual(
      warnings[`${TAX_GROUP}[0].OtrosImpuestosAdicionales`],
      squaringDetails('22.03', '20.00'),
    );
    assert.deepEqual(
      warnings[`${TAX_GROUP}[1].OtrosImpuestosAdicionales`],
      squaringDetails('110.17', '100.00'),
    );
  });

  test('MontoImpuestoAdicional is the sum of the groups', async () => {
    const body = setPath(await telecom(), 'ECF.Encabezado.Totales.MontoImpuestoAdicional', '130.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '1310.00');
    setPath(body, 'ECF.Encabezado.Totales.ValorPagar', '1210.00');
    assert.deepEqual(await squaringWarnings(body), {
      'ECF.Encabezado.Totales.MontoImpuestoAdicional': squaringDetails('130.00', '120.00'),
    });
  });
});

/**
 * Rule 7 per invoice (format notes 23-24): the specific ISC amount must be on an invoice with ISC
 * codes 006-039, not on every group. The tax authority's own certification workbooks write a beer
 * line with two codes, 006 carrying the specific amount and 023 carrying only the ad valorem one;
 * such a document is never refused.
 */
describe('rule 7 per invoice: the tax authority writes the specific amount once', () => {
  /** The tax authority's beer row: 2 cases of 24 x 355 ml at 5 %, PVP 65.00; specific rate 633.85. */
  const beerGroups = (specific: string | null): TJson[] => [
    {
      TipoImpuesto: '006',
      TasaImpuestoAdicional: '633.85',
      ...(specific === null ? {} : { MontoImpuestoSelectivoConsumoEspecifico: specific }),
    },
    { TipoImpuesto: '023', TasaImpuestoAdicional: '10', MontoImpuestoSelectivoConsumoAdvalorem: '191.28' },
  ];
  const cigaretteGroups: TJson[] = [
    {
      TipoImpuesto: '019',
      TasaImpuestoAdicional: '53.51',
      MontoImpuestoSelectivoConsumoEspecifico: '1605.30',
    },
    { TipoImpuesto: '036', TasaImpuestoAdicional: '20', MontoImpuestoSelectivoConsumoAdvalorem: '579.91' },
  ];
  const tip = { CantidadItem: '1', PrecioUnitarioItem: '1000.00', MontoItem: '1000.00' };

  test('006 + 023 on one beer line, the specific amount on 006 only: no error, no warning, XSD-valid', async () => {
    await assertSquares(await e31([item(BEER_CASES, ['006', '023'])], beerGroups('540.04')));
  });

  test('019 + 036 on one cigarette line, the specific amount on 019 only', async () => {
    await assertSquares(await e31([item(CIGARETTE_CARTONS, ['019', '036'])], cigaretteGroups));
  });

  test('an ad valorem amount off still warns when the specific ISC comes from the line own 006', async () => {
    const groups = beerGroups('540.04');
    (groups[1] as TJson)['MontoImpuestoSelectivoConsumoAdvalorem'] = '150.00';
    assert.deepEqual(await squaringWarnings(await e31([item(BEER_CASES, ['006', '023'])], groups)), {
      [`${TAX_GROUP}[1].MontoImpuestoSelectivoConsumoAdvalorem`]: squaringDetails('150.00', '191.28'),
    });
  });

  test('every family on one invoice: tip, beer 006 + 023, cigarettes 019 + 036, the example 038 group', async () => {
    const packs = { ...CIGARETTE_CARTONS, CantidadItem: '1', CantidadReferencia: '20', MontoItem: '1500.00' };
    const body = await e31(
      [
        item(tip, ['001']),
        item(BEER_CASES, ['006', '023']),
        item(CIGARETTE_CARTONS, ['019', '036']),
        item({ ...packs, PrecioUnitarioItem: '1500.00' }, ['038']),
      ],
      [
        { TipoImpuesto: '001', TasaImpuestoAdicional: '10', OtrosImpuestosAdicionales: '100.00' },
        ...beerGroups('540.04'),
        ...cigaretteGroups,
        {
          TipoImpuesto: '038',
          TasaImpuestoAdicional: '20',
          MontoImpuestoSelectivoConsumoEspecifico: '517.20',
          MontoImpuestoSelectivoConsumoAdvalorem: '478.77',
        },
      ],
    );
    await assertSquares(body);
  });

  test('no group carries the specific amount: the tax authority rejects, so do we, on the group lacking it', async () => {
    const result = await validate(await e31([item(BEER_CASES, ['006', '023'])], beerGroups(null)));
    assert.deepEqual(issuesOf(result).errors, [
      `ISC_SPECIFIC_AMOUNT_REQUIRED@${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoEspecifico`,
    ]);
    const adValoremOnly = await validate(
      await e31(
        [item(BEER_CASES, ['023'])],
        [
          {
            TipoImpuesto: '023',
            TasaImpuestoAdicional: '10',
            MontoImpuestoSelectivoConsumoAdvalorem: '191.37',
          },
        ],
      ),
    );
    assert.deepEqual(issuesOf(adValoremOnly).errors, [
      `ISC_SPECIFIC_AMOUNT_REQUIRED@${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoEspecifico`,
    ]);
  });

  test('items with ISC codes and no group at all: refused on ImpuestosAdicionales', async () => {
    const body = await e31([item(BEER_CASES, ['006', '023'])], []);
    setPath(body, 'ECF.Encabezado.Totales.ImpuestosAdicionales', undefined);
    setPath(body, 'ECF.Encabezado.Totales.MontoImpuestoAdicional', undefined);
    const result = await validate(body);
    assert.deepEqual(issuesOf(result).errors, [
      'ISC_SPECIFIC_AMOUNT_REQUIRED@ECF.Encabezado.Totales.ImpuestosAdicionales',
    ]);
  });

  test('a group without a source of specific ISC while another group has one only warns', async () => {
    const result = await validate(
      await e31(
        [item(BEER_CASES, ['023']), item(CIGARETTE_CARTONS, ['019', '036'])],
        [
          {
            TipoImpuesto: '023',
            TasaImpuestoAdicional: '10',
            MontoImpuestoSelectivoConsumoAdvalorem: '191.37',
          },
          ...cigaretteGroups,
        ],
      ),
    );
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    assert.deepEqual(
      result.data.warnings.map((warning) => [warning.code, warning.path, warning.details]),
      [
        [
          'ISC_SPECIFIC_AMOUNT_MISSING',
          `${TAX_GROUP}[0].MontoImpuestoSelectivoConsumoEspecifico`,
          { code: 'ISC_SPECIFIC_AMOUNT_MISSING', taxCode: '023' },
        ],
      ],
    );
  });

  test('bulk beer (UnidadMedida 18) needs no specific amount anywhere', async () => {
    const bulk = {
      CantidadItem: '2.00',
      UnidadMedida: '18',
      PrecioUnitarioItem: '1615.00',
      MontoItem: '3230.00',
    };
    await assertSquares(
      await e31(
        [item(bulk, ['006', '023'])],
        [
          { TipoImpuesto: '006', TasaImpuestoAdicional: '633.85' },
          {
            TipoImpuesto: '023',
            TasaImpuestoAdicional: '10',
            MontoImpuestoSelectivoConsumoAdvalorem: '419.90',
          },
        ],
      ),
    );
  });
});
