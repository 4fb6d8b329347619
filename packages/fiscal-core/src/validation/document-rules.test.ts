import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TReferencedDocument } from './context.ts';
import {
  example,
  getPath,
  issuesOf,
  setPath,
  taxauthExample,
  validate,
} from '../../test/validation-support.ts';

/** Asserts the result has the error `code@path` (and therefore failed). */
async function expectError(
  body: unknown,
  expected: string,
  overrides: Parameters<typeof validate>[1] = {},
): Promise<void> {
  const result = await validate(body, overrides);
  const { errors } = issuesOf(result);
  assert.ok(errors.includes(expected), `expected ${expected}, got ${JSON.stringify(errors)}`);
}

/** Asserts the result has the warning `code@path`; returns its details. */
async function expectWarning(
  body: unknown,
  expected: string,
  overrides: Parameters<typeof validate>[1] = {},
): Promise<Record<string, unknown>> {
  const result = await validate(body, overrides);
  const { warnings, errors } = issuesOf(result);
  assert.ok(
    warnings.includes(expected),
    `expected warning ${expected}, got ${JSON.stringify({ warnings, errors })}`,
  );
  const list = result.success ? result.data.warnings : result.warnings;
  return list.find((warning) => `${warning.code}@${warning.path}` === expected)?.details ?? {};
}

const original: TReferencedDocument = {
  status: 'accepted',
  buyerId: '101672919',
  issueDate: '10-11-2026',
  totalAmount: '5310.00',
  creditNotesTotal: '0.00',
};

describe('generic field errors', () => {
  test('FIELD_REQUIRED on the missing property', async () => {
    await expectError(setPath(example('31'), 'encf', undefined), 'FIELD_REQUIRED@encf');
    await expectError(setPath(example('31'), 'lines[0].name', undefined), 'FIELD_REQUIRED@lines[0].name');
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.eNCF', undefined),
      'FIELD_REQUIRED@ECF.Encabezado.IdDoc.eNCF',
    );
  });

  test('FIELD_TYPE_INVALID on wrong JSON types', async () => {
    await expectError(
      setPath(example('32'), 'pricesIncludeTax', 'yes'),
      'FIELD_TYPE_INVALID@pricesIncludeTax',
    );
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.TipoPago', true),
      'FIELD_TYPE_INVALID@ECF.Encabezado.IdDoc.TipoPago',
    );
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Emisor.RNCEmisor', ['131880738']),
      'FIELD_TYPE_INVALID@ECF.Encabezado.Emisor.RNCEmisor',
    );
  });

  test('FIELD_VALUE_INVALID on values outside their set', async () => {
    await expectError(setPath(example('31'), 'type', 'E99'), 'FIELD_VALUE_INVALID@type');
    await expectError(
      setPath(example('43'), 'lines[0].itbisRate', 18),
      'FIELD_VALUE_INVALID@lines[0].itbisRate',
    );
    await expectError(setPath(example('31'), 'paymentType', 'barter'), 'FIELD_VALUE_INVALID@paymentType');
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.eNCF', 'E320000000001'),
      'FIELD_VALUE_INVALID@ECF.Encabezado.IdDoc.eNCF',
    );
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.TipoeCF', '35'),
      'FIELD_VALUE_INVALID@ECF.Encabezado.IdDoc.TipoeCF',
    );
  });

  test('FIELD_NOT_APPLICABLE_FOR_TYPE for optional nodes the type lacks (rule 13)', async () => {
    await expectError(
      setPath(example('43'), 'buyer', { rnc: '101672919', name: 'X' }),
      'FIELD_NOT_APPLICABLE_FOR_TYPE@buyer',
    );
    await expectError(
      setPath(example('41'), 'deferredSend', true),
      'FIELD_NOT_APPLICABLE_FOR_TYPE@deferredSend',
    );
    await expectError(
      setPath(example('47'), 'buyer.email', 'a@b.com'),
      'FIELD_NOT_APPLICABLE_FOR_TYPE@buyer.email',
    );
    await expectError(
      setPath(example('47'), 'globalDiscountPercent', 5),
      'FIELD_NOT_APPLICABLE_FOR_TYPE@globalDiscountPercent',
    );
  });

  test('JSON_TOO_DEEP', async () => {
    const result = await validate(`{"type":${'['.repeat(300)}${']'.repeat(300)}}`);
    assert.deepEqual(issuesOf(result).errors, ['JSON_TOO_DEEP@']);
  });
});

describe('rule 11: DECIMAL_FORMAT_INVALID', () => {
  test('separators, letters and exponents are rejected on the field, never read as 0', async () => {
    await expectError(
      setPath(example('31'), 'lines[1].quantity', 'abc'),
      'DECIMAL_FORMAT_INVALID@lines[1].quantity',
    );
    await expectError(setPath(example('46'), 'exchangeRate', '60,25'), 'DECIMAL_FORMAT_INVALID@exchangeRate');
    const body = await taxauthExample('31');
    const text = JSON.stringify(body).replace('"MontoTotal":"8731.00"', '"MontoTotal":8.731e3');
    await expectError(text, 'DECIMAL_FORMAT_INVALID@ECF.Encabezado.Totales.MontoTotal');
    await expectError(
      setPath(body, 'ECF.DetallesItems.Item[2].PrecioUnitarioItem', ''),
      'DECIMAL_FORMAT_INVALID@ECF.DetallesItems.Item[2].PrecioUnitarioItem',
    );
  });
});

describe('rule 12: DATE_INVALID', () => {
  test('impossible or unreadable dates', async () => {
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Emisor.FechaEmision', '30-02-2026'),
      'DATE_INVALID@ECF.Encabezado.Emisor.FechaEmision',
    );
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.FechaLimitePago', '2026-12-21'),
      'DATE_INVALID@ECF.Encabezado.IdDoc.FechaLimitePago',
    );
    await expectError(setPath(example('31'), 'dueDate', 'next month'), 'DATE_INVALID@dueDate');
    await expectError(
      setPath(example('31'), 'issueDate', '2026-13-01T10:00:00-04:00'),
      'DATE_INVALID@issueDate',
    );
  });
});

describe('rule 13: simplified contract', () => {
  test('UNKNOWN_FIELD on unknown properties, wherever they are', async () => {
    await expectError(setPath(example('31'), 'lines[0].colour', 'red'), 'UNKNOWN_FIELD@lines[0].colour');
    await expectError(setPath(example('31'), 'buyer.phone', '809-555-0000'), 'UNKNOWN_FIELD@buyer.phone');
    await expectError(setPath(example('31'), 'notes', 'x'), 'UNKNOWN_FIELD@notes');
  });

  test('SIMPLIFIED_CONTRACT_UNSUPPORTED for additional taxes, payment forms, additional information and pagination', async () => {
    await expectError(
      setPath(example('31'), 'additionalTaxes', [{ code: '001', rate: 10 }]),
      'SIMPLIFIED_CONTRACT_UNSUPPORTED@additionalTaxes',
    );
    await expectError(
      setPath(example('31'), 'lines[0].additionalTaxes', [{ code: '006' }]),
      'SIMPLIFIED_CONTRACT_UNSUPPORTED@lines[0].additionalTaxes',
    );
    await expectError(
      setPath(example('31'), 'paymentForms', [
        { type: 'cash', amount: 1 },
        { type: 'card', amount: 2 },
      ]),
      'SIMPLIFIED_CONTRACT_UNSUPPORTED@paymentForms',
    );
    await expectError(
      setPath(example('31'), 'InformacionesAdicionales', {}),
      'SIMPLIFIED_CONTRACT_UNSUPPORTED@InformacionesAdicionales',
    );
    await expectError(
      setPath(example('31'), 'pagination', { pages: 2 }),
      'SIMPLIFIED_CONTRACT_UNSUPPORTED@pagination',
    );
  });

  test('PAYMENT_DUE_DATE_REQUIRED for credit, except E47', async () => {
    await expectError(setPath(example('31'), 'dueDate', undefined), 'PAYMENT_DUE_DATE_REQUIRED@dueDate');
    const taxauth = setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.FechaLimitePago', undefined);
    await expectError(taxauth, 'PAYMENT_DUE_DATE_REQUIRED@ECF.Encabezado.IdDoc.FechaLimitePago');
    const e47 = setPath(example('47'), 'paymentType', 'credit');
    const result = await validate(e47);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
  });

  test('GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX', async () => {
    await expectError(
      setPath(example('32'), 'globalDiscountAmount', '50.00'),
      'GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX@globalDiscountAmount',
    );
    await expectError(
      setPath(example('32'), 'globalSurchargeAmount', 10),
      'GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX@globalSurchargeAmount',
    );
  });

  test('IndicadorEnvioDiferido only with deferredSend true or the account authorization', async () => {
    const sent = await validate(setPath(example('31'), 'deferredSend', true));
    assert.ok(sent.success);
    assert.equal(getPath(sent.data.document.ECF, 'Encabezado.IdDoc.IndicadorEnvioDiferido'), '1');
    const plain = await validate(example('31'));
    assert.ok(plain.success);
    assert.equal(getPath(plain.data.document.ECF, 'Encabezado.IdDoc.IndicadorEnvioDiferido'), undefined);
    const authorized = await validate(example('31'), {
      account: {
        rnc: '131880738',
        legalName: 'Distribuidora Caribe Digital SRL',
        deferredSendAuthorized: true,
      },
    });
    assert.ok(authorized.success);
    assert.equal(getPath(authorized.data.document.ECF, 'Encabezado.IdDoc.IndicadorEnvioDiferido'), '1');
    const refused = await validate(setPath(example('31'), 'deferredSend', false), {
      account: {
        rnc: '131880738',
        legalName: 'Distribuidora Caribe Digital SRL',
        deferredSendAuthorized: true,
      },
    });
    assert.ok(refused.success);
    assert.equal(getPath(refused.data.document.ECF, 'Encabezado.IdDoc.IndicadorEnvioDiferido'), undefined);
  });
});

describe('rules 14-15: issuer', () => {
  test('ISSUER_PHONE_INVALID: format and at most 3', async () => {
    await expectError(
      setPath(example('31'), 'issuer.phone', ['809-555-0101', '8095550102']),
      'ISSUER_PHONE_INVALID@issuer.phone[1]',
    );
    await expectError(
      setPath(example('31'), 'issuer.phone', [
        '809-555-0101',
        '809-555-0102',
        '809-555-0103',
        '809-555-0104',
      ]),
      'ISSUER_PHONE_INVALID@issuer.phone',
    );
    await expectError(
      setPath(
        await taxauthExample('31'),
        'ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor[1]',
        '(809) 555-0102',
      ),
      'ISSUER_PHONE_INVALID@ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor[1]',
    );
  });

  test('ISSUER_RNC_MISMATCH on the issuer RNC of either format', async () => {
    await expectError(setPath(example('31'), 'issuer.rnc', '101010101'), 'ISSUER_RNC_MISMATCH@issuer.rnc');
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Emisor.RNCEmisor', '101010101'),
      'ISSUER_RNC_MISMATCH@ECF.Encabezado.Emisor.RNCEmisor',
    );
  });

  test('the account profile fills missing issuer data in the simplified contract', async () => {
    const result = await validate(setPath(example('31'), 'issuer', undefined));
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    assert.equal(getPath(result.data.document.ECF, 'Encabezado.Emisor.RNCEmisor'), '131880738');
    assert.deepEqual(
      getPath(result.data.document.ECF, 'Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor'),
      ['809-555-0101'],
    );
  });
});

describe('rule 16: sequence expiration', () => {
  test('SEQUENCE_EXPIRATION_DATE_REQUIRED, never defaulted', async () => {
    await expectError(
      setPath(example('31'), 'sequenceExpirationDate', undefined),
      'SEQUENCE_EXPIRATION_DATE_REQUIRED@sequenceExpirationDate',
    );
    await expectError(
      setPath(await taxauthExample('45'), 'ECF.Encabezado.IdDoc.FechaVencimientoSecuencia', undefined),
      'SEQUENCE_EXPIRATION_DATE_REQUIRED@ECF.Encabezado.IdDoc.FechaVencimientoSecuencia',
    );
  });

  test('SEQUENCE_EXPIRATION_DATE_INVALID wins over DATE_INVALID', async () => {
    const result = await validate(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.IdDoc.FechaVencimientoSecuencia', '31-02-2027'),
    );
    assert.deepEqual(issuesOf(result).errors, [
      'SEQUENCE_EXPIRATION_DATE_INVALID@ECF.Encabezado.IdDoc.FechaVencimientoSecuencia',
    ]);
  });

  test('SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE: 422 in tax-authority JSON, warning in the simplified contract', async () => {
    await expectError(
      setPath(await taxauthExample('32'), 'ECF.Encabezado.IdDoc.FechaVencimientoSecuencia', '31-12-2027'),
      'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE@ECF.Encabezado.IdDoc.FechaVencimientoSecuencia',
    );
    const body = setPath(example('34'), 'sequenceExpirationDate', '31-12-2027');
    await expectWarning(body, 'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE@sequenceExpirationDate');
    const result = await validate(body);
    assert.ok(result.success);
    assert.equal(getPath(result.data.document.ECF, 'Encabezado.IdDoc.FechaVencimientoSecuencia'), undefined);
  });

  test('SEQUENCE_EXPIRED_AT_ISSUE_DATE', async () => {
    await expectError(
      setPath(example('31'), 'sequenceExpirationDate', '20-11-2026'),
      'SEQUENCE_EXPIRED_AT_ISSUE_DATE@sequenceExpirationDate',
    );
  });

  test('SEQUENCE_EXPIRATION_RANGE_MISMATCH against the registered range only', async () => {
    const findRegisteredRange = (encf: string) =>
      encf === 'E310000000101' ? { sequenceExpirationDate: '31-12-2026' } : null;
    await expectError(example('31'), 'SEQUENCE_EXPIRATION_RANGE_MISMATCH@sequenceExpirationDate', {
      findRegisteredRange,
    });
    const same = await validate(example('31'), {
      findRegisteredRange: () => Promise.resolve({ sequenceExpirationDate: '31-12-2027' }),
    });
    assert.ok(same.success);
    const none = await validate(example('31'), { findRegisteredRange: () => null });
    assert.ok(none.success);
  });

  test('warnings SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX and SEQUENCE_EXPIRED_AT_SEND_DATE do not block', async () => {
    const details = await expectWarning(
      setPath(example('31'), 'sequenceExpirationDate', '31-12-2028'),
      'SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX@sequenceExpirationDate',
    );
    assert.equal(details['legalMax'], '31-12-2027');
    const late = setPath(
      setPath(example('43'), 'issueDate', '2026-11-01'),
      'sequenceExpirationDate',
      '15-11-2026',
    );
    await expectWarning(late, 'SEQUENCE_EXPIRED_AT_SEND_DATE@sequenceExpirationDate');
    assert.ok((await validate(late)).success);
  });
});

describe('rule 21: client signature time', () => {
  test('SIGNATURE_DATE_IN_FUTURE beyond a 2 minute margin', async () => {
    await expectError(
      setPath(example('31'), 'signatureDate', '2026-11-21T11:05:00-04:00'),
      'SIGNATURE_DATE_IN_FUTURE@signatureDate',
    );
    const withinMargin = await validate(setPath(example('31'), 'signatureDate', '2026-11-21T11:01:30-04:00'));
    assert.ok(withinMargin.success);
    assert.equal(getPath(withinMargin.data.document.ECF, 'FechaHoraFirma'), '21-11-2026 11:01:30');
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.FechaHoraFirma', '21-11-2026 12:00:00'),
      'SIGNATURE_DATE_IN_FUTURE@ECF.FechaHoraFirma',
    );
  });

  test('SIGNATURE_DATE_INVALID when it cannot be read', async () => {
    await expectError(
      setPath(example('31'), 'signatureDate', 'yesterday'),
      'SIGNATURE_DATE_INVALID@signatureDate',
    );
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.FechaHoraFirma', '21-11-2026 25:00:00'),
      'SIGNATURE_DATE_INVALID@ECF.FechaHoraFirma',
    );
  });
});

describe('rules 4-5: calculations', () => {
  test('ITBIS_RATE_MISMATCH when ITBIS1/2/3 are not 18/16/0', async () => {
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Totales.ITBIS1', '16'),
      'ITBIS_RATE_MISMATCH@ECF.Encabezado.Totales.ITBIS1',
    );
  });

  test('TOTAL_ITBIS_REQUIRED whenever a TotalITBISn exists', async () => {
    await expectError(
      setPath(await taxauthExample('31'), 'ECF.Encabezado.Totales.TotalITBIS', undefined),
      'TOTAL_ITBIS_REQUIRED@ECF.Encabezado.Totales.TotalITBIS',
    );
  });

  test('NORMA_1007_REQUIRES_ITBIS_INCLUDED in both formats', async () => {
    await expectError(
      setPath(setPath(example('31'), 'globalDiscountPercent', 10), 'globalDiscountNorma1007', true),
      'NORMA_1007_REQUIRES_ITBIS_INCLUDED@globalDiscountNorma1007',
    );
    const body = await taxauthExample('31');
    setPath(body, 'ECF.DescuentosORecargos', {
      DescuentoORecargo: [
        {
          NumeroLinea: '1',
          TipoAjuste: 'D',
          IndicadorNorma1007: '1',
          MontoDescuentooRecargo: '100.00',
          IndicadorFacturacionDescuentooRecargo: '1',
        },
      ],
    });
    await expectError(
      body,
      'NORMA_1007_REQUIRES_ITBIS_INCLUDED@ECF.DescuentosORecargos.DescuentoORecargo[0].IndicadorNorma1007',
    );
  });

  test('Norma 10-07 discount with ITBIS included: not subtracted from I1, subtracted from ValorPagar', async () => {
    const body = setPath(
      setPath(example('32'), 'globalDiscountPercent', 10),
      'globalDiscountNorma1007',
      true,
    );
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    const totals = getPath(result.data.document.ECF, 'Encabezado.Totales') as Record<string, string>;
    assert.equal(totals['MontoGravadoI1'], '669.49');
    assert.equal(totals['MontoTotal'], '1006.00');
    assert.equal(totals['ValorPagar'], '905.40');
    assert.equal(
      getPath(result.data.document.ECF, 'DescuentosORecargos.DescuentoORecargo[0].IndicadorNorma1007'),
      '1',
    );
  });

  test('EXCHANGE_RATE_INVALID without a rate greater than 0', async () => {
    await expectError(
      setPath(example('46'), 'exchangeRate', undefined),
      'EXCHANGE_RATE_INVALID@exchangeRate',
    );
    await expectError(setPath(example('46'), 'exchangeRate', 0), 'EXCHANGE_RATE_INVALID@exchangeRate');
    await expectError(
      setPath(await taxauthExample('46'), 'ECF.Encabezado.OtraMoneda.TipoCambio', '0'),
      'EXCHANGE_RATE_INVALID@ECF.Encabezado.OtraMoneda.TipoCambio',
    );
    await expectError(
      setPath(await taxauthExample('46'), 'ECF.Encabezado.OtraMoneda.TipoCambio', undefined),
      'EXCHANGE_RATE_INVALID@ECF.Encabezado.OtraMoneda.TipoCambio',
    );
  });

  test('global discount and surcharge in percent fill DescuentosORecargos per rate and square', async () => {
    const body = setPath(
      setPath(example('31'), 'globalDiscountPercent', 10),
      'globalSurchargeAmount',
      '100.00',
    );
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    const entries = getPath(result.data.document.ECF, 'DescuentosORecargos.DescuentoORecargo') as Array<
      Record<string, string>
    >;
    assert.deepEqual(
      entries.map((entry) => [
        entry['TipoAjuste'],
        entry['TipoValor'],
        entry['MontoDescuentooRecargo'],
        entry['IndicadorFacturacionDescuentooRecargo'],
      ]),
      [
        ['D', '%', '600.00', '1'],
        ['D', '%', '165.10', '4'],
        ['R', '$', '78.42', '1'],
        ['R', '$', '21.58', '4'],
      ],
    );
    const totals = getPath(result.data.document.ECF, 'Encabezado.Totales') as Record<string, string>;
    assert.equal(totals['MontoGravadoI1'], '5478.42');
    assert.equal(totals['MontoExento'], '1507.48');
    assert.equal(totals['TotalITBIS1'], '986.12');
    assert.equal(totals['MontoTotal'], '7972.02');
    const again = await validate({ ECF: result.data.document.ECF });
    assert.ok(again.success);
    assert.deepEqual(again.data.warnings, []);
  });
});

describe('rule 6: PAGINATION_INVALID', () => {
  test('pages inconsistent with TotalPaginas or the lines', async () => {
    const body = await taxauthExample('31');
    setPath(body, 'ECF.Encabezado.IdDoc.TotalPaginas', '2');
    setPath(body, 'ECF.Paginacion', { Pagina: { PaginaNo: '1', NoLineaDesde: '1', NoLineaHasta: '2' } });
    await expectError(body, 'PAGINATION_INVALID@ECF.Paginacion');
  });
});

describe('rule 7: ISC_SPECIFIC_AMOUNT_REQUIRED', () => {
  test('ISC code 006-039 on a non-bulk item without the specific amount', async () => {
    const body = await taxauthExample('31');
    setPath(body, 'ECF.DetallesItems.Item[0].TablaImpuestoAdicional', {
      ImpuestoAdicional: { TipoImpuesto: '006' },
    });
    setPath(body, 'ECF.Encabezado.Totales.ImpuestosAdicionales', {
      ImpuestoAdicional: [
        {
          TipoImpuesto: '006',
          TasaImpuestoAdicional: '632.58',
          MontoImpuestoSelectivoConsumoAdvalorem: '10.00',
        },
      ],
    });
    await expectError(
      body,
      'ISC_SPECIFIC_AMOUNT_REQUIRED@ECF.Encabezado.Totales.ImpuestosAdicionales.ImpuestoAdicional[0].MontoImpuestoSelectivoConsumoEspecifico',
    );
    setPath(body, 'ECF.DetallesItems.Item[0].UnidadMedida', '18');
    const bulk = await validate(body);
    assert.ok(!issuesOf(bulk).errors.some((error) => error.startsWith('ISC_SPECIFIC_AMOUNT_REQUIRED')));
  });
});

describe('rule 8: withholding', () => {
  test('ITBIS_RETENTION_EXCEEDS_LINE_ITBIS on the line', async () => {
    await expectError(
      setPath(example('41'), 'lines[0].itbisWithheldAmount', '1800.01'),
      'ITBIS_RETENTION_EXCEEDS_LINE_ITBIS@lines[0].itbisWithheldAmount',
    );
    await expectError(
      setPath(await taxauthExample('41'), 'ECF.DetallesItems.Item[1].Retencion.MontoITBISRetenido', '200.00'),
      'ITBIS_RETENTION_EXCEEDS_LINE_ITBIS@ECF.DetallesItems.Item[1].Retencion.MontoITBISRetenido',
    );
  });

  test('ISR_RETENTION_REQUIRES_SERVICE in E41', async () => {
    await expectError(
      setPath(example('41'), 'lines[1].isrWithheldAmount', '30.00'),
      'ISR_RETENTION_REQUIRES_SERVICE@lines[1].isrWithheldAmount',
    );
  });

  test('PERCEPTION_REGIME_NOT_IN_FORCE warning', async () => {
    const body = setPath(
      await taxauthExample('41'),
      'ECF.DetallesItems.Item[1].Retencion.IndicadorAgenteRetencionoPercepcion',
      '2',
    );
    await expectWarning(
      body,
      'PERCEPTION_REGIME_NOT_IN_FORCE@ECF.DetallesItems.Item[1].Retencion.IndicadorAgenteRetencionoPercepcion',
    );
  });
});

describe('rules 9 and 20: notes and references', () => {
  test('E34 after 30 days: IndicadorNotaCredito 1, no ITBIS, total without it (simplified)', async () => {
    const body = setPath(example('34'), 'reference.date', '2026-10-01');
    const result = await validate(body);
    assert.ok(result.success, JSON.stringify(issuesOf(result)));
    const ecf = result.data.document.ECF;
    assert.equal(getPath(ecf, 'Encabezado.IdDoc.IndicadorNotaCredito'), '1');
    assert.equal(getPath(ecf, 'Encabezado.Totales.TotalITBIS'), undefined);
    assert.equal(getPath(ecf, 'Encabezado.Totales.MontoTotal'), '900.00');
  });

  test('CREDIT_NOTE_ITBIS_NOT_RETURNED warning when such a note declares ITBIS', async () => {
    const body = await taxauthExample('34');
    setPath(body, 'ECF.InformacionReferencia.FechaNCFModificado', '01-10-2026');
    setPath(body, 'ECF.Encabezado.IdDoc.IndicadorNotaCredito', '1');
    await expectWarning(body, 'CREDIT_NOTE_ITBIS_NOT_RETURNED@ECF.Encabezado.Totales.TotalITBIS');
  });

  test('CREDIT_NOTE_INDICATOR_MISMATCH against the calendar days', async () => {
    await expectError(
      setPath(await taxauthExample('34'), 'ECF.Encabezado.IdDoc.IndicadorNotaCredito', '1'),
      'CREDIT_NOTE_INDICATOR_MISMATCH@ECF.Encabezado.IdDoc.IndicadorNotaCredito',
    );
  });

  test('CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED for code 4, every type', async () => {
    await expectError(
      setPath(example('34'), 'reference.modificationCode', 4),
      'CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED@reference.modificationCode',
    );
    const body = setPath(await taxauthExample('31'), 'ECF.InformacionReferencia', {
      NCFModificado: 'B0100000001',
      FechaNCFModificado: '20-11-2026',
      CodigoModificacion: '4',
    });
    await expectError(
      body,
      'CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED@ECF.InformacionReferencia.CodigoModificacion',
    );
  });

  test('REFERENCE_CODE_NOT_APPLICABLE: code 5 only on E31 referencing an E32', async () => {
    await expectError(
      setPath(example('34'), 'reference.modificationCode', 5),
      'REFERENCE_CODE_NOT_APPLICABLE@reference.modificationCode',
    );
    await expectError(
      setPath(example('31'), 'reference', { encf: 'E310000000001', date: '2026-11-20', modificationCode: 5 }),
      'REFERENCE_CODE_NOT_APPLICABLE@reference.modificationCode',
    );
    const valid = await validate(
      setPath(example('31'), 'reference', { encf: 'E320000000055', date: '2026-11-20', modificationCode: 5 }),
    );
    assert.ok(valid.success, JSON.stringify(issuesOf(valid)));
    const taxauth = setPath(await taxauthExample('45'), 'ECF.InformacionReferencia', {
      NCFModificado: 'E320000000055',
      FechaNCFModificado: '20-11-2026',
      CodigoModificacion: '5',
    });
    await expectError(taxauth, 'REFERENCE_CODE_NOT_APPLICABLE@ECF.InformacionReferencia.CodigoModificacion');
  });

  test('REFERENCE_DATE_AFTER_ISSUE_DATE', async () => {
    await expectError(
      setPath(example('33'), 'reference.date', '2026-11-22'),
      'REFERENCE_DATE_AFTER_ISSUE_DATE@reference.date',
    );
  });

  test('REFERENCED_ENCF_NOT_ACCEPTED for a rejected or annulled original', async () => {
    await expectError(example('34'), 'REFERENCED_ENCF_NOT_ACCEPTED@reference.encf', {
      lookupReferencedDocument: () => ({ ...original, status: 'rejected' }),
    });
    await expectError(
      await taxauthExample('33'),
      'REFERENCED_ENCF_NOT_ACCEPTED@ECF.InformacionReferencia.NCFModificado',
      { lookupReferencedDocument: () => Promise.resolve({ ...original, annulled: true }) },
    );
  });

  test('REFERENCED_BUYER_MISMATCH and REFERENCED_DATE_MISMATCH', async () => {
    await expectError(example('34'), 'REFERENCED_BUYER_MISMATCH@buyer.rnc', {
      lookupReferencedDocument: () => ({ ...original, buyerId: '130000001' }),
    });
    await expectError(example('34'), 'REFERENCED_DATE_MISMATCH@reference.date', {
      lookupReferencedDocument: () => ({ ...original, issueDate: '09-11-2026' }),
    });
  });

  test('CREDIT_NOTES_EXCEED_ORIGINAL counting earlier credit notes', async () => {
    // The example credit note is 1062.00; 5310.00 - 4500.00 leaves 810.00.
    await expectError(example('34'), 'CREDIT_NOTES_EXCEED_ORIGINAL@lines', {
      lookupReferencedDocument: () => ({ ...original, creditNotesTotal: '4500.00' }),
    });
    await expectError(
      await taxauthExample('34'),
      'CREDIT_NOTES_EXCEED_ORIGINAL@ECF.Encabezado.Totales.MontoTotal',
      { lookupReferencedDocument: () => ({ ...original, creditNotesTotal: '4500.00' }) },
    );
    const fits = await validate(example('34'), {
      lookupReferencedDocument: () => ({ ...original, creditNotesTotal: '4248.00' }),
    });
    assert.ok(fits.success);
  });

  test('a note on an eNCF the service never issued is accepted (clarification 16)', async () => {
    const result = await validate(example('34'), { lookupReferencedDocument: () => null });
    assert.ok(result.success);
  });
});

describe('rule 10: buyer', () => {
  test('BUYER_ID_REQUIRED where the type always needs the RNC', async () => {
    await expectError(setPath(example('31'), 'buyer.rnc', undefined), 'BUYER_ID_REQUIRED@buyer.rnc');
    await expectError(
      setPath(await taxauthExample('41'), 'ECF.Encabezado.Comprador.RNCComprador', undefined),
      'BUYER_ID_REQUIRED@ECF.Encabezado.Comprador.RNCComprador',
    );
  });

  test('BUYER_ID_REQUIRED for an E32 of RD$250,000 or more, and notes on it', async () => {
    const big = setPath(example('32'), 'lines[0].quantity', 1000);
    await expectError(big, 'BUYER_ID_REQUIRED@buyer.rnc');
    assert.ok((await validate(setPath(big, 'buyer', { rnc: '101672919', name: 'Hotel Las Olas' }))).success);
    const note = setPath(setPath(example('34'), 'buyer', undefined), 'reference.encf', 'E320000000201');
    await expectError(note, 'BUYER_ID_REQUIRED@buyer.rnc', {
      lookupReferencedDocument: () => ({ ...original, buyerId: null, totalAmount: '300000.00' }),
    });
    assert.ok(
      (
        await validate(note, {
          lookupReferencedDocument: () => ({ ...original, buyerId: null, totalAmount: '2000.00' }),
        })
      ).success,
    );
  });

  test('BUYER_ID_EXCLUSIVE: RNC and foreign identifier together', async () => {
    await expectError(setPath(example('46'), 'buyer.rnc', '101672919'), 'BUYER_ID_EXCLUSIVE@buyer.foreignId');
  });
});

describe('rule 18: taxpayer registry warnings', () => {
  test('BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY and BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH never block', async () => {
    await expectWarning(example('31'), 'BUYER_RNC_NOT_IN_TAXAUTH_REGISTRY@buyer.rnc', {
      lookupTaxpayer: () => null,
    });
    const details = await expectWarning(
      await taxauthExample('31'),
      'BUYER_RNC_NOT_ACTIVE_IN_TAXAUTH@ECF.Encabezado.Comprador.RNCComprador',
      { lookupTaxpayer: () => Promise.resolve({ status: 'SUSPENDIDO' }) },
    );
    assert.equal(details['status'], 'SUSPENDIDO');
    const active = await validate(example('31'), { lookupTaxpayer: () => ({ status: 'ACTIVO' }) });
    assert.ok(active.success);
    assert.deepEqual(active.data.warnings, []);
  });
});

describe('global adjustments', () => {
  test('an amount and a percentage of the same adjustment are ambiguous', async () => {
    await expectError(
      setPath(setPath(example('31'), 'globalDiscountPercent', 5), 'globalDiscountAmount', '10.00'),
      'FIELD_VALUE_INVALID@globalDiscountPercent',
    );
  });

  test('a discount larger than its line is refused on that line', async () => {
    await expectError(
      setPath(example('31'), 'lines[1].discountAmount', '1500.01'),
      'FIELD_VALUE_INVALID@lines[1].discountAmount',
    );
  });
});

describe('payment due date', () => {
  test('before the issue date is refused', async () => {
    await expectError(setPath(example('31'), 'dueDate', '2026-11-20'), 'FIELD_VALUE_INVALID@dueDate');
    await expectError(
      setPath(await taxauthExample('45'), 'ECF.Encabezado.IdDoc.FechaLimitePago', '01-11-2026'),
      'FIELD_VALUE_INVALID@ECF.Encabezado.IdDoc.FechaLimitePago',
    );
  });
});
