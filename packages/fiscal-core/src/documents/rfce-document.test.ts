import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TEcfDocument, TEcfTree } from '../model/ecf-tree.ts';
import { buildRfceXml } from './rfce-document.ts';

function e32(totales: TEcfTree, comprador: TEcfTree = { RazonSocialComprador: 'Consumidor' }): TEcfDocument {
  return {
    ECF: {
      Encabezado: {
        Version: '1.0',
        IdDoc: {
          TipoeCF: '32',
          eNCF: 'E320000000064',
          IndicadorMontoGravado: '0',
          TipoIngresos: '01',
          TipoPago: '1',
          TablaFormasPago: { FormaDePago: { FormaPago: '1', MontoPago: '6225.1' } },
        },
        Emisor: {
          RNCEmisor: '131880738',
          RazonSocialEmisor: 'Emisor',
          DireccionEmisor: 'Calle 1',
          FechaEmision: '01-11-2026',
        },
        Comprador: comprador,
        Totales: totales,
      },
      DetallesItems: { Item: [{ NumeroLinea: '1', NombreItem: 'not summarized' }] },
      FechaHoraFirma: '01-11-2026 10:00:00',
    },
  };
}

describe('buildRfceXml', () => {
  test('summarizes the E32 in RFCE order, amounts with two decimals, additional taxes without rate, no items', () => {
    const result = buildRfceXml(
      e32({
        MontoTotal: '6225.1',
        MontoGravadoTotal: '5000',
        MontoGravadoI1: '5000',
        ITBIS1: '18',
        TotalITBIS: '900',
        TotalITBIS1: '900',
        MontoImpuestoAdicional: '325.1',
        ImpuestosAdicionales: {
          ImpuestoAdicional: [
            { TipoImpuesto: '001', TasaImpuestoAdicional: '10', OtrosImpuestosAdicionales: '325.1' },
          ],
        },
        MontoNoFacturable: '-25',
        MontoPeriodo: '6200.1',
        ValorPagar: '6200.10',
      }),
      { securityCode: 'uab+y/' },
    );
    assert.ok(result.success, JSON.stringify(result));
    assert.equal(
      result.data,
      '<RFCE><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>32</TipoeCF><eNCF>E320000000064</eNCF><TipoIngresos>01</TipoIngresos>' +
        '<TipoPago>1</TipoPago><TablaFormasPago><FormaDePago><FormaPago>1</FormaPago><MontoPago>6225.10</MontoPago></FormaDePago>' +
        '</TablaFormasPago></IdDoc><Emisor><RNCEmisor>131880738</RNCEmisor><RazonSocialEmisor>Emisor</RazonSocialEmisor>' +
        '<FechaEmision>01-11-2026</FechaEmision></Emisor><Comprador><RazonSocialComprador>Consumidor</RazonSocialComprador></Comprador>' +
        '<Totales><MontoGravadoTotal>5000.00</MontoGravadoTotal><MontoGravadoI1>5000.00</MontoGravadoI1><TotalITBIS>900.00</TotalITBIS>' +
        '<TotalITBIS1>900.00</TotalITBIS1><MontoImpuestoAdicional>325.10</MontoImpuestoAdicional><ImpuestosAdicionales><ImpuestoAdicional>' +
        '<TipoImpuesto>001</TipoImpuesto><OtrosImpuestosAdicionales>325.10</OtrosImpuestosAdicionales></ImpuestoAdicional>' +
        '</ImpuestosAdicionales><MontoTotal>6225.10</MontoTotal><MontoNoFacturable>-25.00</MontoNoFacturable>' +
        '<MontoPeriodo>6200.10</MontoPeriodo></Totales><CodigoSeguridadeCF>uab+y/</CodigoSeguridadeCF></Encabezado></RFCE>',
    );
  });

  test('keeps a foreign buyer identifier', () => {
    const result = buildRfceXml(
      e32({ MontoTotal: '10.00' }, { IdentificadorExtranjero: 'AB123456', RazonSocialComprador: 'Tourist' }),
      {
        securityCode: 'ABCDEF',
      },
    );
    assert.ok(result.success);
    assert.match(
      result.data,
      /<Comprador><IdentificadorExtranjero>AB123456<\/IdentificadorExtranjero><RazonSocialComprador>Tourist/,
    );
  });

  test('applies only to an E32 below RD$250,000.00 with a 6-character security code', () => {
    const codes = (document: TEcfDocument, securityCode: string): string[] => {
      const result = buildRfceXml(document, { securityCode });
      return result.success ? [] : result.issues.map((issue) => `${issue.code}@${issue.path}`);
    };
    assert.deepEqual(codes(e32({ MontoTotal: '249999.99' }), 'ABCDEF'), []);
    assert.deepEqual(codes(e32({ MontoTotal: '250000' }), 'ABCDEF'), [
      'RFCE_NOT_APPLICABLE@ECF.Encabezado.Totales.MontoTotal',
    ]);
    assert.deepEqual(codes(e32({ MontoTotal: '10.00' }), 'ABCDE'), ['SECURITY_CODE_INVALID@securityCode']);
    const e31 = e32({ MontoTotal: '10.00' });
    const idDoc = (e31.ECF['Encabezado'] as TEcfTree)['IdDoc'] as TEcfTree;
    assert.deepEqual(
      codes(
        {
          ECF: {
            ...e31.ECF,
            Encabezado: { ...(e31.ECF['Encabezado'] as TEcfTree), IdDoc: { ...idDoc, TipoeCF: '31' } },
          },
        },
        'ABCDEF',
      ),
      ['RFCE_NOT_APPLICABLE@ECF.Encabezado.IdDoc.TipoeCF'],
    );
  });

  test('reports E32 gaps on the E32 paths', () => {
    const result = buildRfceXml(e32({ MontoTotal: '1,000.00' }, {}), { securityCode: 'ABCDEF' });
    assert.ok(!result.success);
    assert.deepEqual(
      result.issues.map((issue) => `${issue.code}@${issue.path}`),
      ['AMOUNT_INVALID@ECF.Encabezado.Totales.MontoTotal'],
    );
    const noBuyer = buildRfceXml(e32({ MontoTotal: '1.00' }, {}), { securityCode: 'ABCDEF' });
    assert.ok(!noBuyer.success);
    assert.deepEqual(
      noBuyer.issues.map((issue) => `${issue.code}@${issue.path}`),
      ['REQUIRED_ELEMENT_MISSING@ECF.Encabezado.Comprador'],
    );
  });
});
