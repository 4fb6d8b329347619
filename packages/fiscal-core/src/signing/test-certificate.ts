/**
 * Throwaway self-signed certificates shaped like the Dominican signing certificates, for tests,
 * the tax-authority simulator and the demo tenant. Never for real issuance.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import type { TKeyUsage } from './types.ts';

/** Options of {@link createTestCertificate}. */
export type TTestCertificateOptions = {
  /** Holder identification written as subject `serialNumber` `IDCDO-<rnc>`. */
  rnc: string;
  commonName: string;
  /** Defaults to 2020-01-01T00:00:00Z (fixed, so no clock is read). */
  validFrom?: Date;
  /** Defaults to 2036-12-31T23:59:59Z. */
  validTo?: Date;
  /** Password of the generated PKCS#12; defaults to `ecf-test-certificate`. */
  password?: string;
  /** Key usages; defaults to digitalSignature + nonRepudiation; null: no key-usage extension. */
  keyUsage?: readonly TKeyUsage[] | null;
  /** True: the subject has no `serialNumber` (no holder id), for tests of that refusal. */
  omitHolderId?: boolean;
  /**
   * What the PKCS#12 holds (for tests of broken files): the key and its certificate (default), the
   * certificate only (no private key), or the certificate with another key (no matching pair).
   */
  contents?: 'key_and_certificate' | 'certificate_only' | 'other_key';
};

/** A generated test certificate in the forms callers need. */
export type TTestCertificate = {
  /** PKCS#12 (3DES-encrypted key bag, SHA-1 MAC: readable by OpenSSL, .NET, Java and forge). */
  p12: Buffer;
  password: string;
  /** Unencrypted PKCS#8 private key. */
  privateKeyPem: string;
  certificatePem: string;
};

const DEFAULT_VALID_FROM = new Date('2020-01-01T00:00:00Z');
const DEFAULT_VALID_TO = new Date('2036-12-31T23:59:59Z');

/**
 * Creates an RSA-2048 self-signed certificate with subject `CN=<commonName>, serialNumber=IDCDO-<rnc>, C=DO`,
 * key usage digitalSignature + nonRepudiation, SHA-256 signature. The key pair comes from node:crypto
 * (forge's pure-JS RSA key generation takes seconds).
 */
export function createTestCertificate(options: TTestCertificateOptions): TTestCertificate {
  const password = options.password ?? 'ecf-test-certificate';
  const { privateKey: privateKeyPem, publicKey: publicKeyPem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privateKey = forge.pki.privateKeyFromPem(privateKeyPem);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKeyPem);
  // A positive serial: clear the top bit so DER does not read it as negative.
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  certificate.serialNumber = serial.toString('hex');
  certificate.validity.notBefore = options.validFrom ?? DEFAULT_VALID_FROM;
  certificate.validity.notAfter = options.validTo ?? DEFAULT_VALID_TO;
  const name: forge.pki.CertificateField[] = [
    { shortName: 'C', value: 'DO' },
    { shortName: 'O', value: 'Certificado de prueba (no valido)' },
    ...(options.omitHolderId === true ? [] : [{ name: 'serialNumber', value: `IDCDO-${options.rnc}` }]),
    {
      shortName: 'CN',
      value: options.commonName,
      valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class,
    },
  ];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    ...(options.keyUsage === null
      ? []
      : [
          {
            name: 'keyUsage',
            critical: true,
            ...Object.fromEntries(
              (options.keyUsage ?? ['digitalSignature', 'nonRepudiation']).map((usage) => [usage, true]),
            ),
          },
        ]),
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(privateKey, forge.md.sha256.create());
  const contents = options.contents ?? 'key_and_certificate';
  const bagKey =
    contents === 'certificate_only'
      ? null
      : contents === 'other_key'
        ? forge.pki.privateKeyFromPem(
            generateKeyPairSync('rsa', {
              modulusLength: 2048,
              privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
              publicKeyEncoding: { type: 'spki', format: 'pem' },
            }).privateKey,
          )
        : privateKey;
  const p12Asn1 = forge.pkcs12.toPkcs12Asn1(bagKey, [certificate], password, {
    algorithm: '3des',
    friendlyName: options.commonName,
    generateLocalKeyId: true,
  });
  return {
    p12: Buffer.from(forge.asn1.toDer(p12Asn1).getBytes(), 'binary'),
    password,
    privateKeyPem,
    certificatePem: forge.pki.certificateToPem(certificate),
  };
}
