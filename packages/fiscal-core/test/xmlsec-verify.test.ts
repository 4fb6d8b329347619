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
import {
  createTestCertificate,
  loadCertificate,
  signForeignXml,
  signXml,
  verifyXmlSignature,
} from '../src/signing/index.ts';
import type { TSigningCertificate } from '../src/signing/index.ts';
import { buildSampleEcf31 } from '../src/xsd/sample-ecf-31.ts';

const XMLSEC = process.env['XMLSEC1'] ?? 'xmlsec1';

let directory: string;
let certificate: TSigningCertificate;

function xmlsecVerify(xml: string, trustedCertificatePem: string): { ok: boolean; output: string } {
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
  };
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
