/**
 * Reading a PKCS#12 signing certificate, with the contract's error codes for what can be wrong
 * with it, and the certificates opened so far (a row's plaintext never changes).
 */
import { loadCertificate, type TDistinguishedName, type TSigningCertificate } from '@ecf/fiscal-core';
import { AppError, type TErrorCode } from '../shared/errors.ts';
import type { TCertificateKeyring } from './certificate-keyring.ts';

/** The codes a certificate that cannot be read is refused with (a literal type: the OpenAPI test reads it). */
type TCertificateFileCode = Extract<
  TErrorCode,
  | 'CERTIFICATE_PASSWORD_INVALID'
  | 'CERTIFICATE_FILE_INVALID'
  | 'CERTIFICATE_PRIVATE_KEY_MISSING'
  | 'CERTIFICATE_KEY_PAIR_NOT_FOUND'
>;

const LOAD_ISSUE_CODES: Readonly<Record<string, TCertificateFileCode>> = {
  CERTIFICATE_PASSWORD_INVALID: 'CERTIFICATE_PASSWORD_INVALID',
  CERTIFICATE_FILE_INVALID: 'CERTIFICATE_FILE_INVALID',
  CERTIFICATE_PRIVATE_KEY_MISSING: 'CERTIFICATE_PRIVATE_KEY_MISSING',
  CERTIFICATE_MISSING: 'CERTIFICATE_KEY_PAIR_NOT_FOUND',
  CERTIFICATE_KEY_MISMATCH: 'CERTIFICATE_KEY_PAIR_NOT_FOUND',
  CERTIFICATE_KEY_UNSUPPORTED: 'CERTIFICATE_FILE_INVALID',
};

const LOAD_ISSUE_MESSAGES: Readonly<Partial<Record<TErrorCode, string>>> = {
  CERTIFICATE_PASSWORD_INVALID: 'The certificate password is not correct.',
  CERTIFICATE_FILE_INVALID: 'The file is not a readable PKCS#12 certificate with an RSA key.',
  CERTIFICATE_PRIVATE_KEY_MISSING: 'The PKCS#12 file contains no private key.',
  CERTIFICATE_KEY_PAIR_NOT_FOUND: 'The PKCS#12 file contains no certificate for its private key.',
};

/** The certificate of a PKCS#12 file, or the AppError saying why it cannot be used. */
export function parseCertificate(p12: Uint8Array, password: string): TSigningCertificate {
  const loaded = loadCertificate({ p12, password });
  if (loaded.success) return loaded.data;
  const reason = loaded.issues[0]?.code ?? 'CERTIFICATE_FILE_INVALID';
  const code = LOAD_ISSUE_CODES[reason] ?? 'CERTIFICATE_FILE_INVALID';
  // Our own messages: never echo parser text that might quote input.
  throw new AppError(code, LOAD_ISSUE_MESSAGES[code] ?? 'The certificate cannot be read.', {
    details: { reason },
  });
}

/** `CN=..., serialNumber=...` as stored with a certificate's metadata. */
export function formatDistinguishedName(name: TDistinguishedName): string {
  return name.attributes.map((attribute) => `${attribute.name}=${attribute.value}`).join(', ');
}

/**
 * Decrypted certificates, per keyring and row id (a row's plaintext never changes). The promise is
 * kept, so the concurrent jobs of a fetch that all miss parse the PKCS#12 once, not once each.
 */
const decryptedCache = new WeakMap<TCertificateKeyring, Map<string, Promise<TSigningCertificate>>>();

export function openedCertificatesOf(
  keyring: TCertificateKeyring,
): Map<string, Promise<TSigningCertificate>> {
  let cache = decryptedCache.get(keyring);
  if (cache === undefined) {
    cache = new Map();
    decryptedCache.set(keyring, cache);
  }
  return cache;
}
