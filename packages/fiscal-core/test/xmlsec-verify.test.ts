/**
 * Independent verification: the signatures our signers produce must verify with xmlsec1
 * (libxmlsec1 + OpenSSL, its own C14N), and tampered copies must not. CI installs the Debian
 * package `xmlsec1`; a machine without it fails this test on purpose rather than skipping it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { escapeText } from '../src/xml/canonical.ts';
import {
  createTestCertificate,
  loadCertificate,
  signForeignXml,
  signXml,
  verifyXmlSignature,
} from '../src/signing/index.ts';
import type { TSignatureFailureReason, TSigningCertificate } from '../src/signing/index.ts';
import { buildSampleEcf31 } from '../src/xsd/sample-ecf-31.ts';

const XMLSEC = process.env['XMLSEC1'] ?? 'xmlsec1';

let directory: string;
let certificate: TSigningCertificate;

function xmlsecVerify(
  xml: string,
  trustedCertificatePem: string,
): { ok: boolean; output: string; parsed: boolean } {
  const documentPath = join(directory, `document-${Math.random().toString(36).slice(2)}.xml`);
  const trustedPath = join(directory, `trusted-${Math.random().toString(36).slice(2)}.pem`);
  writeFileSync(documentPath, xml);
  writeFileSync(trustedPath, trustedCertificatePem);
  // The test certificate is self-signed, so it is its own trust anchor: xmlsec1 takes the key from
  // KeyInfo/X509Certificate and checks that certificate against --trusted-pem. A fixed verification time
  // keeps the test independent of the machine clock (the certificate is valid 2026-01-01..2036-12-31).
  const run = spawnSync(
    XMLSEC,
    [
      '--verify',
      '--trusted-pem',
      trustedPath,
      '--verification-gmt-time',
      '2027-06-01 12:00:00',
      documentPath,
    ],
    { encoding: 'utf8' },
  );
  if (run.error !== undefined)
    throw new Error(`xmlsec1 could not be run (${run.error.message}); install the Debian package xmlsec1`);
  const output = `${run.stdout}${run.stderr}`;
  return {
    ok: run.status === 0 && /^OK$/m.test(output) && /SignedInfo References \(ok\/all\): 1\/1/.test(output),
    output,
    parsed: !/parser error/.test(output),
  };
}

const TEMPLATE_SIGNATURE =
  '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo>' +
  '<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>' +
  '<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>' +
  '<Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms>' +
  '<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><DigestValue/></Reference></SignedInfo>' +
  '<SignatureValue/><KeyInfo><X509Data><X509Certificate/></X509Data></KeyInfo></Signature>';

/**
 * Signs with xmlsec1 itself (the tax authority's recipe as a template appended to the root), so the
 * documents of the table below are not only ones our own signer can write: raw line breaks, attributes,
 * CDATA, processing instructions, namespaces. xmlsec1 writes the document back through libxml2.
 */
function xmlsecSign(document: string): string {
  const close = document.lastIndexOf('</');
  const templatePath = join(directory, `template-${Math.random().toString(36).slice(2)}.xml`);
  const outputPath = `${templatePath}.signed`;
  const keyPath = join(directory, 'signer-key.pem');
  const certificatePath = join(directory, 'signer-certificate.pem');
  writeFileSync(keyPath, certificate.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(certificatePath, certificate.certificatePem);
  writeFileSync(
    templatePath,
    `<?xml version="1.0" encoding="UTF-8"?>\n${document.slice(0, close)}${TEMPLATE_SIGNATURE}${document.slice(close)}`,
  );
  const run = spawnSync(
    XMLSEC,
    ['--sign', '--privkey-pem', `${keyPath},${certificatePath}`, '--output', outputPath, templatePath],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`xmlsec1 could not sign: ${run.stderr}`);
  return readFileSync(outputPath, 'utf8');
}

describe('xmlsec1 verifies our signatures', () => {
  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'ecf-xmlsec-'));
    const loaded = loadCertificate({
      p12: readFileSync(new URL('./golden/test-certificate.p12', import.meta.url)),
      password: 'ecf-golden-2036',
    });
    if (!loaded.success) throw new Error('golden certificate did not load');
    certificate = loaded.data;
  });
  after(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  test('xmlsec1 is installed (CI installs the Debian package xmlsec1; this never skips)', () => {
    const probe = spawnSync(XMLSEC, ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) {
      assert.fail(
        `xmlsec1 is required and was not found or does not run (${probe.error?.message ?? probe.stderr}). Install it: apt-get install xmlsec1`,
      );
    }
    assert.match(probe.stdout, /xmlsec1 \d/);
  });

  test('a 10-line e-CF 31 signed with signXml verifies; one changed character does not', () => {
    const signed = signXml(buildSampleEcf31({ lines: 10 }), certificate).xml;
    const good = xmlsecVerify(signed, certificate.certificatePem);
    assert.ok(good.ok, good.output);
    const tampered = xmlsecVerify(
      signed.replace('<MontoTotal>1180.00<', '<MontoTotal>1180.01<'),
      certificate.certificatePem,
    );
    assert.ok(!tampered.ok, tampered.output);
    assert.match(tampered.output, /data and digest do not match|FAIL/);
  });

  test('a tampered SignatureValue fails', () => {
    const signed = signXml(buildSampleEcf31({ lines: 2 }), certificate);
    const value = signed.signatureValue;
    const broken = signed.xml.replace(value, (value.startsWith('A') ? 'B' : 'A') + value.slice(1));
    assert.ok(!xmlsecVerify(broken, certificate.certificatePem).ok);
  });

  test('a certificate that is not trusted fails (xmlsec1 really checks the embedded certificate)', () => {
    const signed = signXml(buildSampleEcf31({ lines: 2 }), certificate).xml;
    const stranger = createTestCertificate({ rnc: '101672919', commonName: 'Otra' });
    assert.ok(!xmlsecVerify(signed, stranger.certificatePem).ok);
  });

  test('root namespace declarations and inherited xml:* attributes are canonicalized into SignedInfo as C14N 1.0 requires', () => {
    const arecf =
      '<ARECF xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><DetalleAcusedeRecibo><Version>1.0</Version>' +
      '<RNCEmisor>131880738</RNCEmisor><RNCComprador>101672919</RNCComprador><eNCF>E310000000001</eNCF><Estado>0</Estado>' +
      '<FechaHoraAcuseRecibo>01-04-2026 10:20:00</FechaHoraAcuseRecibo></DetalleAcusedeRecibo></ARECF>';
    const result = xmlsecVerify(signXml(arecf, certificate).xml, certificate.certificatePem);
    assert.ok(result.ok, result.output);
    const withLang = xmlsecVerify(
      signXml('<ACECF xml:lang="es"><A>1 &amp; 2 &lt; 3</A></ACECF>', certificate).xml,
      certificate.certificatePem,
    );
    assert.ok(withLang.ok, withLang.output);
  });

  test('the seed signed with signForeignXml verifies; an edited one does not', () => {
    const seed =
      '<?xml version="1.0" encoding="utf-8"?>\n<SemillaModel xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n' +
      '  <valor>r7mUL5eQqSEpnEN1Eh7cNxRvQ2oz8Q2h1rT1eZJ/4yGq0DjqCrp+w==</valor>\n  <fecha>2026-04-01T10:15:00.1234567-04:00</fecha>\n</SemillaModel>';
    const signed = signForeignXml(seed, certificate);
    assert.ok(signed.success);
    const result = xmlsecVerify(signed.data.xml, certificate.certificatePem);
    assert.ok(result.ok, result.output);
    assert.ok(
      !xmlsecVerify(signed.data.xml.replace('2026-04-01T10', '2026-04-02T10'), certificate.certificatePem).ok,
    );
  });

  test('every signed golden document in test/golden verifies with xmlsec1 and with verifyXmlSignature', () => {
    const goldenDirectory = new URL('./golden/', import.meta.url);
    const files = readdirSync(goldenDirectory).filter((name) => name.endsWith('.xml'));
    assert.ok(files.length > 0, 'test/golden holds the signed golden documents');
    for (const name of files) {
      const xml = readFileSync(new URL(name, goldenDirectory), 'utf8');
      const result = xmlsecVerify(xml, certificate.certificatePem);
      assert.ok(result.ok, `${name}: ${result.output}`);
      assert.ok(verifyXmlSignature(xml).valid, name);
    }
  });
});

/**
 * verifyXmlSignature judges other issuers' documents (and the simulator judges ours with it), so its
 * verdict must be xmlsec1's. Each case is a document and the verdict both must reach: `true`, or our
 * reason for refusing it (xmlsec1 refuses it too, as a parse error when the reason is XML_MALFORMED).
 */
describe('verifyXmlSignature agrees with xmlsec1', () => {
  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'ecf-xmlsec-agree-'));
    const loaded = loadCertificate({
      p12: readFileSync(new URL('./golden/test-certificate.p12', import.meta.url)),
      password: 'ecf-golden-2036',
    });
    if (!loaded.success) throw new Error('golden certificate did not load');
    certificate = loaded.data;
  });
  after(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  type TCase = { name: string; xml: () => string; verdict: true | TSignatureFailureReason };
  const ours = (text: string) => signXml(`<ECF><Nombre>${escapeText(text)}</Nombre></ECF>`, certificate).xml;
  const theirs = (body: string) => xmlsecSign(`<ECF>${body}</ECF>`);
  const base = () => theirs('<A b="x y">l1\nl2</A><B>t</B>');
  const EDGE_CHARACTERS: Array<[string, string]> = [
    ['U+0085', 'a\u0085b'],
    ['U+2028', 'a\u2028b'],
    ['U+2029', 'a\u2029b'],
    ['CR', 'a\rb'],
    ['CR LF', 'a\r\nb'],
    ['CR U+0085', 'a\r\u0085b'],
    ['TAB', 'a\tb'],
    ['U+0086 (C1)', 'a\u0086b'],
    ['U+00A0, U+FEFF', 'a\u00A0\uFEFFb'],
    ['outside the BMP', 'a\u{1F600}\u{10FFFD}b'],
  ];
  const cases: TCase[] = [
    ...EDGE_CHARACTERS.flatMap(([label, text]): TCase[] => [
      { name: `signXml, text with ${label}`, xml: () => ours(text), verdict: true },
      { name: `xmlsec1, text with ${label}`, xml: () => theirs(`<A>${escapeText(text)}</A>`), verdict: true },
      {
        name: `xmlsec1, attribute with ${label}`,
        xml: () => theirs(`<A b="${text.replace(/\r/g, '&#xD;').replace(/\t/g, '&#x9;')}">1</A>`),
        verdict: true,
      },
    ]),
    {
      name: 'signXml, signed LF turned into U+0085',
      xml: () => ours('a\nb').replace('a\nb', 'a\u0085b'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'signed LF turned into U+0085',
      xml: () => base().replace('l1\nl2', 'l1\u0085l2'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'signed LF turned into U+2028',
      xml: () => base().replace('l1\nl2', 'l1\u2028l2'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'signed LF sent as CR LF (the same document once parsed)',
      xml: () => base().replace('l1\nl2', 'l1\r\nl2'),
      verdict: true,
    },
    { name: 'signed LF sent as CR', xml: () => base().replace('l1\nl2', 'l1\rl2'), verdict: true },
    {
      name: 'signed LF sent as &#xD;',
      xml: () => base().replace('l1\nl2', 'l1&#xD;l2'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'attribute space sent as a raw TAB (normalized to a space)',
      xml: () => base().replace('b="x y"', 'b="x\ty"'),
      verdict: true,
    },
    {
      name: 'attribute space sent as a raw CR LF',
      xml: () => base().replace('b="x y"', 'b="x\r\ny"'),
      verdict: true,
    },
    {
      name: 'attribute space sent as a raw LF',
      xml: () => base().replace('b="x y"', 'b="x\ny"'),
      verdict: true,
    },
    {
      name: 'attribute space sent as &#9;',
      xml: () => base().replace('b="x y"', 'b="x&#9;y"'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'U+2028 between attributes is not whitespace',
      xml: () => theirs('<A b="1" c="2">1</A>').replace('b="1" c', 'b="1"\u2028c'),
      verdict: 'XML_MALFORMED',
    },
    {
      name: 'text turned into a processing instruction with the same data',
      xml: () => base().replace('<B>t</B>', '<B><?t t?></B>'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'processing instruction added before the root',
      xml: () => base().replace('<ECF>', '<?x y?><ECF>'),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'processing instruction added after the root',
      xml: () => `${base()}<?x y?>`,
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    {
      name: 'comment added inside (comments are not signed)',
      xml: () => base().replace('<B>t</B>', '<B>t<!--c--></B>'),
      verdict: true,
    },
    {
      name: 'text sent as CDATA',
      xml: () => base().replace('<B>t</B>', '<B><![CDATA[t]]></B>'),
      verdict: true,
    },
    {
      name: 'xmlsec1, processing instructions inside, before and after the root',
      xml: () => xmlsecSign('<?p d?><!--c--><ECF><A>1<?q   r  s ?></A><B><?e?></B></ECF><?z?>'),
      verdict: true,
    },
    {
      name: 'xmlsec1, CDATA with U+0085 and <',
      xml: () => theirs('<A><![CDATA[1\u0085<2]]></A>'),
      verdict: true,
    },
    {
      name: 'xmlsec1, namespace prefixes ordered by code point (B before a)',
      xml: () => xmlsecSign('<ECF xmlns:a="urn:a" xmlns:B="urn:b"><A>1</A></ECF>'),
      verdict: true,
    },
    {
      name: 'xmlsec1, attributes ordered by namespace URI, then local name',
      xml: () => xmlsecSign('<ECF xmlns:p="http://x/a" xmlns:q="http://x/"><A p:z="1" q:az="2">1</A></ECF>'),
      verdict: true,
    },
    {
      name: 'xmlsec1, xml:* attributes of the root inherited by SignedInfo',
      xml: () => xmlsecSign('<ECF xml:space="preserve" xml:lang="es"><A xml:lang="en">1</A></ECF>'),
      verdict: true,
    },
    {
      name: 'xmlsec1, default namespaces declared and undeclared',
      xml: () =>
        xmlsecSign(
          '<ECF xmlns="urn:a"><A xmlns=""><B xmlns="urn:b" xmlns:p="urn:p"><p:C p:d="1"/></B></A></ECF>',
        ),
      verdict: true,
    },
    {
      name: 'xmlsec1, an attribute whose name starts with xmlns',
      xml: () => theirs('<A xmlnsx="1">1</A>'),
      verdict: true,
    },
    {
      name: 'an attribute whose name starts with xmlns removed',
      xml: () => theirs('<A xmlnsx="1">1</A>').replace(' xmlnsx="1"', ''),
      verdict: 'SIGNATURE_DIGEST_MISMATCH',
    },
    { name: 'xmlsec1, indented document', xml: () => theirs('\n  <A>1</A>\n  <B> 2 </B>\n'), verdict: true },
    {
      name: 'signForeignXml over a text with U+0085 and U+2028 (returned as line feeds, as signed)',
      xml: () => {
        const signed = signForeignXml('<Semilla><valor>a\u0085b\u2028c</valor></Semilla>', certificate);
        assert.ok(signed.success);
        assert.ok(signed.data.xml.includes('<valor>a\nb\nc</valor>'));
        return signed.data.xml;
      },
      verdict: true,
    },
    { name: 'U+0001 is not an XML character', xml: () => ours('a\u0001b'), verdict: 'XML_MALFORMED' },
    {
      name: 'nor is it as a character reference',
      xml: () => ours('a\u0001b').replace('\u0001', '&#1;'),
      verdict: 'XML_MALFORMED',
    },
    {
      name: 'nor U+FFFE',
      xml: () => ours('a\uFFFEb').replace('\uFFFE', '&#xFFFE;'),
      verdict: 'XML_MALFORMED',
    },
    {
      name: 'an XML declaration inside the root',
      xml: () => base().replace('<B>', '<?xml version="1.0"?><B>'),
      verdict: 'XML_MALFORMED',
    },
    {
      name: 'a character in SignatureValue that is not base64',
      xml: () => ours('a').replace(/<SignatureValue>(.)/, '<SignatureValue>$1!'),
      verdict: 'SIGNATURE_VALUE_INVALID',
    },
    {
      name: 'a line break inside SignatureValue',
      xml: () => ours('a').replace(/<SignatureValue>(.{8})/, '<SignatureValue>$1\n'),
      verdict: true,
    },
    {
      name: 'U+2028 inside SignatureValue',
      xml: () => ours('a').replace(/<SignatureValue>(.{8})/, '<SignatureValue>$1\u2028'),
      verdict: 'SIGNATURE_VALUE_INVALID',
    },
  ];

  for (const entry of cases) {
    test(entry.name, () => {
      const xml = entry.xml();
      const verification = verifyXmlSignature(xml);
      const ourVerdict = verification.valid ? true : verification.reason;
      const theirVerdict = xmlsecVerify(xml, certificate.certificatePem);
      assert.equal(ourVerdict, entry.verdict, verification.valid ? '' : verification.message);
      assert.equal(theirVerdict.ok, entry.verdict === true, theirVerdict.output);
      assert.equal(theirVerdict.parsed, entry.verdict !== 'XML_MALFORMED', theirVerdict.output);
    });
  }
});
