import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DOMParser } from '@xmldom/xmldom';
import fc from 'fast-check';
import type { TEcfDocument, TEcfTree } from '../model/ecf-tree.ts';
import { buildEcfXml } from './ecf-writer.ts';
import type { TXmlIssue, TXmlResult } from './xml-issues.ts';

/** A small but complete e-CF of the given type (32/34 without FechaVencimientoSecuencia). */
function minimalEcf(
  type: '31' | '32' | '34' | '43',
  overrides: { idDoc?: TEcfTree; encabezado?: TEcfTree; ecf?: TEcfTree } = {},
): TEcfDocument {
  const idDoc: TEcfTree = {
    TipoeCF: type,
    eNCF: `E${type}0000000001`,
    ...(type === '32' || type === '34' ? {} : { FechaVencimientoSecuencia: '31-12-2027' }),
    ...(type === '34' ? { IndicadorNotaCredito: '0' } : {}),
    ...(type === '43' ? {} : { TipoIngresos: '01' }),
    TipoPago: '1',
    ...overrides.idDoc,
  };
  return {
    ECF: {
      Encabezado: {
        Version: '1.0',
        IdDoc: idDoc,
        Emisor: {
          RNCEmisor: '131880738',
          RazonSocialEmisor: 'Emisor',
          DireccionEmisor: 'Calle 1',
          FechaEmision: '01-11-2026',
        },
        ...(type === '43'
          ? {}
          : { Comprador: { RNCComprador: '101234567', RazonSocialComprador: 'Comprador' } }),
        Totales: { MontoExento: '100.00', MontoTotal: '100.00' },
        ...overrides.encabezado,
      },
      DetallesItems: {
        Item: [
          {
            NumeroLinea: '1',
            IndicadorFacturacion: '4',
            NombreItem: 'Item',
            IndicadorBienoServicio: '1',
            CantidadItem: '1',
            PrecioUnitarioItem: '100.00',
            MontoItem: '100.00',
          },
        ],
      },
      ...(type === '34'
        ? {
            InformacionReferencia: {
              NCFModificado: 'E310000000001',
              FechaNCFModificado: '01-11-2026',
              CodigoModificacion: '3',
            },
          }
        : {}),
      FechaHoraFirma: '01-11-2026 10:00:00',
      ...overrides.ecf,
    },
  };
}

function xmlOf(result: TXmlResult): string {
  assert.ok(result.success, JSON.stringify(result.success ? [] : result.issues));
  return result.data;
}

function issuesOf(result: TXmlResult): TXmlIssue[] {
  assert.ok(!result.success, 'expected issues');
  return result.issues;
}

describe('buildEcfXml', () => {
  test('writes canonical XML in XSD order, FechaHoraFirma last', () => {
    assert.equal(
      xmlOf(buildEcfXml(minimalEcf('31'))),
      '<ECF><Encabezado><Version>1.0</Version><IdDoc><TipoeCF>31</TipoeCF><eNCF>E310000000001</eNCF>' +
        '<FechaVencimientoSecuencia>31-12-2027</FechaVencimientoSecuencia><TipoIngresos>01</TipoIngresos><TipoPago>1</TipoPago></IdDoc>' +
        '<Emisor><RNCEmisor>131880738</RNCEmisor><RazonSocialEmisor>Emisor</RazonSocialEmisor><DireccionEmisor>Calle 1</DireccionEmisor>' +
        '<FechaEmision>01-11-2026</FechaEmision></Emisor><Comprador><RNCComprador>101234567</RNCComprador>' +
        '<RazonSocialComprador>Comprador</RazonSocialComprador></Comprador><Totales><MontoExento>100.00</MontoExento>' +
        '<MontoTotal>100.00</MontoTotal></Totales></Encabezado><DetallesItems><Item><NumeroLinea>1</NumeroLinea>' +
        '<IndicadorFacturacion>4</IndicadorFacturacion><NombreItem>Item</NombreItem><IndicadorBienoServicio>1</IndicadorBienoServicio>' +
        '<CantidadItem>1</CantidadItem><PrecioUnitarioItem>100.00</PrecioUnitarioItem><MontoItem>100.00</MontoItem></Item>' +
        '</DetallesItems><FechaHoraFirma>01-11-2026 10:00:00</FechaHoraFirma></ECF>',
    );
  });

  test('ignores member order in the tree', () => {
    const document = minimalEcf('31');
    const reversed = (tree: TEcfTree): TEcfTree =>
      Object.fromEntries(
        Object.entries(tree)
          .reverse()
          .map(([name, value]) => [
            name,
            typeof value === 'object' && !Array.isArray(value) ? reversed(value as TEcfTree) : value,
          ]),
      );
    assert.equal(xmlOf(buildEcfXml({ ECF: reversed(document.ECF) })), xmlOf(buildEcfXml(document)));
    assert.ok(Object.keys(reversed(document.ECF))[0] === 'FechaHoraFirma');
  });

  test('never emits Paginacion, and does not report it', () => {
    const xml = xmlOf(
      buildEcfXml(
        minimalEcf('31', {
          idDoc: { TotalPaginas: '1' },
          ecf: {
            Paginacion: {
              Pagina: [
                { PaginaNo: '1', NoLineaDesde: '1', NoLineaHasta: '1', MontoSubtotalPagina: '100.00' },
              ],
            },
          },
        }),
      ),
    );
    assert.doesNotMatch(xml, /Pagina(cion|No)/);
    assert.match(xml, /<TotalPaginas>1<\/TotalPaginas>/);
  });

  test('reports FechaVencimientoSecuencia in a 32 or 34 and never emits it', () => {
    for (const type of ['32', '34'] as const) {
      const issues = issuesOf(
        buildEcfXml(minimalEcf(type, { idDoc: { FechaVencimientoSecuencia: '31-12-2027' } })),
      );
      assert.deepEqual(
        issues.map(({ code, path }) => ({ code, path })),
        [
          {
            code: 'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE',
            path: 'ECF.Encabezado.IdDoc.FechaVencimientoSecuencia',
          },
        ],
      );
      assert.doesNotMatch(xmlOf(buildEcfXml(minimalEcf(type))), /FechaVencimientoSecuencia/);
    }
  });

  test('escapes & < > in text and leaves quotes as they are (C14N)', () => {
    const xml = xmlOf(
      buildEcfXml(
        minimalEcf('31', {
          encabezado: { Comprador: { RNCComprador: '101234567', RazonSocialComprador: `A & B <C> "D" 'E'` } },
        }),
      ),
    );
    assert.match(xml, /<RazonSocialComprador>A &amp; B &lt;C&gt; "D" 'E'<\/RazonSocialComprador>/);
  });

  test('any text XML can carry survives a parse unchanged; other characters are reported', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.string({ minLength: 1 }),
        (name, anything) => {
          for (const value of [name, `&<>"'\t\n\r ${name}`, anything]) {
            const result = buildEcfXml(
              minimalEcf('31', {
                encabezado: { Comprador: { RNCComprador: '101234567', RazonSocialComprador: value } },
              }),
            );
            // XML 1.0 Char: no C0 controls but tab, LF and CR; no lone surrogates; no U+FFFE/U+FFFF.
            const isXmlText = !/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(value);
            if (!isXmlText) {
              assert.ok(!result.success && result.issues[0]?.code === 'XML_CHARACTER_INVALID');
              continue;
            }
            const xml = xmlOf(result);
            // XML 1.0 line-end handling (xmldom defaults to XML 1.1's, which also folds U+0085/U+2028 into LF).
            const parser = new DOMParser({
              normalizeLineEndings: (source) => source.replace(/\r\n?/g, '\n'),
            });
            const parsed = parser.parseFromString(xml, 'text/xml');
            assert.equal(parsed.getElementsByTagName('RazonSocialComprador')[0]?.textContent, value);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('reports elements the type XSD does not have, with their path', () => {
    const issues = issuesOf(
      buildEcfXml(
        minimalEcf('31', {
          idDoc: { IndicadorNotaCredito: '0' },
          encabezado: {
            Comprador: { RNCComprador: '101234567', RazonSocialComprador: 'C', PaisComprador: 'Haiti' },
          },
          ecf: { Extra: 'x' },
        }),
      ),
    );
    assert.deepEqual(
      issues.map(({ code, path }) => ({ code, path })),
      [
        { code: 'ELEMENT_NOT_IN_XSD', path: 'ECF.Extra' },
        { code: 'ELEMENT_NOT_IN_XSD', path: 'ECF.Encabezado.IdDoc.IndicadorNotaCredito' },
        { code: 'ELEMENT_NOT_IN_XSD', path: 'ECF.Encabezado.Comprador.PaisComprador' },
      ],
    );
  });

  test('a type without buyer reports Comprador; item members are checked per occurrence', () => {
    const base = minimalEcf('43');
    const issues = issuesOf(
      buildEcfXml({
        ECF: {
          ...base.ECF,
          Encabezado: { ...(base.ECF['Encabezado'] as TEcfTree), Comprador: { RNCComprador: '101234567' } },
          DetallesItems: {
            Item: [
              {
                NumeroLinea: '1',
                IndicadorFacturacion: '4',
                NombreItem: 'A',
                IndicadorBienoServicio: '1',
                CantidadItem: '1',
                PrecioUnitarioItem: '1.00',
                MontoItem: '1.00',
              },
              {
                NumeroLinea: '2',
                IndicadorFacturacion: '4',
                NombreItem: 'B',
                IndicadorBienoServicio: '1',
                CantidadItem: '1',
                PrecioUnitarioItem: '1.00',
                MontoItem: '1.00',
                Retencion: { IndicadorAgenteRetencionoPercepcion: '1' },
              },
            ],
          },
        },
      }),
    );
    assert.deepEqual(
      issues.map(({ code, path }) => ({ code, path })),
      [
        { code: 'ELEMENT_NOT_IN_XSD', path: 'ECF.Encabezado.Comprador' },
        { code: 'ELEMENT_NOT_IN_XSD', path: 'ECF.DetallesItems.Item[1].Retencion' },
      ],
    );
  });

  test('accepts a single occurrence of a repeated element as an object', () => {
    const xml = xmlOf(
      buildEcfXml(
        minimalEcf('31', {
          idDoc: { TablaFormasPago: { FormaDePago: { FormaPago: '1', MontoPago: '100.00' } } },
        }),
      ),
    );
    assert.match(
      xml,
      /<TablaFormasPago><FormaDePago><FormaPago>1<\/FormaPago><MontoPago>100\.00<\/MontoPago><\/FormaDePago><\/TablaFormasPago>/,
    );
  });

  test('reports occurrences beyond maxOccurs, wrong shapes and characters XML cannot carry', () => {
    const base = minimalEcf('31');
    const encabezado = base.ECF['Encabezado'] as TEcfTree;
    const issues = issuesOf(
      buildEcfXml({
        ECF: {
          ...base.ECF,
          Encabezado: {
            ...encabezado,
            Version: ['1.0', '1.0'],
            Emisor: {
              ...(encabezado['Emisor'] as TEcfTree),
              TablaTelefonoEmisor: {
                TelefonoEmisor: ['809-555-0001', '809-555-0002', '809-555-0003', '809-555-0004'],
              },
              RazonSocialEmisor: 'Bad\u0001name',
              DireccionEmisor: { Calle: 'x' },
            },
            Totales: '100.00',
          },
        },
      }),
    );
    assert.deepEqual(
      issues.map(({ code, path }) => ({ code, path })),
      [
        { code: 'ELEMENT_OCCURS_EXCEEDED', path: 'ECF.Encabezado.Version' },
        { code: 'XML_CHARACTER_INVALID', path: 'ECF.Encabezado.Emisor.RazonSocialEmisor' },
        { code: 'ELEMENT_SHAPE_INVALID', path: 'ECF.Encabezado.Emisor.DireccionEmisor' },
        { code: 'ELEMENT_OCCURS_EXCEEDED', path: 'ECF.Encabezado.Emisor.TablaTelefonoEmisor.TelefonoEmisor' },
        { code: 'ELEMENT_SHAPE_INVALID', path: 'ECF.Encabezado.Totales' },
      ],
    );
  });

  test('reports required elements that are missing or empty, not those of an omitted optional group', () => {
    const issues = issuesOf(
      buildEcfXml(
        minimalEcf('31', {
          idDoc: { TipoPago: '', TablaFormasPago: { FormaDePago: { FormaPago: '', MontoPago: '' } } },
          encabezado: { OtraMoneda: {}, Comprador: { RazonSocialComprador: 'C' } },
          ecf: { FechaHoraFirma: undefined, InformacionReferencia: { NCFModificado: '' } },
        }),
      ),
    );
    assert.deepEqual(
      issues.map(({ code, path }) => ({ code, path })),
      [
        { code: 'REQUIRED_ELEMENT_MISSING', path: 'ECF.Encabezado.IdDoc.TipoPago' },
        { code: 'REQUIRED_ELEMENT_MISSING', path: 'ECF.Encabezado.Comprador.RNCComprador' },
        { code: 'REQUIRED_ELEMENT_MISSING', path: 'ECF.FechaHoraFirma' },
      ],
    );
  });

  test('reports an unknown or missing TipoeCF', () => {
    for (const tipo of ['30', undefined]) {
      const issues = issuesOf(buildEcfXml(minimalEcf('31', { idDoc: { TipoeCF: tipo } })));
      assert.deepEqual(
        issues.map(({ code, path }) => ({ code, path })),
        [{ code: 'ECF_TYPE_UNSUPPORTED', path: 'ECF.Encabezado.IdDoc.TipoeCF' }],
      );
    }
  });
});
