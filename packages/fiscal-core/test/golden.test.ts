/**
 * Golden documents: every e-CF type, the RFCE, ACECF, ARECF and ANECF are rebuilt from fixed fixtures,
 * signed with the committed test certificate and compared byte for byte with `test/golden/*.xml`; each
 * one is validated against its official XSD (the repository's copy in `config/xsd`)
 * and its signature is verified independently. Regenerate after an intended change with
 * `node --import tsx scripts/generate-goldens.ts` and review the diff.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ECF_TYPES } from '../src/model/ecf-tree.ts';
import type { TEcfTree, TEcfValue } from '../src/model/ecf-tree.ts';
import { verifyXmlSignature } from '../src/signing/index.ts';
import { buildEcfXml } from '../src/xml/ecf-writer.ts';
import type { TXsdValidators } from '../src/xsd/index.ts';
import { loadReferenceXsdValidators } from './reference-xsd.ts';
import { buildGoldenDocuments, loadGoldenCertificate } from './golden/golden-documents.ts';
import type { TGoldenDocument } from './golden/golden-documents.ts';
import { ECF_FIXTURES } from './golden/fixtures.ts';

let validators: TXsdValidators;
let goldens: TGoldenDocument[];

before(() => {
  validators = loadReferenceXsdValidators();
  goldens = buildGoldenDocuments(loadGoldenCertificate());
});

after(() => validators.dispose());

function readGolden(file: string): Buffer {
  return readFileSync(new URL(`./golden/${file}`, import.meta.url));
}

describe('golden documents', () => {
  test('cover every e-CF type and the RFCE, ACECF, ARECF and ANECF', () => {
    assert.deepEqual(
      goldens.map((golden) => golden.file),
      [...ECF_TYPES.map((type) => `e-cf-${type}.xml`), 'rfce-32.xml', 'acecf.xml', 'arecf.xml', 'anecf.xml'],
    );
  });

  test('are rebuilt byte for byte', () => {
    for (const golden of goldens) {
      const stored = readGolden(golden.file);
      assert.ok(
        stored.equals(Buffer.from(golden.signedXml, 'utf8')),
        `${golden.file} differs from its rebuild`,
      );
    }
  });

  test('validate against their official XSD, signed and (as a preflight) unsigned', () => {
    for (const golden of goldens) {
      const signed = validators.validateXml(readGolden(golden.file), golden.kind);
      assert.ok(signed.success, `${golden.file}: ${JSON.stringify(signed.success ? [] : signed.issues)}`);
      const unsigned = validators.validateXml(golden.unsignedXml, golden.kind, { unsigned: true });
      assert.ok(
        unsigned.success,
        `${golden.file} unsigned: ${JSON.stringify(unsigned.success ? [] : unsigned.issues)}`,
      );
    }
  });

  test('carry a valid signature by the test certificate, appended as the last child of the root', () => {
    for (const golden of goldens) {
      const xml = readGolden(golden.file).toString('utf8');
      const verification = verifyXmlSignature(xml);
      assert.ok(verification.valid, `${golden.file}: ${verification.valid ? '' : verification.message}`);
      assert.equal(verification.certificate.holderId, '131880738');
      assert.equal(
        xml.slice(0, xml.indexOf('<Signature ')),
        golden.unsignedXml.slice(0, golden.unsignedXml.lastIndexOf('</')),
      );
    }
  });

  test('verify with xmlsec1 (its own C14N: proves the writer output is canonical as emitted)', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ecf-golden-'));
    try {
      const trusted = join(directory, 'trusted.pem');
      writeFileSync(trusted, loadGoldenCertificate().certificatePem);
      for (const golden of goldens) {
        const documentPath = join(directory, golden.file);
        writeFileSync(documentPath, readGolden(golden.file));
        // Fixed verification time: the test certificate is valid 2026-01-01..2036-12-31.
        const run = spawnSync(
          process.env['XMLSEC1'] ?? 'xmlsec1',
          [
            '--verify',
            '--trusted-pem',
            trusted,
            '--verification-gmt-time',
            '2027-06-01 12:00:00',
            documentPath,
          ],
          { encoding: 'utf8' },
        );
        assert.equal(run.error, undefined, 'xmlsec1 is required (Debian package xmlsec1)');
        const output = `${run.stdout}${run.stderr}`;
        assert.ok(run.status === 0 && /^OK$/m.test(output), `${golden.file}: ${output}`);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  test('are canonical: no declaration, no BOM, no whitespace between elements, no empty elements', () => {
    for (const golden of goldens) {
      const xml = readGolden(golden.file).toString('utf8');
      assert.match(xml, /^<(ECF|RFCE|ACECF|ARECF|ANECF)>/, golden.file);
      assert.doesNotMatch(xml, />\s+</, golden.file);
      assert.doesNotMatch(xml, /<([A-Za-z]+)><\/\1>/, golden.file);
      assert.doesNotMatch(xml, /\r/, golden.file);
    }
  });

  test('e-CF: FechaHoraFirma right before the signature, never Paginacion, no sequence expiry in 32/34', () => {
    for (const type of ECF_TYPES) {
      const xml = readGolden(`e-cf-${type}.xml`).toString('utf8');
      assert.match(
        xml,
        /<\/FechaHoraFirma><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">/,
        type,
      );
      assert.doesNotMatch(xml, /Paginacion/, type);
      assert.equal(xml.includes('<FechaVencimientoSecuencia>'), type !== '32' && type !== '34', type);
    }
  });

  test('type-specific content: references and IndicadorNotaCredito, withholding, no buyer, foreign buyers', () => {
    const xmlOf = (type: string): string => readGolden(`e-cf-${type}.xml`).toString('utf8');
    for (const type of ['33', '34'])
      assert.match(xmlOf(type), /<InformacionReferencia><NCFModificado>E310000000001<\/NCFModificado>/);
    assert.match(xmlOf('34'), /<eNCF>E340000000001<\/eNCF><IndicadorNotaCredito>0<\/IndicadorNotaCredito>/);
    assert.match(
      xmlOf('41'),
      /<Retencion><IndicadorAgenteRetencionoPercepcion>1<\/IndicadorAgenteRetencionoPercepcion><MontoITBISRetenido>/,
    );
    assert.doesNotMatch(xmlOf('43'), /Comprador/);
    for (const type of ['46', '47']) assert.match(xmlOf(type), /<Comprador><IdentificadorExtranjero>/);
    assert.match(
      xmlOf('31'),
      /<RazonSocialComprador>Distribuidora "El Sol" &amp; Hijos &lt;Norte&gt;, S\.R\.L\.<\/RazonSocialComprador>/,
    );
  });

  test('the RFCE carries the security code of the signed E32', () => {
    const e32 = readGolden('e-cf-32.xml').toString('utf8');
    const signatureValue = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(e32)?.[1];
    assert.ok(signatureValue);
    assert.ok(
      readGolden('rfce-32.xml')
        .toString('utf8')
        .includes(`<CodigoSeguridadeCF>${signatureValue.slice(0, 6)}</CodigoSeguridadeCF>`),
    );
  });
});

/** The same tree with members (and array-free member lists) recursively in a random order. */
function shuffled(tree: TEcfTree, random: () => number): TEcfTree {
  const entries = Object.entries(tree).map(([name, value]): [string, TEcfValue | undefined] => [
    name,
    shuffleValue(value, random),
  ]);
  for (let index = entries.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [entries[index], entries[other]] = [
      entries[other] as [string, TEcfValue | undefined],
      entries[index] as [string, TEcfValue | undefined],
    ];
  }
  return Object.fromEntries(entries);
}

function shuffleValue(value: TEcfValue | undefined, random: () => number): TEcfValue | undefined {
  if (value === undefined || typeof value === 'string') return value;
  // Occurrences of a repeated element keep their order: that order is data (line numbers, phones).
  if (Array.isArray(value))
    return value.map((entry: string | TEcfTree) =>
      typeof entry === 'string' ? entry : shuffled(entry, random),
    );
  return shuffled(value as TEcfTree, random);
}

describe('element order', () => {
  test('comes from the XSD whatever the member order of the input tree', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ECF_TYPES), fc.integer(), (type, seed) => {
        let state = seed >>> 0 || 1;
        const random = (): number => {
          // xorshift32: deterministic per seed, so a failure is reproducible from fast-check's report.
          state ^= state << 13;
          state ^= state >>> 17;
          state ^= state << 5;
          return (state >>> 0) / 2 ** 32;
        };
        const fixture = ECF_FIXTURES[type];
        const expected = buildEcfXml(fixture);
        const actual = buildEcfXml({ ECF: shuffled(fixture.ECF, random) });
        assert.ok(expected.success && actual.success);
        assert.equal(actual.data, expected.data);
      }),
      { numRuns: 200 },
    );
  });
});
