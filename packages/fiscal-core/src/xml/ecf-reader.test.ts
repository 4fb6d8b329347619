import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signEcfDocument } from '../issuance/sign-ecf.ts';
import { createTestCertificate, loadCertificate } from '../signing/index.ts';
import type { TSigningCertificate } from '../signing/index.ts';
import { SIMPLIFIED_EXAMPLES, TEST_NOW, example, validate } from '../../test/validation-support.ts';
import type { TEcfDocument, TEcfTree } from '../model/ecf-tree.ts';
import { readEcfXml } from './ecf-reader.ts';
import { buildEcfXml } from './ecf-writer.ts';

let certificate: TSigningCertificate;

before(() => {
  const generated = createTestCertificate({ rnc: '131880738', commonName: 'Reader Test' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(JSON.stringify(loaded.issues));
  certificate = loaded.data;
});

async function signedExample(
  type: string,
): Promise<{ document: TEcfDocument; xml: string; signedAt: string }> {
  const result = await validate(example(type));
  if (!result.success) throw new Error(JSON.stringify(result.errors));
  const signed = signEcfDocument(result.data.document, certificate, TEST_NOW);
  if (!signed.success) throw new Error(JSON.stringify(signed.issues));
  return { document: result.data.document, xml: signed.data.xml, signedAt: signed.data.signedAt };
}

function unsigned(document: TEcfDocument): string {
  const built = buildEcfXml(document);
  if (!built.success) throw new Error(JSON.stringify(built.issues));
  return built.data;
}

describe('readEcfXml', () => {
  for (const type of Object.keys(SIMPLIFIED_EXAMPLES)) {
    test(`E${type}: the signed XML reads back into a tree that writes the same unsigned XML`, async () => {
      const { document, xml, signedAt } = await signedExample(type);
      const read = readEcfXml(xml);
      assert.ok(read !== undefined);
      assert.equal(read.ECF['Signature'], undefined);
      assert.equal(read.ECF['FechaHoraFirma'], signedAt);
      assert.equal(unsigned(read), xml.slice(0, xml.indexOf('<Signature')) + '</ECF>');
      assert.equal(unsigned(read), unsigned({ ECF: { ...document.ECF, FechaHoraFirma: signedAt } }));
    });
  }

  test('repeated elements are arrays even with one occurrence', async () => {
    const { xml } = await signedExample('34');
    const read = readEcfXml(xml);
    assert.ok(read !== undefined);
    const items = (read.ECF['DetallesItems'] as TEcfTree)['Item'];
    assert.ok(Array.isArray(items));
    assert.equal(items.length, 1);
    const phones = ((read.ECF['Encabezado'] as TEcfTree)['Emisor'] as TEcfTree)[
      'TablaTelefonoEmisor'
    ] as TEcfTree;
    assert.deepEqual(phones['TelefonoEmisor'], ['809-555-0101', '809-555-0102']);
  });

  test('keeps decimal text and escaped characters exactly', () => {
    const read = readEcfXml(
      '<ECF><Encabezado><Totales><MontoTotal>0010.50</MontoTotal></Totales><Emisor><RazonSocialEmisor>A &amp; B &lt;C&gt;</RazonSocialEmisor></Emisor></Encabezado></ECF>',
    );
    assert.ok(read !== undefined);
    const header = read.ECF['Encabezado'] as TEcfTree;
    assert.equal((header['Totales'] as TEcfTree)['MontoTotal'], '0010.50');
    assert.equal((header['Emisor'] as TEcfTree)['RazonSocialEmisor'], 'A & B <C>');
  });

  test('rejects DOCTYPE, malformed XML, other roots, duplicates and mixed content', () => {
    assert.equal(
      readEcfXml('<!DOCTYPE ECF [<!ENTITY x "y">]><ECF><FechaHoraFirma>&x;</FechaHoraFirma></ECF>'),
      undefined,
    );
    assert.equal(readEcfXml('<ECF><Encabezado></ECF>'), undefined);
    assert.equal(readEcfXml('<RFCE><Encabezado/></RFCE>'), undefined);
    assert.equal(
      readEcfXml('<ECF><FechaHoraFirma>1</FechaHoraFirma><FechaHoraFirma>2</FechaHoraFirma></ECF>'),
      undefined,
    );
    assert.equal(readEcfXml('<ECF>text<Encabezado>x</Encabezado></ECF>'), undefined);
    assert.equal(readEcfXml('<ECF><Encabezado a="1">x</Encabezado></ECF>'), undefined);
    assert.equal(readEcfXml(''), undefined);
  });
});
