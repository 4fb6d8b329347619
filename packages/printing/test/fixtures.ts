/**
 * Fixtures for the printing tests and the benchmark: realistic simplified submissions, taken through
 * the same path the worker follows (validate, sign, store the XML) and then read back from the signed
 * XML as the PDF endpoint does.
 */
import {
  createTestCertificate,
  loadCertificate,
  readEcfXml,
  signEcfDocument,
  timbreUrlOf,
  validateSubmission,
} from '@ecf/fiscal-core';
import type { TDgiiEnvironment, TSigningCertificate, TValidationContext } from '@ecf/fiscal-core';
import { SIMPLIFIED_EXAMPLES, TEST_NOW, testContext } from '@ecf/fiscal-core/testing';
import type { TPrintInput } from '../src/print-model.ts';

/** fiscal-core's validation clock and account: the fixtures are its documented examples. */
export const FIXTURE_NOW = TEST_NOW;
const context: TValidationContext = testContext();

const issuer = {
  rnc: '131880738',
  legalName: 'Distribuidora Caribe Digital SRL',
  tradeName: 'Caribe Digital',
  branch: 'Sucursal Piantini',
  address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo',
  phone: ['809-555-0101', '809-555-0102'],
};

type TBody = Record<string, unknown>;

function line(index: number): TBody {
  const price = `${100 + ((index * 37) % 900)}.${String((index * 13) % 100).padStart(2, '0')}`;
  return index % 7 === 0
    ? {
        name: `Libro técnico volumen ${index}`,
        quantity: 1 + (index % 4),
        unitPrice: price,
        itbisRate: 'exempt',
        itemKind: 'good',
      }
    : {
        name: `Artículo de ferretería número ${index}`,
        quantity: 1 + (index % 5),
        unitPrice: price,
        itbisRate: 18,
        itemKind: 'good',
      };
}

/** A credit invoice (E31) with `lineCount` lines, mixing taxed and exempt goods: the documented E31 with more lines. */
export function creditInvoiceBody(lineCount: number, encf = 'E310000000101'): TBody {
  return {
    ...(SIMPLIFIED_EXAMPLES['31'] as TBody),
    encf,
    issuer,
    lines: Array.from({ length: lineCount }, (_, index) => line(index + 1)),
  };
}

/**
 * Simplified bodies of the types the tests print: the documented examples of fiscal-core (one source
 * for every package's tests), with a fuller issuer block so the header prints every field.
 */
export const PRINT_EXAMPLES: Readonly<Record<string, TBody>> = {
  '31': creditInvoiceBody(3),
  ...Object.fromEntries(
    ['32', '34', '41', '43', '46', '47'].map((type) => [
      type,
      { ...(SIMPLIFIED_EXAMPLES[type] as TBody), issuer },
    ]),
  ),
};

let certificate: TSigningCertificate | undefined;

function testCertificate(): TSigningCertificate {
  if (certificate !== undefined) return certificate;
  const generated = createTestCertificate({ rnc: '131880738', commonName: 'Printing Test' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error(JSON.stringify(loaded.issues));
  certificate = loaded.data;
  return certificate;
}

/** A printable input plus the signed XML it came from. */
export type TSignedFixture = { input: TPrintInput; xml: string };

/**
 * Validates, signs and reads back a simplified body, returning what the PDF endpoint would pass to
 * the renderer: the tree read from the stored signed XML and the signature-derived values.
 */
export async function signedFixture(
  body: TBody,
  environment: TDgiiEnvironment = 'eCF',
): Promise<TSignedFixture> {
  const validated = await validateSubmission(JSON.stringify(body), context);
  if (!validated.success) throw new Error(`fixture does not validate: ${JSON.stringify(validated.errors)}`);
  const signed = signEcfDocument(validated.data.document, testCertificate(), FIXTURE_NOW);
  if (!signed.success) throw new Error(`fixture does not sign: ${JSON.stringify(signed.issues)}`);
  const document = readEcfXml(signed.data.xml);
  if (document === undefined) throw new Error('signed fixture XML does not read back');
  return {
    xml: signed.data.xml,
    input: {
      document,
      securityCode: signed.data.securityCode,
      signedAt: signed.data.signedAt,
      qrUrl: timbreUrlOf(document, signed.data, environment),
      environment,
    },
  };
}
