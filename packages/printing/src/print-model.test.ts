import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TEcfDocument } from '@ecf/fiscal-core';
import { formatAmount } from './format.ts';
import { buildPrintModel } from './print-model.ts';

function documentOf(type: string, extra: Record<string, string> = {}): TEcfDocument {
  return {
    ECF: {
      Encabezado: {
        IdDoc: {
          TipoeCF: type,
          eNCF: `E${type}0000000001`,
          FechaVencimientoSecuencia: '31-12-2027',
          ...extra,
        },
        Emisor: { RNCEmisor: '131880738', RazonSocialEmisor: 'Emisor SRL', FechaEmision: '21-11-2026' },
        Totales: {
          MontoGravadoTotal: '100.00',
          MontoGravadoI2: '100.00',
          ITBIS2: '16',
          TotalITBIS: '16.00',
          MontoTotal: '116.00',
        },
      },
      DetallesItems: {
        Item: [
          {
            NumeroLinea: '1',
            IndicadorFacturacion: '2',
            NombreItem: 'X',
            CantidadItem: '1',
            PrecioUnitarioItem: '100.00',
            MontoItem: '100.00',
          },
        ],
      },
    },
  };
}

const input = (document: TEcfDocument) => ({
  document,
  securityCode: 'abc/12',
  signedAt: '21-11-2026 11:00:00',
  qrUrl: 'https://example.test',
  environment: 'eCF' as const,
});

describe('formatAmount', () => {
  test('inserts thousands separators into the decimal text, digits untouched', () => {
    assert.equal(formatAmount('1234567.50'), '1,234,567.50');
    assert.equal(formatAmount('-1000'), '-1,000');
    assert.equal(formatAmount('999.999'), '999.999');
    assert.equal(formatAmount('0.10'), '0.10');
    assert.equal(formatAmount('12345678901234567890.01'), '12,345,678,901,234,567,890.01');
    assert.equal(formatAmount('1,000.00'), '1,000.00');
  });
});

describe('buildPrintModel', () => {
  test('never shows a sequence expiration date for 32 and 34, even if a tree carries one', () => {
    assert.equal(buildPrintModel(input(documentOf('32'))).sequenceExpirationDate, undefined);
    assert.equal(buildPrintModel(input(documentOf('34'))).sequenceExpirationDate, undefined);
    assert.equal(buildPrintModel(input(documentOf('31'))).sequenceExpirationDate, '31-12-2027');
    assert.equal(buildPrintModel(input(documentOf('33'))).sequenceExpirationDate, '31-12-2027');
  });

  test('line ITBIS uses the rate of the totals for the indicator, with or without ITBIS included', () => {
    assert.equal(buildPrintModel(input(documentOf('31'))).items[0]?.itbis, '16.00');
    assert.equal(
      buildPrintModel(input(documentOf('31', { IndicadorMontoGravado: '1' }))).items[0]?.itbis,
      '13.79',
    );
  });

  test('type names and rates label the totals', () => {
    const model = buildPrintModel(input(documentOf('45')));
    assert.equal(model.typeName, 'Gubernamental Electrónico');
    assert.deepEqual(
      model.totals.map((row) => `${row.label}=${row.value}`),
      ['Subtotal Gravado ITBIS 16%=100.00', 'Subtotal Gravado=100.00', 'Total ITBIS=16.00', 'Total=116.00'],
    );
    assert.deepEqual(model.buyer, []);
  });

  test('a tree without a valid type is a programmer error', () => {
    assert.throws(() => buildPrintModel(input(documentOf('99'))), TypeError);
  });
});
