/**
 * What we send to the tax authority's annulment service: an ANECF built by `buildAnecfXml` and signed
 * with `signXml` (the signer the worker uses with the tenant's certificate) must pass `xmlsec1 --verify`
 * (an independent XMLDSig implementation) and the official ANECF XSD (the repository's byte-identical
 * copy), from the smallest document to the largest the format allows. A machine without xmlsec1 fails
 * this test on purpose rather than skipping it (CI installs the Debian package xmlsec1).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildAnecfXml, type TAnnulmentRange } from '../src/documents/anecf-document.ts';
import { loadCertificate, signXml, verifyXmlSignature } from '../src/signing/index.ts';
import type { TSigningCertificate } from '../src/signing/index.ts';
import { XML_ISSUE_CODES } from '../src/xml/xml-issues.ts';
import type { TXsdValidators } from '../src/xsd/index.ts';
import { loadReferenceXsdValidators } from './reference-xsd.ts';

const XMLSEC = process.env['XMLSEC1'] ?? 'xmlsec1';
const TYPES = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'] as const;

let directory: string;
let certificate: TSigningCertificate;
let validators: TXsdValidators;

function xmlsecVerify(xml: string): { ok: boolean; output: string } {
  const documentPath = join(directory, `anecf-${Math.random().toString(36).slice(2)}.xml`);
  const trustedPath = join(directory, 'trusted.pem');
  writeFileSync(documentPath, xml);
  writeFileSync(trustedPath, certificate.certificatePem);
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
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  if (run.error !== undefined)
    throw new Error(`xmlsec1 could not be run (${run.error.message}); install the Debian package xmlsec1`);
  const output = `${run.stdout}${run.stderr}`;
  return {
    ok: run.status === 0 && /^OK$/m.test(output) && /SignedInfo References \(ok\/all\): 1\/1/.test(output),
    output,
  };
}

function encf(type: string, sequence: number): string {
  return `E${type}${String(sequence).padStart(10, '0')}`;
}

function signedAnecf(ranges: TAnnulmentRange[]): string {
  const built = buildAnecfXml({ rncEmisor: '131880738', annulledAt: '20-11-2026 17:45:00', ranges });
  if (!built.success) throw new Error(JSON.stringify(built.issues));
  return signXml(built.data, certificate).xml;
}

function assertSendable(xml: string): void {
  const verified = xmlsecVerify(xml);
  assert.ok(verified.ok, verified.output);
  assert.ok(verifyXmlSignature(xml).valid);
  const structure = validators.validateXml(xml, 'ANECF');
  assert.ok(structure.success, JSON.stringify(structure.success ? [] : structure.issues.slice(0, 3)));
}

/** The counts of a built ANECF: the header's and each line's (`NoLinea`, count). */
function countsOf(xml: string): { header: number; lines: Array<[number, number]> } {
  const header = Number(/<Encabezado>[\s\S]*?<CantidadeNCFAnulados>(\d+)</.exec(xml)?.[1]);
  const lines = [
    ...xml.matchAll(/<Anulacion>[\s\S]*?<NoLinea>(\d+)<[\s\S]*?<CantidadeNCFAnulados>(\d+)</g),
  ].map((match): [number, number] => [Number(match[1]), Number(match[2])]);
  return { header, lines };
}

describe('the signed ANECF we send', () => {
  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'ecf-anecf-'));
    const loaded = loadCertificate({
      p12: readFileSync(new URL('./golden/test-certificate.p12', import.meta.url)),
      password: 'ecf-golden-2036',
    });
    if (!loaded.success) throw new Error('golden certificate did not load');
    certificate = loaded.data;
    validators = loadReferenceXsdValidators();
  });
  after(() => {
    validators?.dispose();
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  });

  test('one eNCF: verifies with xmlsec1, passes the official XSD; an edited range or count does not verify', () => {
    const xml = signedAnecf([{ type: '31', from: 'E310000000001', to: 'E310000000001' }]);
    assertSendable(xml);
    assert.deepEqual(countsOf(xml), { header: 1, lines: [[1, 1]] });
    for (const edited of [
      xml.replace('<SecuenciaeNCFHasta>E310000000001', '<SecuenciaeNCFHasta>E310000000009'),
      xml.replaceAll('<CantidadeNCFAnulados>1<', '<CantidadeNCFAnulados>2<'),
      xml.replace('<RncEmisor>131880738<', '<RncEmisor>101672919<'),
    ]) {
      const result = xmlsecVerify(edited);
      assert.ok(!result.ok, result.output);
      assert.equal(verifyXmlSignature(edited).valid, false);
    }
  });

  test('ten types in one document, several ranges each: NoLinea 1..10, counts summed, sendable', () => {
    const ranges = TYPES.flatMap((type, index) => [
      { type, from: encf(type, 1000 * (index + 1)), to: encf(type, 1000 * (index + 1) + index) },
      { type, from: encf(type, 50_000), to: encf(type, 59_999) },
    ]);
    const xml = signedAnecf(ranges);
    assertSendable(xml);
    const counts = countsOf(xml);
    assert.deepEqual(
      counts.lines,
      TYPES.map((_type, index): [number, number] => [index + 1, index + 1 + 10_000]),
    );
    assert.equal(
      counts.header,
      counts.lines.reduce((sum, [, count]) => sum + count, 0),
    );
  });

  test('the largest the format allows (10,000 ranges of one type) is sendable; one more range is refused', () => {
    const ranges = Array.from({ length: 10_000 }, (_unused, index) => ({
      type: '32',
      from: encf('32', index * 3 + 1),
      to: encf('32', index * 3 + 2),
    }));
    const xml = signedAnecf(ranges);
    assertSendable(xml);
    assert.deepEqual(countsOf(xml), { header: 20_000, lines: [[1, 20_000]] });

    const built = buildAnecfXml({
      rncEmisor: '131880738',
      annulledAt: '20-11-2026 17:45:00',
      ranges: [...ranges, { type: '32', from: encf('32', 90_000), to: encf('32', 90_000) }],
    });
    assert.equal(built.success, false);
    assert.deepEqual(built.success ? [] : built.issues.map((issue) => issue.code), [
      XML_ISSUE_CODES.ANNULMENT_TOO_MANY_RANGES,
    ]);
  });
});
