import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildConsumerTimbreUrl,
  buildEcfTimbreUrl,
  buildTimbreUrl,
  encodeSecurityCode,
  isConsumerInvoiceBelowThreshold,
} from './qr-url.ts';
import { securityCodeFromSignatureValue } from './security-code.ts';

describe('securityCodeFromSignatureValue', () => {
  test('is the first six characters of the base64 SignatureValue, case and symbols kept', () => {
    assert.equal(
      securityCodeFromSignatureValue('a4oEjlvX8MOQQ+1sRbkpBie2xci9jnIBtrolp7pf9c6+iX7A=='),
      'a4oEjl',
    );
    assert.equal(securityCodeFromSignatureValue('Ab+/9zQQQQ'), 'Ab+/9z');
    assert.equal(
      securityCodeFromSignatureValue('\n  Ab+/\n9zQQ'),
      'Ab+/9z',
      'line-wrapped values from other signers',
    );
  });

  test('a value that is not base64 of at least six characters is a programmer error', () => {
    assert.throws(() => securityCodeFromSignatureValue('abc'), TypeError);
    assert.throws(() => securityCodeFromSignatureValue('ab$cdefg'), TypeError);
  });
});

describe('timbre URLs', () => {
  test("reproduces DGII's e-CF example (names are case-insensitive, DGII writes them in lower case)", () => {
    const url = buildEcfTimbreUrl({
      environment: 'TesteCF',
      rncEmisor: '130000001',
      rncComprador: '130000002',
      eNcf: 'E310000000001',
      fechaEmision: '10-10-2020',
      montoTotal: '02.11',
      fechaFirma: '10-10-2020 09:00:00',
      codigoSeguridad: 'dcp79q',
    });
    assert.equal(
      url,
      'https://ecf.dgii.gov.do/testecf/ConsultaTimbre?RncEmisor=130000001&RncComprador=130000002&ENCF=E310000000001&FechaEmision=10-10-2020&MontoTotal=02.11&FechaFirma=10-10-2020%2009:00:00&CodigoSeguridad=dcp79q',
    );
    assert.equal(
      url.toLowerCase(),
      'https://ecf.dgii.gov.do/testecf/consultatimbre?rncemisor=130000001&rnccomprador=130000002&encf=e310000000001&fechaemision=10-10-2020&montototal=02.11&fechafirma=10-10-2020%2009:00:00&codigoseguridad=dcp79q',
    );
  });

  test("reproduces DGII's consumer-invoice example", () => {
    const url = buildConsumerTimbreUrl({
      environment: 'TesteCF',
      rncEmisor: '131880738',
      eNcf: 'E320000000064',
      montoTotal: '6225.09',
      codigoSeguridad: 'uabnyh',
    });
    assert.equal(
      url,
      'https://fc.dgii.gov.do/testecf/ConsultaTimbreFC?RncEmisor=131880738&ENCF=E320000000064&MontoTotal=6225.09&CodigoSeguridad=uabnyh',
    );
    assert.equal(
      url.toLowerCase(),
      'https://fc.dgii.gov.do/testecf/consultatimbrefc?rncemisor=131880738&encf=e320000000064&montototal=6225.09&codigoseguridad=uabnyh',
    );
  });

  test('environment path segments', () => {
    const base = {
      rncEmisor: '131880738',
      rncComprador: '101672919',
      eNcf: 'E310000000001',
      fechaEmision: '01-04-2026',
      montoTotal: '118',
      fechaFirma: '01-04-2026 10:15:00',
      codigoSeguridad: 'AbCdEf',
    };
    assert.ok(
      buildEcfTimbreUrl({ ...base, environment: 'TesteCF' }).startsWith(
        'https://ecf.dgii.gov.do/testecf/ConsultaTimbre?',
      ),
    );
    assert.ok(
      buildEcfTimbreUrl({ ...base, environment: 'CerteCF' }).startsWith(
        'https://ecf.dgii.gov.do/certecf/ConsultaTimbre?',
      ),
    );
    assert.ok(
      buildEcfTimbreUrl({ ...base, environment: 'eCF' }).startsWith(
        'https://ecf.dgii.gov.do/ecf/ConsultaTimbre?',
      ),
    );
    assert.ok(
      buildConsumerTimbreUrl({ ...base, eNcf: 'E320000000001', environment: 'eCF' }).startsWith(
        'https://fc.dgii.gov.do/ecf/ConsultaTimbreFC?',
      ),
    );
  });

  test('percent-encodes reserved characters of the security code', () => {
    assert.equal(encodeSecurityCode('a+b/c='), 'a%2Bb%2Fc%3D');
    assert.equal(encodeSecurityCode('x y-z.'), 'x%20y%2Dz%2E');
    const url = buildConsumerTimbreUrl({
      environment: 'eCF',
      rncEmisor: '131880738',
      eNcf: 'E320000000002',
      montoTotal: '100',
      codigoSeguridad: '+/=AbC',
    });
    assert.ok(url.endsWith('&CodigoSeguridad=%2B%2F%3DAbC'));
    assert.equal(new URL(url).searchParams.get('CodigoSeguridad'), '+/=AbC', 'decodes back to the code');
  });

  test('types 43 and 47 leave out RncComprador', () => {
    for (const eNcf of ['E430000000001', 'E470000000001']) {
      const url = buildEcfTimbreUrl({
        environment: 'eCF',
        rncEmisor: '131880738',
        rncComprador: '101672919',
        eNcf,
        fechaEmision: '01-04-2026',
        montoTotal: '500.00',
        fechaFirma: '01-04-2026 10:15:00',
        codigoSeguridad: 'AbCdEf',
      });
      assert.ok(!url.includes('RncComprador'), eNcf);
      assert.ok(url.includes('RncEmisor=131880738&ENCF='));
    }
    const url41 = buildEcfTimbreUrl({
      environment: 'eCF',
      rncEmisor: '131880738',
      rncComprador: '101672919',
      eNcf: 'E410000000001',
      fechaEmision: '01-04-2026',
      montoTotal: '500.00',
      fechaFirma: '01-04-2026 10:15:00',
      codigoSeguridad: 'AbCdEf',
    });
    assert.ok(url41.includes('&RncComprador=101672919&'));
  });

  test('buildTimbreUrl uses the FC form only for type 32 below RD$250,000', () => {
    const base = {
      environment: 'eCF' as const,
      rncEmisor: '131880738',
      fechaEmision: '01-04-2026',
      fechaFirma: '01-04-2026 10:15:00',
      codigoSeguridad: 'AbCdEf',
    };
    assert.ok(
      buildTimbreUrl({ ...base, eNcf: 'E320000000001', montoTotal: '249999.99' }).includes(
        '/ConsultaTimbreFC?',
      ),
    );
    assert.ok(
      buildTimbreUrl({
        ...base,
        eNcf: 'E320000000001',
        montoTotal: '250000.00',
        rncComprador: '101672919',
      }).includes('/ConsultaTimbre?RncEmisor=131880738&RncComprador=101672919'),
    );
    assert.ok(
      buildTimbreUrl({
        ...base,
        eNcf: 'E310000000001',
        montoTotal: '100.00',
        rncComprador: '101672919',
      }).includes('/ConsultaTimbre?'),
    );
    assert.equal(isConsumerInvoiceBelowThreshold('E320000000001', '250000'), false);
    assert.throws(() => isConsumerInvoiceBelowThreshold('E320000000001', 'abc'), TypeError);
  });
});
