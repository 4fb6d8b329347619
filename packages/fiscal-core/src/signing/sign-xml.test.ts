import assert from 'node:assert/strict';
import { createHash, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { escapeAttribute, escapeText } from '../xml/canonical.ts';
import { buildSampleEcf31 } from '../xsd/sample-ecf-31.ts';
import { loadCertificate } from './certificate.ts';
import { signForeignXml } from './sign-foreign-xml.ts';
import { signXml } from './sign-xml.ts';
import { verifyXmlSignature } from './verify-xml-signature.ts';

const loaded = loadCertificate({
  p12: readFileSync(new URL('../../test/golden/test-certificate.p12', import.meta.url)),
  password: 'ecf-golden-2036',
});
if (!loaded.success) throw new Error('golden certificate did not load');
const certificate = loaded.data;

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const SIGNED_INFO_BODY = (digest: string): string =>
  '<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"></CanonicalizationMethod>' +
  '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"></SignatureMethod>' +
  '<Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"></Transform></Transforms>' +
  `<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"></DigestMethod><DigestValue>${digest}</DigestValue></Reference></SignedInfo>`;

function isXmlCharacter(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code !== 0xfffe && code !== 0xffff && !(code >= 0xd800 && code <= 0xdfff))
  );
}

describe('signXml', () => {
  const xml = buildSampleEcf31({ lines: 10 });

  test('appends the recipe signature as the last child of the root, exactly', () => {
    const signed = signXml(xml, certificate);
    const digest = createHash('sha256').update(xml).digest('base64');
    assert.equal(signed.digestValue, digest);
    const expectedSignature =
      `<Signature xmlns="${DSIG}"><SignedInfo>${SIGNED_INFO_BODY(digest)}<SignatureValue>${signed.signatureValue}</SignatureValue>` +
      `<KeyInfo><X509Data><X509Certificate>${certificate.certificateDerBase64}</X509Certificate></X509Data></KeyInfo></Signature>`;
    assert.equal(signed.xml, `${xml.slice(0, -'</ECF>'.length)}${expectedSignature}</ECF>`);
    assert.ok(signed.xml.includes('</FechaHoraFirma><Signature '), 'the signature follows FechaHoraFirma');
  });

  test('SignatureValue is RSA-SHA256 over SignedInfo canonicalized with the inherited xmldsig default namespace', () => {
    const signed = signXml(xml, certificate);
    const canonicalSignedInfo = `<SignedInfo xmlns="${DSIG}">${SIGNED_INFO_BODY(signed.digestValue)}`;
    assert.ok(
      verify(
        'sha256',
        Buffer.from(canonicalSignedInfo),
        certificate.privateKey,
        Buffer.from(signed.signatureValue, 'base64'),
      ),
    );
    const withoutNamespace = `<SignedInfo>${SIGNED_INFO_BODY(signed.digestValue)}`;
    assert.ok(
      !verify(
        'sha256',
        Buffer.from(withoutNamespace),
        certificate.privateKey,
        Buffer.from(signed.signatureValue, 'base64'),
      ),
    );
  });

  test('is deterministic (golden files stay byte-identical) and verifies with xml-crypto', () => {
    const first = signXml(xml, certificate);
    assert.equal(signXml(xml, certificate).xml, first.xml);
    const verification = verifyXmlSignature(first.xml);
    assert.ok(verification.valid, JSON.stringify(verification));
    assert.equal(verification.signatureValue, first.signatureValue);
    assert.equal(verification.certificate.holderId, '131880738');
  });

  test('produces the same digest and SignatureValue as xml-crypto signing the same document', () => {
    const ours = signXml(xml, certificate);
    const theirs = signForeignXml(xml, certificate);
    assert.ok(theirs.success);
    assert.equal(ours.digestValue, theirs.data.digestValue);
    assert.equal(ours.signatureValue, theirs.data.signatureValue);
  });

  test('root namespace declarations are carried into the canonical SignedInfo (ARECF with xsd/xsi)', () => {
    const arecf =
      '<ARECF xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><DetalleAcusedeRecibo><Version>1.0</Version>' +
      '<RNCEmisor>131880738</RNCEmisor><RNCComprador>101672919</RNCComprador><eNCF>E310000000001</eNCF><Estado>0</Estado>' +
      '<FechaHoraAcuseRecibo>01-04-2026 10:20:00</FechaHoraAcuseRecibo></DetalleAcusedeRecibo></ARECF>';
    const signed = signXml(arecf, certificate);
    assert.ok(verifyXmlSignature(signed.xml).valid);
    const theirs = signForeignXml(arecf, certificate);
    assert.ok(theirs.success);
    assert.equal(signed.signatureValue, theirs.data.signatureValue);
  });

  test('a literal > in a root attribute value does not hide the xml:* attributes after it', () => {
    const signed = signXml('<ACECF a="x>y" xml:lang="es"><A>1</A></ACECF>', certificate);
    const canonicalSignedInfo = `<SignedInfo xmlns="${DSIG}" xml:lang="es">${SIGNED_INFO_BODY(signed.digestValue)}`;
    assert.ok(
      verify(
        'sha256',
        Buffer.from(canonicalSignedInfo),
        certificate.privateKey,
        Buffer.from(signed.signatureValue, 'base64'),
      ),
    );
  });

  test('a BOM and an XML declaration are removed; the output starts at the root', () => {
    const plain = signXml(xml, certificate);
    const withProlog = signXml(`\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n${xml}`, certificate);
    assert.equal(withProlog.xml, plain.xml);
    assert.throws(() => signXml(`<?xml version="1.0" encoding="ISO-8859-1"?>${xml}`, certificate), /UTF-8/);
  });

  test('input that is not canonical or already signed is a programmer error', () => {
    assert.throws(() => signXml('<!DOCTYPE ECF><ECF></ECF>', certificate), TypeError);
    assert.throws(() => signXml('<ECF><!-- note --><A>1</A></ECF>', certificate), TypeError);
    assert.throws(() => signXml('<ECF><A>1</A></ECF>\n', certificate), TypeError);
    assert.throws(() => signXml('  <ECF></ECF>', certificate), TypeError);
    assert.throws(() => signXml('<ECF><A>1\r</A></ECF>', certificate), TypeError);
    assert.throws(() => signXml(signXml(xml, certificate).xml, certificate), /already contains a signature/);
    assert.throws(
      () =>
        signXml(
          '<ARECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"></ARECF>',
          certificate,
        ),
      /canonical/,
    );
    assert.throws(() => signXml('<ECF b="1" a="2"></ECF>', certificate), /canonical/);
    assert.throws(() => signXml('<ECF><A>Art&#xED;culo</A></ECF>', certificate), /reference/);
    assert.throws(() => signXml('<ECF><A>&apos;</A></ECF>', certificate), /reference/);
  });

  test('any escaped text and attribute content signs and verifies (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ maxLength: 20 }),
        (text, attribute) => {
          // XML 1.0 cannot carry most control characters at all; the writer never receives them.
          fc.pre([...(text + attribute)].every(isXmlCharacter));
          const document = `<ECF a="${escapeAttribute(attribute)}"><NombreItem>${escapeText(text)}</NombreItem></ECF>`;
          const verification = verifyXmlSignature(signXml(document, certificate).xml);
          assert.ok(verification.valid, JSON.stringify(verification));
        },
      ),
      { numRuns: 60 },
    );
  });
});
