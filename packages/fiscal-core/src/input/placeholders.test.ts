import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonLosslessly, toPlainJson } from '../json/lossless-json.ts';
import { completePlaceholders, placeholderValues } from './placeholders.ts';

function parse(text: string) {
  const result = parseJsonLosslessly(text);
  assert.ok(result.success);
  return result.value;
}

describe('placeholders', () => {
  const now = new Date('2026-11-21T15:00:00Z');

  test('fills the five known placeholders, whole or embedded', () => {
    const values = placeholderValues(
      { rnc: '131880738', legalName: 'Caribe SRL', tradeName: 'Caribe', paymentTermDays: 15 },
      now,
    );
    const { value, unresolved } = completePlaceholders(
      parse(
        '{"a":"{{RNC}}","b":["{{RAZON_SOCIAL}} ({{NOMBRE_COMERCIAL}})"],"c":{"d":"{{FECHA_EMISION}}","e":"{{ FECHA_LIMITE_PAGO }}"},"n":1.10}',
      ),
      values,
    );
    assert.deepEqual(unresolved, []);
    assert.deepEqual(toPlainJson(value), {
      a: '131880738',
      b: ['Caribe SRL (Caribe)'],
      c: { d: '21-11-2026', e: '06-12-2026' },
      n: '1.10',
    });
  });

  test('lists unknown placeholders and known ones without data by path', () => {
    const values = placeholderValues({ rnc: '131880738', legalName: 'Caribe SRL' }, now);
    const { unresolved } = completePlaceholders(
      parse('{"x":[{"y":"{{NCF_MODIFICADO}}"}],"z":"{{NOMBRE_COMERCIAL}}","w":"{{FECHA_LIMITE_PAGO}}"}'),
      values,
    );
    assert.deepEqual(unresolved, [
      { path: 'x[0].y', placeholder: '{{NCF_MODIFICADO}}' },
      { path: 'z', placeholder: '{{NOMBRE_COMERCIAL}}' },
      { path: 'w', placeholder: '{{FECHA_LIMITE_PAGO}}' },
    ]);
  });

  test('returns the same value when nothing changes', () => {
    const value = parse('{"a":"plain","b":[1,2]}');
    assert.equal(completePlaceholders(value, new Map()).value, value);
  });
});
