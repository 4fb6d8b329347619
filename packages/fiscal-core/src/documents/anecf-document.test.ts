import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAnecfXml } from './anecf-document.ts';
import type { TAnecfInput } from './anecf-document.ts';

const BASE: TAnecfInput = { rncEmisor: '131880738', annulledAt: '20-11-2026 17:45:00', ranges: [] };

function codes(input: TAnecfInput): string[] {
  const result = buildAnecfXml(input);
  return result.success ? [] : result.issues.map((issue) => `${issue.code}@${issue.path}`);
}

describe('buildAnecfXml', () => {
  test('groups ranges by type, numbers the lines and counts per type and in total', () => {
    const result = buildAnecfXml({
      ...BASE,
      ranges: [
        { type: '44', from: 'E440000000010', to: 'E440000000046' },
        { type: '31', from: 'E310000000001', to: 'E310000000001' },
        { type: '31', from: 'E310000000005', to: 'E310000000050' },
      ],
    });
    assert.ok(result.success);
    assert.equal(
      result.data,
      '<ANECF><Encabezado><Version>1.0</Version><RncEmisor>131880738</RncEmisor><CantidadeNCFAnulados>84</CantidadeNCFAnulados>' +
        '<FechaHoraAnulacioneNCF>20-11-2026 17:45:00</FechaHoraAnulacioneNCF></Encabezado><DetalleAnulacion>' +
        '<Anulacion><NoLinea>1</NoLinea><TipoeCF>44</TipoeCF><TablaRangoSecuenciasAnuladaseNCF><Secuencias>' +
        '<SecuenciaeNCFDesde>E440000000010</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E440000000046</SecuenciaeNCFHasta></Secuencias>' +
        '</TablaRangoSecuenciasAnuladaseNCF><CantidadeNCFAnulados>37</CantidadeNCFAnulados></Anulacion>' +
        '<Anulacion><NoLinea>2</NoLinea><TipoeCF>31</TipoeCF><TablaRangoSecuenciasAnuladaseNCF>' +
        '<Secuencias><SecuenciaeNCFDesde>E310000000001</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E310000000001</SecuenciaeNCFHasta></Secuencias>' +
        '<Secuencias><SecuenciaeNCFDesde>E310000000005</SecuenciaeNCFDesde><SecuenciaeNCFHasta>E310000000050</SecuenciaeNCFHasta></Secuencias>' +
        '</TablaRangoSecuenciasAnuladaseNCF><CantidadeNCFAnulados>47</CantidadeNCFAnulados></Anulacion></DetalleAnulacion></ANECF>',
    );
  });

  test('checks each range: eNCF, type, series, order', () => {
    assert.deepEqual(
      codes({
        ...BASE,
        ranges: [
          { type: '31', from: 'E310000000009', to: 'E310000000002' },
          { type: '32', from: 'E310000000001', to: 'E320000000001' },
          { type: '33', from: 'E330000000001', to: 'F330000000002' },
          { type: '35', from: 'E350000000001', to: 'E350000000001' },
          { type: '34', from: 'E340000000000', to: 'E34000000001' },
        ],
      }),
      [
        'ANNULMENT_RANGE_REVERSED@ranges[0]',
        'ANNULMENT_RANGE_TYPE_MISMATCH@ranges[1].from',
        'ANNULMENT_RANGE_TYPE_MISMATCH@ranges[2].to',
        'ECF_TYPE_INVALID@ranges[3].type',
        'ENCF_INVALID@ranges[3].from',
        'ENCF_INVALID@ranges[3].to',
        'ENCF_INVALID@ranges[4].from',
        'ENCF_INVALID@ranges[4].to',
      ],
    );
  });

  test('refuses overlapping ranges of the same type and series, not of different ones', () => {
    assert.deepEqual(
      codes({
        ...BASE,
        ranges: [
          { type: '31', from: 'E310000000010', to: 'E310000000020' },
          { type: '31', from: 'E310000000020', to: 'E310000000030' },
          { type: '32', from: 'E320000000010', to: 'E320000000020' },
          { type: '31', from: 'F310000000010', to: 'F310000000020' },
        ],
      }),
      ['ANNULMENT_RANGES_OVERLAP@ranges[1]'],
    );
  });

  test('needs a range, at most 10 types, and valid header fields', () => {
    assert.deepEqual(codes(BASE), ['ANNULMENT_RANGES_REQUIRED@ranges']);
    const tooMany = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47', '48'].map((type) => ({
      type,
      from: `E${type}0000000001`,
      to: `E${type}0000000001`,
    }));
    assert.ok(codes({ ...BASE, ranges: tooMany }).includes('ANNULMENT_TOO_MANY_TYPES@ranges'));
    assert.deepEqual(
      codes({ ...BASE, rncEmisor: 'ABC', annulledAt: '20-11-2026', ranges: tooMany.slice(0, 1) }),
      ['RNC_INVALID@rncEmisor', 'DATE_TIME_INVALID@annulledAt'],
    );
  });
});
