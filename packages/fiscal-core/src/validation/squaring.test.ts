import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compare, decimal, sum } from '../decimal/decimal.ts';
import { getPath, issuesOf, setPath, taxauthExample, validate } from '../../test/validation-support.ts';

describe('rule 3: SQUARING_ABOVE_TAXAUTH_TOLERANCE', () => {
  test('a line amount off by more than RD$1 warns on that line with declared, expected and tolerance', async () => {
    const body = setPath(await taxauthExample('31'), 'ECF.DetallesItems.Item[0].MontoItem', '4501.01');
    const result = await validate(body);
    assert.ok(result.success, 'squaring never blocks');
    const warning = result.data.warnings.find(
      (entry) => entry.path === 'ECF.DetallesItems.Item[0].MontoItem',
    );
    assert.deepEqual(warning?.details, {
      code: 'SQUARING_ABOVE_TAXAUTH_TOLERANCE',
      declared: '4501.01',
      expected: '4500.00',
      toleranceCents: 100,
    });
    assert.equal(warning?.code, 'SQUARING_ABOVE_TAXAUTH_TOLERANCE');
  });

  test('within RD$1 per line there is no warning', async () => {
    const body = setPath(await taxauthExample('31'), 'ECF.DetallesItems.Item[0].MontoItem', '4501.00');
    const result = await validate(body);
    assert.ok(result.success);
    assert.ok(!issuesOf(result).warnings.some((warning) => warning.endsWith('Item[0].MontoItem')));
  });

  test('totals tolerate RD$1 per detail line', async () => {
    // 3 lines: up to RD$3.00 of difference is tolerated on totals.
    const tolerated = await validate(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Totales.MontoTotal', '8734.00'),
    );
    assert.ok(tolerated.success);
    assert.deepEqual(tolerated.data.warnings, []);
    const result = await validate(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Totales.MontoTotal', '8734.01'),
    );
    assert.ok(result.success);
    const warning = result.data.warnings.find((entry) => entry.path === 'ECF.Encabezado.Totales.MontoTotal');
    assert.deepEqual(warning?.details, {
      code: 'SQUARING_ABOVE_TAXAUTH_TOLERANCE',
      declared: '8734.01',
      expected: '8731.00',
      toleranceCents: 300,
    });
  });

  test('bases, ITBIS, exempt, withholding, MontoPeriodo and ValorPagar are squared', async () => {
    const body = await taxauthExample('41');
    setPath(body, 'ECF.Encabezado.Totales.MontoGravadoI1', '10000.00');
    setPath(body, 'ECF.Encabezado.Totales.TotalITBISRetenido', '1900.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoPeriodo', '20000.00');
    setPath(body, 'ECF.Encabezado.Totales.ValorPagar', '1.00');
    const { warnings } = issuesOf(await validate(body));
    for (const element of ['MontoGravadoI1', 'TotalITBISRetenido', 'MontoPeriodo', 'ValorPagar']) {
      assert.ok(
        warnings.includes(`SQUARING_ABOVE_TAXAUTH_TOLERANCE@ECF.Encabezado.Totales.${element}`),
        `${element}: ${JSON.stringify(warnings)}`,
      );
    }
  });

  test('item sub-discounts must add up to DescuentoMonto', async () => {
    const body = await taxauthExample('31');
    setPath(body, 'ECF.DetallesItems.Item[0].DescuentoMonto', '100.00');
    setPath(body, 'ECF.DetallesItems.Item[0].TablaSubDescuento', {
      SubDescuento: [{ TipoSubDescuento: '$', MontoSubDescuento: '40.00' }],
    });
    setPath(body, 'ECF.DetallesItems.Item[0].MontoItem', '4400.00');
    const { warnings } = issuesOf(await validate(body));
    assert.ok(
      warnings.includes('SQUARING_ABOVE_TAXAUTH_TOLERANCE@ECF.DetallesItems.Item[0].DescuentoMonto'),
      JSON.stringify(warnings),
    );
  });

  test('other-currency totals are compared with peso totals divided by TipoCambio', async () => {
    const body = setPath(
      await taxauthExample('46'),
      'ECF.Encabezado.OtraMoneda.MontoTotalOtraMoneda',
      '10600.00',
    );
    const { warnings } = issuesOf(await validate(body));
    assert.deepEqual(warnings, [
      'SQUARING_ABOVE_TAXAUTH_TOLERANCE@ECF.Encabezado.OtraMoneda.MontoTotalOtraMoneda',
    ]);
  });

  test('additional taxes 001-005 are recomputed with their rate', async () => {
    const body = await taxauthExample('31');
    setPath(body, 'ECF.DetallesItems.Item[1].TablaImpuestoAdicional', {
      ImpuestoAdicional: [{ TipoImpuesto: '001' }],
    });
    setPath(body, 'ECF.Encabezado.Totales.ImpuestosAdicionales', {
      ImpuestoAdicional: [
        { TipoImpuesto: '001', TasaImpuestoAdicional: '10', OtrosImpuestosAdicionales: '250.00' },
      ],
    });
    setPath(body, 'ECF.Encabezado.Totales.MontoImpuestoAdicional', '250.00');
    setPath(body, 'ECF.Encabezado.Totales.MontoTotal', '8981.00');
    const { warnings } = issuesOf(await validate(body));
    assert.deepEqual(warnings, [
      'SQUARING_ABOVE_TAXAUTH_TOLERANCE@ECF.Encabezado.Totales.ImpuestosAdicionales.ImpuestoAdicional[0].OtrosImpuestosAdicionales',
    ]);
  });
});

describe('property: documents the service computes always square', () => {
  const money = (max: number) => fc.integer({ min: 1, max }).map((cents) => (cents / 100).toFixed(2));
  const line = fc.record({
    name: fc.constant('Artículo'),
    quantity: fc.integer({ min: 1, max: 9999 }).map((hundredths) => (hundredths / 100).toFixed(2)),
    unitPrice: fc.integer({ min: 0, max: 5_000_000 }).map((units) => (units / 10000).toFixed(4)),
    itbisRate: fc.constantFrom<number | string>(18, 16, 0, 'exempt'),
    itemKind: fc.constantFrom('good', 'service'),
    discountAmount: fc.option(money(500), { nil: undefined }),
  });

  test('simplified E31 with random lines, rates, prices with or without ITBIS, global adjustments and currencies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
        // Pesos per unit from 0.1 to 150: below that, cents of pesos are worth more than the RD$1
        // tolerance in the other currency and no rounding can square both.
        fc.option(
          fc.integer({ min: 1_000, max: 1_500_000 }).map((units) => (units / 10000).toFixed(4)),
          { nil: undefined },
        ),
        async (lines, pricesIncludeTax, discountPercent, surchargePercent, exchangeRate) => {
          const cleanLines = lines.map((entry) =>
            Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)),
          );
          const body: Record<string, unknown> = {
            type: 'E31',
            encf: 'E310000000101',
            sequenceExpirationDate: '31-12-2027',
            issueDate: '2026-11-21',
            buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
            paymentType: 'cash',
            incomeType: '01',
            pricesIncludeTax,
            lines: cleanLines,
          };
          if (discountPercent !== undefined) body['globalDiscountPercent'] = discountPercent;
          if (surchargePercent !== undefined) body['globalSurchargePercent'] = surchargePercent;
          if (exchangeRate !== undefined) {
            body['currency'] = 'USD';
            body['exchangeRate'] = exchangeRate;
          }
          const computed = await validate(body);
          if (!computed.success) {
            // A discount larger than a line's amount is the only way random data fails; it must say so on that line.
            assert.ok(
              computed.errors.every((error) => /^lines\[\d+\]/.test(error.path)),
              JSON.stringify(computed.errors),
            );
            return;
          }
          const totals = getPath(computed.data.document.ECF, 'Encabezado.Totales') as Record<
            string,
            string | undefined
          >;
          const value = (name: string) => decimal(totals[name] ?? '0');
          assert.equal(
            compare(
              value('MontoTotal'),
              sum([value('MontoGravadoTotal'), value('MontoExento'), value('TotalITBIS')]),
            ),
            0,
          );
          assert.equal(
            compare(
              value('MontoGravadoTotal'),
              sum([value('MontoGravadoI1'), value('MontoGravadoI2'), value('MontoGravadoI3')]),
            ),
            0,
          );
          assert.equal(
            compare(
              value('TotalITBIS'),
              sum([value('TotalITBIS1'), value('TotalITBIS2'), value('TotalITBIS3')]),
            ),
            0,
          );
          // Sent back as tax-authority JSON, the service's own recomputation finds nothing to warn about.
          const replay = await validate({ ECF: computed.data.document.ECF });
          assert.ok(replay.success, JSON.stringify(issuesOf(replay)));
          assert.deepEqual(replay.data.warnings, []);
        },
      ),
      { numRuns: 150 },
    );
  });
});
