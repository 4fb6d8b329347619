import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadCertificate } from './certificate.ts';
import { signForeignXml } from './sign-foreign-xml.ts';
import { verifyXmlSignature } from './verify-xml-signature.ts';

const loaded = loadCertificate({
  p12: readFileSync(new URL('../../test/golden/test-certificate.p12', import.meta.url)),
  password: 'ecf-golden-2036',
});
if (!loaded.success) throw new Error('golden certificate did not load');
const certificate = loaded.data;

// The tax authority's seed, as its service returns it (declaration, indentation, xsi before xsd).
const SEED =
  '<?xml version="1.0" encoding="utf-8"?>\r\n<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\r\n' +
  '  <valor>r7mUL5eQqSEpnEN1Eh7cNxRvQ2oz8Q2h1rT1eZJ/4yGq0DjqCrp+w==</valor>\r\n  <fecha>2026-04-01T10:15:00.1234567-04:00</fecha>\r\n</SemillaModel>';

describe('signForeignXml', () => {
  test('signs the seed compactly with the recipe and the result verifies', () => {
    const result = signForeignXml(SEED, certificate);
    assert.ok(result.success);
    const { xml } = result.data;
    assert.ok(xml.startsWith('<SemillaModel '), 'declaration dropped');
    assert.ok(!/>\s+</.test(xml), 'no whitespace-only text left');
    assert.ok(xml.includes('<valor>r7mUL5eQqSEpnEN1Eh7cNxRvQ2oz8Q2h1rT1eZJ/4yGq0DjqCrp+w==</valor>'));
    assert.ok(xml.endsWith('</Signature></SemillaModel>'), 'signature is the last child of the root');
    assert.equal(xml.match(/<Transform /g)?.length, 1, 'exactly one Transform');
    assert.ok(xml.includes('<Reference URI="">'));
    assert.ok(
      xml.includes('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">'),
      'default namespace, no ds: prefix',
    );
    const verification = verifyXmlSignature(xml);
    assert.ok(verification.valid, JSON.stringify(verification));
    assert.equal(verification.signatureValue, result.data.signatureValue);
  });

  test('the signature survives re-indentation being undone but not a changed seed value', () => {
    const result = signForeignXml(SEED, certificate);
    assert.ok(result.success);
    const tampered = result.data.xml.replace('<valor>r7mUL5', '<valor>r7mUL6');
    const verification = verifyXmlSignature(tampered);
    assert.ok(!verification.valid);
    assert.equal(verification.reason, 'SIGNATURE_DIGEST_MISMATCH');
  });

  test('rejects a DOCTYPE and malformed XML as data', () => {
    const doctype = signForeignXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', certificate);
    assert.ok(!doctype.success);
    assert.equal(doctype.issues[0]?.code, 'XML_DOCTYPE_FORBIDDEN');
    const malformed = signForeignXml('<a><b></a>', certificate);
    assert.ok(!malformed.success);
    assert.equal(malformed.issues[0]?.code, 'XML_MALFORMED');
  });
});
