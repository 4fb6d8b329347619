/**
 * The master keys tenant certificates are encrypted with at rest. The PKCS#12 bytes and their
 * password are each sealed with AES-256-GCM under a master key from configuration; the row records
 * which key (`keyId`, derived from the key itself) so that keys can rotate: new rows use the current
 * key, older rows stay readable while their key is listed in the keyring, and
 * `reencryptTenantCertificates` moves them to the current key.
 *
 * Nothing here ever logs or puts into an error message the master key, the password or the file.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../shared/errors.ts';

/** Format byte of a sealed value: 1 = AES-256-GCM, 12-byte IV, 16-byte tag, then the ciphertext. */
const SEAL_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/**
 * The master keys. Raw key bytes are kept in a closure: the object itself can be logged or
 * serialized without revealing them (it shows only key ids).
 */
export type TCertificateKeyring = {
  /** Id of the key new certificates are encrypted with. */
  readonly currentKeyId: string;
  /** Ids of every key that can decrypt (the current one first). */
  readonly keyIds: readonly string[];
  seal(plaintext: Uint8Array, associatedData: string): { keyId: string; sealed: Uint8Array<ArrayBuffer> };
  /** Opens a sealed value; throws `CERTIFICATE_DECRYPTION_FAILED` when the key is absent or the value was altered. */
  open(keyId: string, sealed: Uint8Array, associatedData: string): Buffer;
};

/** Id of a master key: the first 16 hex characters of its SHA-256 (reveals nothing usable about it). */
export function masterKeyIdOf(key: Uint8Array): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function decodeMasterKey(text: string, name: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== trimmed.replace(/=+$/, '')) {
    // Names the variable, never its value.
    throw new Error(
      `${name} must be ${KEY_BYTES} random bytes in base64 (44 characters); generate one with: openssl rand -base64 32`,
    );
  }
  return key;
}

/**
 * Builds the keyring from configuration: `currentKey` (env `CERTIFICATE_MASTER_KEY`) encrypts and
 * decrypts; `previousKeys` (env `CERTIFICATE_MASTER_KEYS`, comma-separated) only decrypt rows
 * written before a rotation. Each key is 32 bytes in base64.
 */
export function createCertificateKeyring(input: {
  currentKey: string;
  previousKeys?: readonly string[] | string | undefined;
}): TCertificateKeyring {
  const current = decodeMasterKey(input.currentKey, 'CERTIFICATE_MASTER_KEY');
  const previousTexts =
    typeof input.previousKeys === 'string' ? input.previousKeys.split(',') : (input.previousKeys ?? []);
  const keys = new Map<string, Buffer>([[masterKeyIdOf(current), current]]);
  for (const text of previousTexts) {
    if (text.trim() === '') continue;
    const key = decodeMasterKey(text, 'CERTIFICATE_MASTER_KEYS');
    keys.set(masterKeyIdOf(key), key);
  }
  const currentKeyId = masterKeyIdOf(current);
  const keyIds = Object.freeze([...keys.keys()]);
  const keyring: TCertificateKeyring = {
    currentKeyId,
    keyIds,
    seal(plaintext, associatedData) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return {
        keyId: currentKeyId,
        sealed: new Uint8Array(Buffer.concat([Buffer.of(SEAL_VERSION), iv, cipher.getAuthTag(), ciphertext])),
      };
    },
    open(keyId, sealed, associatedData) {
      const key = keys.get(keyId);
      if (key === undefined) {
        throw new AppError(
          'CERTIFICATE_DECRYPTION_FAILED',
          `The certificate was encrypted with master key ${keyId}, which is not configured (CERTIFICATE_MASTER_KEY or CERTIFICATE_MASTER_KEYS).`,
          { details: { keyId } },
        );
      }
      const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
      if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== SEAL_VERSION) {
        throw new AppError(
          'CERTIFICATE_DECRYPTION_FAILED',
          'The stored certificate is not in a known encrypted format.',
          { details: { keyId } },
        );
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
      } catch (error) {
        throw new AppError(
          'CERTIFICATE_DECRYPTION_FAILED',
          `The stored certificate does not decrypt with master key ${keyId} (wrong key or altered data).`,
          {
            details: { keyId },
            cause: error,
          },
        );
      }
    },
  };
  // Logging the keyring (pino, console, util.inspect) shows key ids only.
  Object.defineProperty(keyring, 'toJSON', { value: () => ({ currentKeyId, keyIds }), enumerable: false });
  Object.defineProperty(keyring, Symbol.for('nodejs.util.inspect.custom'), {
    value: () => `CertificateKeyring { currentKeyId: '${currentKeyId}', keyIds: [${keyIds.join(', ')}] }`,
    enumerable: false,
  });
  return Object.freeze(keyring);
}

/** Associated data binds each sealed value to its row, tenant and field: a value copied elsewhere does not open. */
export function associatedDataOf(row: { id: string; tenantId: string }, field: 'p12' | 'password'): string {
  return `ecf:tenant-certificate:v1:${row.id}:${row.tenantId}:${field}`;
}
