/**
 * The whole issuance path on the documented examples: every simplified-contract example and its
 * tax-authority JSON form are validated, signed with `signEcfDocument`, checked against the official
 * XSD of their type and verified. Both formats of one document must give the same bytes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeSecurityCode } from '../src/derived/qr-url.ts';
import { buildRfceXml } from '../src/documents/rfce-document.ts';
import { signEcfDocument, timbreUrlOf } from '../src/issuance/sign-ecf.ts';
import { signXml, verifyXmlSignature } from '../src/signing/index.ts';
import { ANONYMOUS_CONSUMER_NAME } from '../src/validation/validate-submission.ts';
import { SIMPLIFIED_EXAMPLES, TEST_NOW, example, taxauthExample, validate } from './validation-support.ts';
import type { TXsdDocumentKind, TXsdValidators } from '../src/xsd/index.ts';
import { loadReferenceXsdValidators } from './reference-xsd.ts';
import { loadGoldenCertificate } from './golden/golden-documents.ts';
import type { TSigningCertificate } from '../src/signing/index.ts';
import type { TEcfDocument } from '../src/model/ecf-tree.ts';

let validators: TXsdValidators;
let certificate: TSigningCertificate;

before(() => {
  validators = loadReferenceXsdValidators();
  certificate = loadGoldenCertificate();
});

after(() => validators.dispose());

async function validDocument(body: unknown): Promise<TEcfDocument> {
  const result = await validate(body);
  if (!result.success) throw new Error(JSON.stringify(result.errors));
  return result.data.document;
}

function signed(document: TEcfDocument): string {
  const result = signEcfDocument(document, certificate, TEST_NOW);
  if (!result.success) throw new Error(JSON.stringify(result.issues));
  return result.data.xml;
}

function assertNoEmptyElement(xml: string): void {
  const empty = /<([A-Za-z][\w.-]*)><\/\1>/.exec(xml);
  assert.equal(empty, null, `empty element <${empty?.[1]}>`);
}

describe('issuance pipeline on every documented example', () => {
  for (const type of Object.keys(SIMPLIFIED_EXAMPLES)) {
    test(`E${type}: validated, signed, XSD-valid, verified, same bytes from both formats`, async () => {
      const xml = signed(await validDocument(example(type)));
      const schema = validators.validateXml(xml, `ECF${type}` as TXsdDocumentKind);
      assert.ok(schema.success, JSON.stringify(!schema.success && schema.issues));
      assert.equal(verifyXmlSignature(xml).valid, true);
      assertNoEmptyElement(xml.slice(0, xml.indexOf('<Signature')));
      assert.ok(
        xml.includes('<FechaHoraFirma>21-11-2026 11:00:00</FechaHoraFirma>'),
        'signature time is now in Dominican time',
      );

      const fromTaxauthJson = signed(await validDocument(await taxauthExample(type)));
      assert.equal(fromTaxauthJson, xml);
    });
  }
});

describe('anonymous consumer invoice (E32 without buyer)', () => {
  test('names the buyer CONSUMIDOR FINAL, passes the XSD and summarises into a valid RFCE', async () => {
    const body = example('32');
    assert.equal((body as { buyer?: unknown }).buyer, undefined);
    const document = await validDocument(body);
    const result = signEcfDocument(document, certificate, TEST_NOW);
    assert.ok(result.success);
    const xml = result.data.xml;
    assert.ok(
      xml.includes(
        `<Comprador><RazonSocialComprador>${ANONYMOUS_CONSUMER_NAME}</RazonSocialComprador></Comprador>`,
      ),
    );
    assert.ok(validators.validateXml(xml, 'ECF32').success);

    const rfce = buildRfceXml(document, { securityCode: result.data.securityCode });
    assert.ok(rfce.success, JSON.stringify(!rfce.success && rfce.issues));
    const rfceSigned = signXml(rfce.data, certificate).xml;
    const rfceSchema = validators.validateXml(rfceSigned, 'RFCE');
    assert.ok(rfceSchema.success, JSON.stringify(!rfceSchema.success && rfceSchema.issues));
    assertNoEmptyElement(rfce.data);

    const url = timbreUrlOf(document, result.data, 'TesteCF');
    assert.match(
      url,
      /^https:\/\/fc\.dgii\.gov\.do\/testecf\/ConsultaTimbreFC\?RncEmisor=131880738&ENCF=E320000000201&MontoTotal=/,
    );
    assert.ok(url.endsWith(`&CodigoSeguridad=${encodeSecurityCode(result.data.securityCode)}`), url);
  });

  test('keeps the buyer the client sent', async () => {
    const body = example('32') as Record<string, unknown>;
    body['buyer'] = { name: 'María Pérez' };
    const xml = signed(await validDocument(body));
    assert.ok(
      xml.includes('<Comprador><RazonSocialComprador>María Pérez</RazonSocialComprador></Comprador>'),
    );
  });

  test('a signature date the client sent is kept', async () => {
    const body = example('31') as Record<string, unknown>;
    body['signatureDate'] = '2026-11-21T10:55:00-04:00';
    const result = signEcfDocument(await validDocument(body), certificate, TEST_NOW);
    assert.ok(result.success);
    assert.equal(result.data.signedAt, '21-11-2026 10:55:00');
    assert.equal(result.data.securityCode, result.data.signatureValue.slice(0, 6));
  });
});
