import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAcecfXml } from './acecf-document.ts';
import type { TAcecfInput } from './acecf-document.ts';

const ACCEPTED: TAcecfInput = {
  rncEmisor: '101234567',
  encf: 'E310000000125',
  fechaEmision: '10-11-2026',
  montoTotal: '637.2',
  rncComprador: '131880738',
  estado: 'accepted',
  approvedAt: '16-11-2026 14:05:00',
};

describe('buildAcecfXml', () => {
  test('writes an acceptance in XSD order, the amount with two decimals', () => {
    const result = buildAcecfXml(ACCEPTED);
    assert.ok(result.success);
    assert.equal(
      result.data,
      '<ACECF><DetalleAprobacionComercial><Version>1.0</Version><RNCEmisor>101234567</RNCEmisor><eNCF>E310000000125</eNCF>' +
        '<FechaEmision>10-11-2026</FechaEmision><MontoTotal>637.20</MontoTotal><RNCComprador>131880738</RNCComprador>' +
        '<Estado>1</Estado><FechaHoraAprobacionComercial>16-11-2026 14:05:00</FechaHoraAprobacionComercial>' +
        '</DetalleAprobacionComercial></ACECF>',
    );
  });

  test('writes a rejection with its escaped reason before the approval time', () => {
    const result = buildAcecfXml({
      ...ACCEPTED,
      montoTotal: '540',
      estado: 'rejected',
      rejectionReason: 'Precio & cantidad <no> "coinciden"',
    });
    assert.ok(result.success);
    assert.match(result.data, /<MontoTotal>540\.00<\/MontoTotal>/);
    assert.match(
      result.data,
      /<Estado>2<\/Estado><DetalleMotivoRechazo>Precio &amp; cantidad &lt;no&gt; "coinciden"<\/DetalleMotivoRechazo><FechaHoraAprobacionComercial>/,
    );
  });

  test('requires the reason of a rejection and refuses one on an acceptance or beyond 250 characters', () => {
    const codes = (input: TAcecfInput): string[] => {
      const result = buildAcecfXml(input);
      return result.success ? [] : result.issues.map((issue) => `${issue.code}@${issue.path}`);
    };
    assert.deepEqual(codes({ ...ACCEPTED, estado: 'rejected' }), [
      'REJECTION_REASON_REQUIRED@rejectionReason',
    ]);
    assert.deepEqual(codes({ ...ACCEPTED, estado: 'rejected', rejectionReason: '  ' }), [
      'REJECTION_REASON_REQUIRED@rejectionReason',
    ]);
    assert.deepEqual(codes({ ...ACCEPTED, rejectionReason: 'x' }), [
      'REJECTION_REASON_NOT_APPLICABLE@rejectionReason',
    ]);
    assert.deepEqual(codes({ ...ACCEPTED, estado: 'rejected', rejectionReason: 'x'.repeat(251) }), [
      'REJECTION_REASON_TOO_LONG@rejectionReason',
    ]);
    assert.deepEqual(codes({ ...ACCEPTED, estado: 'rejected', rejectionReason: 'x'.repeat(250) }), []);
    assert.deepEqual(codes({ ...ACCEPTED, estado: 'rejected', rejectionReason: 'bell \u0007' }), [
      'XML_CHARACTER_INVALID@rejectionReason',
    ]);
  });

  test('collects every field problem', () => {
    const result = buildAcecfXml({
      ...ACCEPTED,
      rncEmisor: '12345',
      encf: 'P310000000001',
      fechaEmision: '31-02-2026',
      montoTotal: '1,000.00',
      rncComprador: '1318807380',
      approvedAt: '16-11-2026 24:00:00',
    });
    assert.ok(!result.success);
    assert.deepEqual(
      result.issues.map((issue) => `${issue.code}@${issue.path}`),
      [
        'RNC_INVALID@rncEmisor',
        'ENCF_INVALID@encf',
        'DATE_INVALID@fechaEmision',
        'AMOUNT_INVALID@montoTotal',
        'RNC_INVALID@rncComprador',
        'DATE_TIME_INVALID@approvedAt',
      ],
    );
  });
});
