import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildArecfXml } from './arecf-document.ts';
import type { TArecfInput, TNotReceivedReason } from './arecf-document.ts';

const RECEIVED: TArecfInput = {
  rncEmisor: '101234567',
  rncComprador: '00112345678',
  encf: 'E310000000125',
  estado: 'received',
  acknowledgedAt: '10-11-2026 08:00:05',
};

describe('buildArecfXml', () => {
  test('writes a receipt in XSD order', () => {
    const result = buildArecfXml(RECEIVED);
    assert.ok(result.success);
    assert.equal(
      result.data,
      '<ARECF><DetalleAcusedeRecibo><Version>1.0</Version><RNCEmisor>101234567</RNCEmisor><RNCComprador>00112345678</RNCComprador>' +
        '<eNCF>E310000000125</eNCF><Estado>0</Estado><FechaHoraAcuseRecibo>10-11-2026 08:00:05</FechaHoraAcuseRecibo>' +
        '</DetalleAcusedeRecibo></ARECF>',
    );
  });

  test('writes "not received" with its reason code', () => {
    const expected: Record<TNotReceivedReason, string> = {
      specification_error: '1',
      signature_error: '2',
      duplicate: '3',
      buyer_rnc_mismatch: '4',
    };
    for (const [reason, code] of Object.entries(expected) as Array<[TNotReceivedReason, string]>) {
      const result = buildArecfXml({ ...RECEIVED, estado: 'not_received', notReceivedReason: reason });
      assert.ok(result.success);
      assert.match(
        result.data,
        new RegExp(
          `<Estado>1</Estado><CodigoMotivoNoRecibido>${code}</CodigoMotivoNoRecibido><FechaHoraAcuseRecibo>`,
        ),
      );
    }
  });

  test('ties the reason to the state and checks the fields', () => {
    const codes = (input: TArecfInput): string[] => {
      const result = buildArecfXml(input);
      return result.success ? [] : result.issues.map((issue) => `${issue.code}@${issue.path}`);
    };
    assert.deepEqual(codes({ ...RECEIVED, estado: 'not_received' }), [
      'NOT_RECEIVED_REASON_REQUIRED@notReceivedReason',
    ]);
    assert.deepEqual(codes({ ...RECEIVED, notReceivedReason: 'duplicate' }), [
      'NOT_RECEIVED_REASON_NOT_APPLICABLE@notReceivedReason',
    ]);
    assert.deepEqual(
      codes({ ...RECEIVED, estado: 'not_received', notReceivedReason: 'lost' as TNotReceivedReason }),
      ['NOT_RECEIVED_REASON_INVALID@notReceivedReason'],
    );
    assert.deepEqual(codes({ ...RECEIVED, encf: 'E300000000001', acknowledgedAt: '2026-11-10T08:00:05Z' }), [
      'ENCF_INVALID@encf',
      'DATE_TIME_INVALID@acknowledgedAt',
    ]);
  });
});
