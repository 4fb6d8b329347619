/**
 * Loading a signing certificate from a PKCS#12 file or from PEM text. The caller reads the bytes
 * (fiscal-core does no I/O); this module only parses them.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { KEY_USAGES } from './types.ts';
import type {
  TDistinguishedName,
  TKeyUsage,
  TDistinguishedNameAttribute,
  TSigningCertificate,
  TSigningIssue,
  TSigningResult,
} from './types.ts';

/** Input of {@link loadCertificate}: a `.p12`/`.pfx` file with its password, or PEM text. */
export type TCertificateSource =
  | { p12: Uint8Array; password: string }
  | { privateKeyPem: string; certificatePem: string; password?: string };

/**
 * Codes returned by {@link loadCertificate}.
 * - `CERTIFICATE_PASSWORD_INVALID`: the PKCS#12 integrity check or key decryption failed with this password.
 * - `CERTIFICATE_FILE_INVALID`: the bytes or PEM text are not a readable PKCS#12 / key / certificate.
 * - `CERTIFICATE_PRIVATE_KEY_MISSING`: the file holds no private key.
 * - `CERTIFICATE_MISSING`: the file holds no X.509 certificate.
 * - `CERTIFICATE_KEY_MISMATCH`: no certificate in the file belongs to the private key.
 * - `CERTIFICATE_KEY_UNSUPPORTED`: the key is not RSA (the tax authority's recipe is RSA-SHA256).
 */
export const CERTIFICATE_ISSUE_CODES = [
  'CERTIFICATE_PASSWORD_INVALID',
  'CERTIFICATE_FILE_INVALID',
  'CERTIFICATE_PRIVATE_KEY_MISSING',
  'CERTIFICATE_MISSING',
  'CERTIFICATE_KEY_MISMATCH',
  'CERTIFICATE_KEY_UNSUPPORTED',
] as const;
export type TCertificateIssueCode = (typeof CERTIFICATE_ISSUE_CODES)[number];

function failure(
  code: TCertificateIssueCode,
  path: string,
  message: string,
): { success: false; issues: TSigningIssue[] } {
  return { success: false, issues: [{ code, path, message }] };
}

/**
 * Parses a signing certificate. Returns the node:crypto private key, the leaf certificate (DER
 * base64 as embedded in `KeyInfo`), its subject/issuer fields and validity. Expired or
 * not-yet-valid certificates are loaded (the caller decides against its own clock).
 */
export function loadCertificate(source: TCertificateSource): TSigningResult<TSigningCertificate> {
  if ('p12' in source) return loadFromPkcs12(source.p12, source.password);
  return loadFromPem(source.privateKeyPem, source.certificatePem, source.password);
}

function loadFromPkcs12(p12: Uint8Array, password: string): TSigningResult<TSigningCertificate> {
  let pkcs12: forge.pkcs12.Pkcs12Pfx;
  try {
    const der = forge.util.createBuffer(
      Buffer.from(p12.buffer, p12.byteOffset, p12.byteLength).toString('binary'),
    );
    const asn1 = forge.asn1.fromDer(der);
    pkcs12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // forge reports both a failed MAC check and a failed key decryption with "password" in the text.
    if (/password/i.test(message))
      return failure('CERTIFICATE_PASSWORD_INVALID', 'password', 'The certificate password is not correct.');
    return failure(
      'CERTIFICATE_FILE_INVALID',
      'p12',
      `The file is not a readable PKCS#12 certificate: ${message}`,
    );
  }

  const keys: KeyObject[] = [];
  const certificates: Buffer[] = [];
  for (const safeContents of pkcs12.safeContents) {
    for (const bag of safeContents.safeBags) {
      if (bag.type === forge.pki.oids.pkcs8ShroudedKeyBag || bag.type === forge.pki.oids.keyBag) {
        const key = keyFromBag(bag);
        if (key !== undefined) keys.push(key);
      } else if (bag.type === forge.pki.oids.certBag) {
        const asn1 = bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
        if (asn1 !== undefined) certificates.push(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));
      }
    }
  }
  const privateKey = keys[0];
  if (privateKey === undefined)
    return failure('CERTIFICATE_PRIVATE_KEY_MISSING', 'p12', 'The PKCS#12 file contains no private key.');
  return assemble(privateKey, certificates, 'p12');
}

function keyFromBag(bag: forge.pkcs12.Bag): KeyObject | undefined {
  try {
    if (bag.key) return createPrivateKey(forge.pki.privateKeyToPem(bag.key));
    // forge leaves non-RSA keys as raw PrivateKeyInfo; node:crypto still reads them so the type check can report it.
    if (bag.asn1 !== undefined) {
      return createPrivateKey({
        key: Buffer.from(forge.asn1.toDer(bag.asn1).getBytes(), 'binary'),
        format: 'der',
        type: 'pkcs8',
      });
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function loadFromPem(
  privateKeyPem: string,
  certificatePem: string,
  password: string | undefined,
): TSigningResult<TSigningCertificate> {
  let privateKey: KeyObject;
  try {
    privateKey =
      password === undefined
        ? createPrivateKey(privateKeyPem)
        : createPrivateKey({ key: privateKeyPem, passphrase: password });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKeyPem)) {
      return failure('CERTIFICATE_PRIVATE_KEY_MISSING', 'privateKeyPem', 'No PEM private key was given.');
    }
    if (/ENCRYPTED/.test(privateKeyPem) || /passphrase|decrypt|bad decrypt/i.test(message)) {
      return failure(
        'CERTIFICATE_PASSWORD_INVALID',
        'password',
        'The private key password is missing or not correct.',
      );
    }
    return failure(
      'CERTIFICATE_FILE_INVALID',
      'privateKeyPem',
      `The private key is not readable: ${message}`,
    );
  }
  const blocks = certificatePem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const certificates: Buffer[] = [];
  for (const block of blocks) {
    try {
      certificates.push(new X509Certificate(block).raw);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return failure(
        'CERTIFICATE_FILE_INVALID',
        'certificatePem',
        `A certificate is not readable: ${message}`,
      );
    }
  }
  return assemble(privateKey, certificates, 'certificatePem');
}

/** Picks the certificate that belongs to the key (files often carry the CA chain too) and reads its fields. */
function assemble(
  privateKey: KeyObject,
  certificatesDer: readonly Buffer[],
  path: string,
): TSigningResult<TSigningCertificate> {
  if (privateKey.asymmetricKeyType !== 'rsa') {
    return failure(
      'CERTIFICATE_KEY_UNSUPPORTED',
      path,
      `The key type ${privateKey.asymmetricKeyType ?? 'unknown'} is not supported; the signature recipe requires RSA.`,
    );
  }
  if (certificatesDer.length === 0)
    return failure('CERTIFICATE_MISSING', path, 'No X.509 certificate was found.');
  let parseError: string | undefined;
  for (const der of certificatesDer) {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(der);
    } catch (error) {
      parseError = error instanceof Error ? error.message : String(error);
      continue;
    }
    if (!certificate.checkPrivateKey(privateKey)) continue;
    const names = readCertificateNames(der);
    if (names === undefined)
      return failure('CERTIFICATE_FILE_INVALID', path, 'The certificate subject could not be read.');
    const holderId = holderIdFromSerialNumber(names.subject.serialNumber);
    const keyUsage = readKeyUsage(der);
    return {
      success: true,
      data: {
        privateKey,
        certificateDerBase64: der.toString('base64'),
        certificatePem: certificate.toString(),
        subject: names.subject,
        issuer: names.issuer,
        ...(holderId === undefined ? {} : { holderId }),
        certificateSerialNumber: certificate.serialNumber.toUpperCase(),
        validFrom: new Date(certificate.validFrom),
        validTo: new Date(certificate.validTo),
        ...(keyUsage === undefined ? {} : { keyUsage }),
      },
    };
  }
  if (parseError !== undefined && certificatesDer.length === 1) {
    return failure('CERTIFICATE_FILE_INVALID', path, `The certificate is not readable: ${parseError}`);
  }
  return failure('CERTIFICATE_KEY_MISMATCH', path, 'No certificate in the file matches the private key.');
}

/**
 * `IDCDO-05500147813` → `05500147813`. Only a leading alphabetic prefix ending in a dash is removed,
 * so a bare number stays as it is.
 */
export function holderIdFromSerialNumber(serialNumber: string | undefined): string | undefined {
  if (serialNumber === undefined) return undefined;
  const trimmed = serialNumber.trim();
  const match = /^[A-Za-z]+-(.+)$/.exec(trimmed);
  return match?.[1] ?? (trimmed === '' ? undefined : trimmed);
}

const KEY_USAGE_OID = '2.5.29.15';

/**
 * The key usages of a DER certificate (extension 2.5.29.15, a BIT STRING whose bit 0 is
 * `digitalSignature`), in RFC 5280 order; undefined when it has no key-usage extension (or it
 * cannot be read).
 */
export function readKeyUsage(der: Uint8Array): TKeyUsage[] | undefined {
  try {
    // forge's runtime takes options (its types only say `strict`): keep BIT STRINGs as raw bytes.
    const fromDer = forge.asn1.fromDer as unknown as (
      bytes: forge.util.ByteBuffer,
      options: { decodeBitStrings: boolean },
    ) => forge.asn1.Asn1;
    const options = { decodeBitStrings: false };
    const certificate = fromDer(
      forge.util.createBuffer(Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('binary')),
      options,
    );
    const tbs = childrenOf(certificate)[0];
    if (tbs === undefined) return undefined;
    // extensions are the [3] EXPLICIT field of the TBSCertificate.
    const wrapper = childrenOf(tbs).find(
      (field) => field.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && (field.type as number) === 3,
    );
    const extensions = wrapper === undefined ? [] : childrenOf(childrenOf(wrapper)[0] ?? wrapper);
    for (const extension of extensions) {
      const parts = childrenOf(extension);
      const oid = parts[0];
      if (oid === undefined || typeof oid.value !== 'string') continue;
      if (forge.asn1.derToOid(oid.value) !== KEY_USAGE_OID) continue;
      const octets = parts.at(-1);
      if (octets === undefined || typeof octets.value !== 'string') return undefined;
      const bitString = fromDer(forge.util.createBuffer(octets.value), options);
      if (typeof bitString.value !== 'string') return undefined;
      const bytes = Buffer.from(bitString.value, 'binary').subarray(1);
      return KEY_USAGES.filter((_name, bit) => (((bytes[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1) === 1);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

const ATTRIBUTE_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.4': 'SN',
  '2.5.4.42': 'GN',
  '2.5.4.12': 'title',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

/**
 * Reads issuer and subject straight from the DER so any key algorithm works (forge's certificate
 * parser only accepts RSA) and string types are decoded faithfully.
 */
export function readCertificateNames(
  der: Uint8Array,
): { issuer: TDistinguishedName; subject: TDistinguishedName } | undefined {
  try {
    const certificate = forge.asn1.fromDer(
      forge.util.createBuffer(Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('binary')),
    );
    const tbs = childrenOf(certificate)[0];
    if (tbs === undefined) return undefined;
    const fields = childrenOf(tbs);
    // The optional [0] EXPLICIT version shifts every later field by one.
    const offset = fields[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
    const issuer = fields[offset + 2];
    const subject = fields[offset + 4];
    if (issuer === undefined || subject === undefined) return undefined;
    return { issuer: readName(issuer), subject: readName(subject) };
  } catch {
    return undefined;
  }
}

function childrenOf(node: forge.asn1.Asn1): forge.asn1.Asn1[] {
  return Array.isArray(node.value) ? node.value : [];
}

function readName(name: forge.asn1.Asn1): TDistinguishedName {
  const attributes: TDistinguishedNameAttribute[] = [];
  for (const relativeName of childrenOf(name)) {
    for (const typeAndValue of childrenOf(relativeName)) {
      const [type, value] = childrenOf(typeAndValue);
      if (
        type === undefined ||
        value === undefined ||
        typeof type.value !== 'string' ||
        typeof value.value !== 'string'
      )
        continue;
      const oid = forge.asn1.derToOid(type.value);
      attributes.push({ name: ATTRIBUTE_NAMES[oid] ?? oid, oid, value: decodeDirectoryString(value) });
    }
  }
  const find = (oid: string): string | undefined =>
    attributes.find((attribute) => attribute.oid === oid)?.value;
  const result: TDistinguishedName = { attributes };
  const commonName = find('2.5.4.3');
  const serialNumber = find('2.5.4.5');
  const organization = find('2.5.4.10');
  const organizationalUnit = find('2.5.4.11');
  const country = find('2.5.4.6');
  if (commonName !== undefined) result.commonName = commonName;
  if (serialNumber !== undefined) result.serialNumber = serialNumber;
  if (organization !== undefined) result.organization = organization;
  if (organizationalUnit !== undefined) result.organizationalUnit = organizationalUnit;
  if (country !== undefined) result.country = country;
  return result;
}

function decodeDirectoryString(node: forge.asn1.Asn1): string {
  const bytes = Buffer.from(node.value as string, 'binary');
  if (node.type === forge.asn1.Type.BMPSTRING) return bytes.swap16().toString('utf16le');
  // UTF8String, and PrintableString/IA5String which are ASCII subsets of UTF-8.
  return bytes.toString('utf8');
}
