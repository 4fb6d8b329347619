/**
 * Builds and signs every golden document from the fixed fixtures. Shared by the golden test (which
 * compares with the committed files) and `scripts/generate-goldens.ts` (which rewrites them).
 */
import { readFileSync } from 'node:fs';
import { buildAcecfXml } from '../../src/documents/acecf-document.ts';
import { buildAnecfXml } from '../../src/documents/anecf-document.ts';
import { buildArecfXml } from '../../src/documents/arecf-document.ts';
import { buildRfceXml } from '../../src/documents/rfce-document.ts';
import { ECF_TYPES } from '../../src/model/ecf-tree.ts';
import { loadCertificate, signXml } from '../../src/signing/index.ts';
import type { TSigningCertificate } from '../../src/signing/index.ts';
import { buildEcfXml } from '../../src/xml/ecf-writer.ts';
import type { TXmlResult } from '../../src/xml/xml-issues.ts';
import type { TXsdDocumentKind } from '../../src/xsd/index.ts';
import { ACECF_FIXTURE, ANECF_FIXTURE, ARECF_FIXTURE, ECF_FIXTURES } from './fixtures.ts';

/** One golden: its file name under `test/golden/`, its schema and its signed bytes. */
export type TGoldenDocument = {
  file: string;
  kind: TXsdDocumentKind;
  unsignedXml: string;
  signedXml: string;
};

/** Password of `test-certificate.p12` (see README.md beside it). */
const TEST_CERTIFICATE_PASSWORD = 'ecf-golden-2036';

/** Loads the committed throwaway certificate. */
export function loadGoldenCertificate(): TSigningCertificate {
  const result = loadCertificate({
    p12: readFileSync(new URL('./test-certificate.p12', import.meta.url)),
    password: TEST_CERTIFICATE_PASSWORD,
  });
  if (!result.success)
    throw new Error(`test certificate: ${result.issues.map((issue) => issue.message).join('; ')}`);
  return result.data;
}

function unwrap(name: string, result: TXmlResult): string {
  if (!result.success) throw new Error(`${name}: ${JSON.stringify(result.issues, null, 2)}`);
  return result.data;
}

/** Builds and signs every golden document, in a fixed order. */
export function buildGoldenDocuments(certificate: TSigningCertificate): TGoldenDocument[] {
  const documents: TGoldenDocument[] = [];
  const add = (file: string, kind: TXsdDocumentKind, unsignedXml: string): string => {
    const signed = signXml(unsignedXml, certificate);
    documents.push({ file, kind, unsignedXml, signedXml: signed.xml });
    return signed.signatureValue;
  };
  let e32SignatureValue: string | undefined;
  for (const type of ECF_TYPES) {
    const signatureValue = add(
      `e-cf-${type}.xml`,
      `ECF${type}`,
      unwrap(`e-CF ${type}`, buildEcfXml(ECF_FIXTURES[type])),
    );
    if (type === '32') e32SignatureValue = signatureValue;
  }
  if (e32SignatureValue === undefined) throw new Error('the E32 golden was not signed');
  // The RFCE carries the security code of the signed E32: the first six characters of its SignatureValue.
  const securityCode = e32SignatureValue.slice(0, 6);
  add('rfce-32.xml', 'RFCE', unwrap('RFCE', buildRfceXml(ECF_FIXTURES['32'], { securityCode })));
  add('acecf.xml', 'ACECF', unwrap('ACECF', buildAcecfXml(ACECF_FIXTURE)));
  add('arecf.xml', 'ARECF', unwrap('ARECF', buildArecfXml(ARECF_FIXTURE)));
  add('anecf.xml', 'ANECF', unwrap('ANECF', buildAnecfXml(ANECF_FIXTURE)));
  return documents;
}
