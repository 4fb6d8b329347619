import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';
import { buildSampleEcf31 } from '../xsd/sample-ecf-31.ts';
import { loadCertificate } from './certificate.ts';
import { signForeignXml } from './sign-foreign-xml.ts';
import { signXml } from './sign-xml.ts';
import { createTestCertificate } from './test-certificate.ts';
import { verifyXmlSignature } from './verify-xml-signature.ts';
import type { TSignatureFailureReason } from './verify-xml-signature.ts';

const loaded = loadCertificate({
  p12: readFileSync(new URL('../../test/golden/test-certificate.p12', import.meta.url)),
  password: 'ecf-golden-2036',
});
if (!loaded.success) throw new Error('golden certificate did not load');
const certificate = loaded.data;
const document = buildSampleEcf31({ lines: 3 });
const signed = signXml(document, certificate);

function assertRejected(xml: string, reason: TSignatureFailureReason): void {
  const verification = verifyXmlSignature(xml);
  assert.equal(verification.valid, false, `expected ${reason}`);
  if (!verification.valid) assert.equal(verification.reason, reason, verification.message);
}

/** Signs with xml-crypto directly, with whatever algorithms a test wants. */
function signWithXmlCrypto(
  xml: string,
  options: {
    signatureAlgorithm?: string;
    canonicalizationAlgorithm?: string;
    transforms?: string[];
    digestAlgorithm?: string;
    extraReference?: boolean;
    uri?: string;
  },
): string {
  const signer = new SignedXml({
    privateKey: certificate.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    signatureAlgorithm: options.signatureAlgorithm ?? 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm:
      options.canonicalizationAlgorithm ?? 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
    getKeyInfoContent: () =>
      `<X509Data><X509Certificate>${certificate.certificateDerBase64}</X509Certificate></X509Data>`,
  });
  signer.addReference({
    xpath: '/*',
    transforms: options.transforms ?? ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
    digestAlgorithm: options.digestAlgorithm ?? 'http://www.w3.org/2001/04/xmlenc#sha256',
    uri: options.uri ?? '',
    isEmptyUri: (options.uri ?? '') === '',
  });
  if (options.extraReference === true) {
    signer.addReference({
      xpath: '/*',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      uri: '',
      isEmptyUri: true,
    });
  }
  signer.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
  return signer.getSignedXml();
}

describe('verifyXmlSignature', () => {
  test('accepts our signature and returns the signer certificate fields', () => {
    const verification = verifyXmlSignature(signed.xml);
    assert.ok(verification.valid);
    assert.equal(verification.signatureValue, signed.signatureValue);
    assert.equal(verification.digestValue, signed.digestValue);
    assert.equal(verification.certificate.serialNumber, 'IDCDO-131880738');
    assert.equal(verification.certificate.holderId, '131880738');
    assert.equal(verification.certificate.subject.commonName, 'CERTIFICADO DE PRUEBA ECF');
    assert.equal(verification.certificate.validTo.getUTCFullYear(), 2036);
  });

  test('accepts a signature made by xml-crypto with the recipe (also with an explicit C14N transform)', () => {
    assert.ok(verifyXmlSignature(signWithXmlCrypto(document, {})).valid);
    const explicit = signWithXmlCrypto(document, {
      transforms: [
        'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
        'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
      ],
    });
    assert.ok(verifyXmlSignature(explicit).valid);
  });

  test('accepts an xml-crypto signature over a document that contains whitespace text', () => {
    const spaced = signWithXmlCrypto(document.replace('<Encabezado>', '<Encabezado>\n  '), {});
    assert.ok(verifyXmlSignature(spaced).valid);
  });

  test('U+0085, U+2028 and U+2029 are characters, not line ends: a name holding them verifies, a signed LF turned into one does not', () => {
    // xmldom's default line-end handling (XML 1.1's) read these as LF; XML 1.0, and xmlsec1, do not.
    const named = signXml(
      document.replace('Cliente &amp; Asociados', 'Cliente\u0085&amp;\u2028Asociados\u2029'),
      certificate,
    );
    assert.ok(verifyXmlSignature(named.xml).valid);
    const withLineFeed = signXml(
      document.replace('Cliente &amp; Asociados', 'Cliente\nAsociados'),
      certificate,
    ).xml;
    assert.ok(verifyXmlSignature(withLineFeed).valid);
    for (const character of ['\u0085', '\u2028', '\u2029'])
      assertRejected(
        withLineFeed.replace('Cliente\nAsociados', `Cliente${character}Asociados`),
        'SIGNATURE_DIGEST_MISMATCH',
      );
  });

  test('a text node turned into a processing instruction with the same data is a change', () => {
    assertRejected(
      signed.xml.replace('<MontoTotal>354.00</MontoTotal>', '<MontoTotal><?x 354.00?></MontoTotal>'),
      'SIGNATURE_DIGEST_MISMATCH',
    );
  });

  test('with a CA chain in KeyInfo, the leaf is the signer whatever the order', () => {
    const caKeys = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
    const ca = forge.pki.createCertificate();
    ca.publicKey = caKeys.publicKey;
    ca.serialNumber = '01';
    ca.validity.notBefore = new Date('2025-01-01T00:00:00Z');
    ca.validity.notAfter = new Date('2035-01-01T00:00:00Z');
    ca.setSubject([{ shortName: 'CN', value: 'CA de prueba' }]);
    ca.setIssuer([{ shortName: 'CN', value: 'CA de prueba' }]);
    ca.setExtensions([{ name: 'basicConstraints', cA: true }]);
    ca.sign(caKeys.privateKey, forge.md.sha256.create());
    const leafKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const leafCertificate = forge.pki.createCertificate();
    leafCertificate.publicKey = forge.pki.publicKeyFromPem(
      leafKeys.publicKey.export({ type: 'spki', format: 'pem' }) as string,
    );
    leafCertificate.serialNumber = '02';
    leafCertificate.validity.notBefore = new Date('2025-01-01T00:00:00Z');
    leafCertificate.validity.notAfter = new Date('2035-01-01T00:00:00Z');
    leafCertificate.setSubject([
      { name: 'serialNumber', value: 'IDCDO-40212345678' },
      { shortName: 'CN', value: 'Firmante' },
    ]);
    leafCertificate.setIssuer(ca.subject.attributes);
    leafCertificate.sign(caKeys.privateKey, forge.md.sha256.create());
    const leafLoaded = loadCertificate({
      privateKeyPem: leafKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      certificatePem: forge.pki.certificateToPem(leafCertificate),
    });
    assert.ok(leafLoaded.success);
    const caBase64 = forge.util.encode64(forge.asn1.toDer(forge.pki.certificateToAsn1(ca)).getBytes());
    const signedByLeaf = signXml(document, leafLoaded.data).xml;
    const leafElement = `<X509Certificate>${leafLoaded.data.certificateDerBase64}</X509Certificate>`;
    for (const chain of [
      `${leafElement}<X509Certificate>${caBase64}</X509Certificate>`,
      `<X509Certificate>${caBase64}</X509Certificate>${leafElement}`,
    ]) {
      const verification = verifyXmlSignature(signedByLeaf.replace(leafElement, chain));
      assert.ok(verification.valid, JSON.stringify(verification));
      assert.equal(verification.certificate.holderId, '40212345678');
      assert.equal(verification.certificate.issuer.commonName, 'CA de prueba');
    }
  });

  test('rejects one changed character in the content', () => {
    assertRejected(
      signed.xml.replace('<MontoTotal>354.00</MontoTotal>', '<MontoTotal>354.01</MontoTotal>'),
      'SIGNATURE_DIGEST_MISMATCH',
    );
    assertRejected(
      signed.xml.replace('<RNCComprador>101672919', '<RNCComprador>101672918'),
      'SIGNATURE_DIGEST_MISMATCH',
    );
  });

  test('rejects a tampered SignatureValue', () => {
    const value = signed.signatureValue;
    const flipped = (value[10] === 'A' ? 'B' : 'A') + value.slice(11);
    assertRejected(signed.xml.replace(value, value.slice(0, 10) + flipped), 'SIGNATURE_VALUE_INVALID');
  });

  test('rejects a tampered SignedInfo (DigestValue changed together with the content)', () => {
    const tamperedDocument = document.replace('<MontoTotal>354.00', '<MontoTotal>999.00');
    const resigned = signXml(tamperedDocument, certificate);
    const forged = signed.xml
      .replace(document.slice(0, -6), tamperedDocument.slice(0, -6))
      .replace(signed.digestValue, resigned.digestValue);
    assertRejected(forged, 'SIGNATURE_VALUE_INVALID');
  });

  test('rejects a valid signature whose KeyInfo certificate was swapped for another one', () => {
    const other = createTestCertificate({ rnc: '131880738', commonName: 'Impostor' });
    const otherLoaded = loadCertificate({ p12: other.p12, password: other.password });
    assert.ok(otherLoaded.success);
    assertRejected(
      signed.xml.replace(certificate.certificateDerBase64, otherLoaded.data.certificateDerBase64),
      'SIGNATURE_VALUE_INVALID',
    );
  });

  test('rejects a missing signature and a signature outside the XMLDSig namespace', () => {
    assertRejected(document, 'SIGNATURE_MISSING');
    assertRejected(
      signed.xml.replace('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">', '<Signature>'),
      'SIGNATURE_MISSING',
    );
  });

  test('rejects other algorithms', () => {
    assertRejected(
      signWithXmlCrypto(document, { signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' }),
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
    );
    assertRejected(
      signWithXmlCrypto(document, {
        signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
      }),
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
    );
    assertRejected(
      signWithXmlCrypto(document, { canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' }),
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
    );
    assertRejected(
      signWithXmlCrypto(document, { digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1' }),
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
    );
    assertRejected(
      signWithXmlCrypto(document, {
        transforms: [
          'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
          'http://www.w3.org/2001/10/xml-exc-c14n#',
        ],
      }),
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
    );
    // Typo'd URIs copied from the official PDF example.
    assertRejected(
      signed.xml.replace('REC-xml-c14n-20010315', 'RECxml-c14n-20010315'),
      'SIGNATURE_ALGORITHM_UNSUPPORTED',
    );
  });

  test('rejects more references and a reference that is not the whole document', () => {
    assertRejected(signWithXmlCrypto(document, { extraReference: true }), 'SIGNATURE_REFERENCE_INVALID');
    assertRejected(
      signed.xml.replace('<Reference URI="">', '<Reference URI="#Encabezado">'),
      'SIGNATURE_REFERENCE_INVALID',
    );
    assertRejected(signed.xml.replace('<Reference URI="">', '<Reference>'), 'SIGNATURE_REFERENCE_INVALID');
  });

  test('rejects a DOCTYPE without expanding anything', () => {
    const withEntity = signed.xml.replace('<ECF>', '<!DOCTYPE ECF [<!ENTITY x "354.00">]><ECF>');
    assertRejected(withEntity, 'XML_DOCTYPE_FORBIDDEN');
    assertRejected(
      `<?xml version="1.0"?>\n<!DOCTYPE ECF SYSTEM "file:///etc/passwd">${signed.xml}`,
      'XML_DOCTYPE_FORBIDDEN',
    );
  });

  test('a comment that mentions <!DOCTYPE is not a DOCTYPE: verifies (issue 25)', () => {
    const verified = verifyXmlSignature(`<!-- <!DOCTYPE ECF [<!ENTITY x "1">]> -->${signed.xml}`);
    assert.ok(verified.valid, JSON.stringify(verified));
    assertRejected(`<!-- a comment --><!DOCTYPE ECF>${signed.xml}`, 'XML_DOCTYPE_FORBIDDEN');
  });

  test('rejects multiple signatures and a signature that is not a child of the root', () => {
    const signature = signed.xml.slice(signed.xml.indexOf('<Signature '), -'</ECF>'.length);
    assertRejected(signed.xml.replace('</ECF>', `${signature}</ECF>`), 'SIGNATURE_MULTIPLE');
    const nested = document.replace('</Encabezado>', `${signature}</Encabezado>`);
    assertRejected(nested, 'SIGNATURE_MISPLACED');
  });

  test('rejects malformed XML and a signature without its parts', () => {
    assertRejected(signed.xml.slice(0, -3), 'XML_MALFORMED');
    assertRejected(signed.xml.replace(/<KeyInfo>.*<\/KeyInfo>/, ''), 'SIGNATURE_CERTIFICATE_MISSING');
    assertRejected(
      signed.xml.replace(/<SignatureValue>.*<\/SignatureValue>/, ''),
      'SIGNATURE_STRUCTURE_INVALID',
    );
    assertRejected(
      signed.xml.replace(certificate.certificateDerBase64, 'AAAA'),
      'SIGNATURE_CERTIFICATE_INVALID',
    );
  });

  test('a leading UTF-8 BOM is not part of the document: a correct signature verifies, a tampered one does not', () => {
    const withBom = `\uFEFF${signed.xml}`;
    const verification = verifyXmlSignature(withBom);
    assert.equal(verification.valid, true, verification.valid ? '' : verification.message);
    // The same bytes as a supplier sends them (BOM, XML declaration), decoded without dropping the BOM.
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\r\n${signed.xml}`, 'utf8'),
    ]);
    assert.equal(verifyXmlSignature(bytes.toString('utf8')).valid, true);
    assertRejected(withBom.replace('<MontoTotal>', '<MontoTotal>1'), 'SIGNATURE_DIGEST_MISMATCH');
    // Only one BOM is dropped: a second is text before the root, which XML does not allow.
    assertRejected(`\uFEFF${withBom}`, 'XML_MALFORMED');
    assertRejected(`\uFEFF<!DOCTYPE ECF [<!ENTITY x "1">]>${signed.xml}`, 'XML_DOCTYPE_FORBIDDEN');
  });

  test('another CA, xmlns:xsi on the root and a declaration: verifies with the signer recorded', () => {
    const stranger = createTestCertificate({ rnc: '40212345678', commonName: 'Firmante de otra CA' });
    const strangerCertificate = loadCertificate({
      privateKeyPem: stranger.privateKeyPem,
      certificatePem: stranger.certificatePem,
    });
    if (!strangerCertificate.success) throw new Error('test certificate');
    const foreign = document.replace(
      '<ECF>',
      '<ECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">',
    );
    const signedForeign = signForeignXml(foreign, strangerCertificate.data);
    if (!signedForeign.success) throw new Error('foreign signing failed');
    const sent = `\uFEFF<?xml version="1.0" encoding="utf-8"?>${signedForeign.data.xml}`;
    const verification = verifyXmlSignature(sent);
    assert.equal(verification.valid, true, verification.valid ? '' : verification.message);
    if (verification.valid) assert.equal(verification.certificate.holderId, '40212345678');
  });
});
