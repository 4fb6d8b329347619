import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonLosslessly, toPlainJson } from './lossless-json.ts';

describe('parseJsonLosslessly', () => {
  test('keeps the source text of numbers', () => {
    const result = parseJsonLosslessly(
      '{"a": 1.10, "b": 12345678901234567.89, "c": -0, "d": 1e3, "e": [0.5]}',
    );
    assert.ok(result.success);
    assert.deepEqual(toPlainJson(result.value), {
      a: '1.10',
      b: '12345678901234567.89',
      c: '-0',
      d: '1e3',
      e: ['0.5'],
    });
  });

  test('reads strings with escapes, booleans and null', () => {
    const result = parseJsonLosslessly('{"s": "a\\"b\\\\c\\n\\u00e9\\/", "t": true, "f": false, "n": null}');
    assert.ok(result.success);
    assert.deepEqual(toPlainJson(result.value), { s: 'a"b\\c\né/', t: true, f: false, n: null });
  });

  test('reports malformed JSON with offset, line and column', () => {
    const result = parseJsonLosslessly('{\n  "a": 1,\n  "b": }');
    assert.ok(!result.success);
    assert.equal(result.error.code, 'JSON_MALFORMED');
    assert.equal(result.error.line, 3);
    assert.equal(result.error.column, 8);
    assert.equal(result.error.offset, 19);
  });

  test('rejects what JSON does not allow', () => {
    for (const text of [
      '',
      '{',
      '{"a":1,}',
      '[1,]',
      "{'a':1}",
      '{"a":01}',
      '{"a":.5}',
      '{"a":1} x',
      '{"a":"\u0001"}',
      '{"a":"\\x"}',
      'NaN',
      '{"a":+1}',
    ]) {
      const result = parseJsonLosslessly(text);
      assert.ok(!result.success, text);
      assert.equal(result.error.code, 'JSON_MALFORMED', text);
    }
  });

  test('rejects duplicate keys, naming the member', () => {
    const result = parseJsonLosslessly('{"ECF": {"Encabezado": {"Version": "1.0", "Version": "1.0"}}}');
    assert.ok(!result.success);
    assert.equal(result.error.code, 'JSON_DUPLICATE_KEY');
    assert.equal(result.error.path, 'ECF.Encabezado.Version');
  });

  test('limits nesting depth', () => {
    const result = parseJsonLosslessly('['.repeat(300) + ']'.repeat(300));
    assert.ok(!result.success);
    assert.equal(result.error.code, 'JSON_TOO_DEEP');
  });

  test('parses a large body in linear time', () => {
    const lines = Array.from({ length: 1000 }, (_, index) => ({
      NumeroLinea: index + 1,
      NombreItem: `Artículo ${index}`,
      CantidadItem: '1.00',
      PrecioUnitarioItem: '100.00',
      MontoItem: '100.00',
    }));
    const text = JSON.stringify({ ECF: { DetallesItems: { Item: lines } } }, null, 2);
    const started = performance.now();
    for (let i = 0; i < 10; i += 1) assert.ok(parseJsonLosslessly(text).success);
    assert.ok(performance.now() - started < 2000);
  });
});
