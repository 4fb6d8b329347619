/**
 * The committed element-order tables must be exactly what the generator makes of the official XSDs
 * (the repository's copy in `config/xsd`, checked against the published digests by @ecf/config's tests).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateXsdOrderSource } from '../scripts/generate-xsd-order.ts';
import { XSD_ORDER_TABLES } from '../src/xml/xsd-order.generated.ts';

const XSD_DIRECTORY = fileURLToPath(new URL('../../../config/xsd/', import.meta.url));
const GENERATED_MODULE = new URL('../src/xml/xsd-order.generated.ts', import.meta.url);

test('src/xml/xsd-order.generated.ts is current (regenerate with scripts/generate-xsd-order.ts)', () => {
  assert.equal(readFileSync(GENERATED_MODULE, 'utf8'), generateXsdOrderSource(XSD_DIRECTORY));
});

test('the tables hold the schema facts the writers rely on', () => {
  const names = (table: keyof typeof XSD_ORDER_TABLES, path: string): string[] =>
    ((XSD_ORDER_TABLES[table].elements as Record<string, ReadonlyArray<{ name: string }>>)[path] ?? []).map(
      (child) => child.name,
    );
  assert.deepEqual(names('E31', 'ECF').slice(-2), ['InformacionReferencia', 'FechaHoraFirma']);
  assert.deepEqual(names('E34', 'ECF/Encabezado/IdDoc').slice(0, 3), [
    'TipoeCF',
    'eNCF',
    'IndicadorNotaCredito',
  ]);
  for (const table of ['E32', 'E34'] as const)
    assert.ok(!names(table, 'ECF/Encabezado/IdDoc').includes('FechaVencimientoSecuencia'));
  for (const table of ['E31', 'E33', 'E41', 'E43', 'E44', 'E45', 'E46', 'E47'] as const) {
    assert.ok(names(table, 'ECF/Encabezado/IdDoc').includes('FechaVencimientoSecuencia'), table);
  }
  assert.ok(!names('E43', 'ECF/Encabezado').includes('Comprador'));
  assert.deepEqual(names('ANECF', 'ANECF/Encabezado'), [
    'Version',
    'RncEmisor',
    'CantidadeNCFAnulados',
    'FechaHoraAnulacioneNCF',
  ]);
  assert.equal(names('RFCE', 'RFCE/Encabezado').at(-1), 'CodigoSeguridadeCF');
  assert.equal(XSD_ORDER_TABLES.E31.trailingAny.minOccurs, 1);
  assert.equal(XSD_ORDER_TABLES.ACECF.trailingAny.minOccurs, 0);
});
