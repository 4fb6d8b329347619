/**
 * Tenant signing certificates, encrypted at rest. The PKCS#12 bytes and their password are each
 * sealed with AES-256-GCM under a master key from configuration; the row records which key
 * (`keyId`, derived from the key itself) so that keys can rotate: new rows use the current key,
 * older rows stay readable while their key is listed in the keyring, and
 * `reencryptTenantCertificates` moves them to the current key.
 *
 * Nothing here ever logs or puts into an error message the master key, the password or the file.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { prepared, sqlPoolOf, type TDatabase } from '@ecf/db';
import { loadCertificate, type TDistinguishedName, type TSigningCertificate } from '@ecf/fiscal-core';
import { AppError, type TErrorCode } from './errors.ts';

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
function associatedDataOf(row: { id: string; tenantId: string }, field: 'p12' | 'password'): string {
  return `ecf:tenant-certificate:v1:${row.id}:${row.tenantId}:${field}`;
}

/**
 * Decrypted certificates, per keyring and row id (a row's plaintext never changes). The promise is
 * kept, so the concurrent jobs of a fetch that all miss parse the PKCS#12 once, not once each.
 */
const decryptedCache = new WeakMap<TCertificateKeyring, Map<string, Promise<TSigningCertificate>>>();
function cacheOf(keyring: TCertificateKeyring): Map<string, Promise<TSigningCertificate>> {
  let cache = decryptedCache.get(keyring);
  if (cache === undefined) {
    cache = new Map();
    decryptedCache.set(keyring, cache);
  }
  return cache;
}

const LOAD_ISSUE_CODES: Readonly<Record<string, TErrorCode>> = {
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

function parseCertificate(p12: Uint8Array, password: string): TSigningCertificate {
  const loaded = loadCertificate({ p12, password });
  if (loaded.success) return loaded.data;
  const reason = loaded.issues[0]?.code ?? 'CERTIFICATE_FILE_INVALID';
  const code = LOAD_ISSUE_CODES[reason] ?? 'CERTIFICATE_FILE_INVALID';
  // Our own messages: never echo parser text that might quote input.
  throw new AppError(code, LOAD_ISSUE_MESSAGES[code] ?? 'The certificate cannot be read.', {
    details: { reason },
  });
}

function formatDistinguishedName(name: TDistinguishedName): string {
  return name.attributes.map((attribute) => `${attribute.name}=${attribute.value}`).join(', ');
}

/** A stored certificate as operators and APIs may see it: metadata only, never the key, file or password. */
export type TTenantCertificateMetadata = {
  id: string;
  tenantId: string;
  holderId: string | null;
  subject: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  keyId: string;
  active: boolean;
  createdAt: Date;
  revokedAt: Date | null;
};

const METADATA_SELECT = {
  id: true,
  tenantId: true,
  holderId: true,
  subject: true,
  serialNumber: true,
  validFrom: true,
  validTo: true,
  keyId: true,
  active: true,
  createdAt: true,
  revokedAt: true,
} as const;

/**
 * Installs a tenant's signing certificate. The file is read first (password, key pair, holder id,
 * validity at `now`); its holder id must be the tenant's RNC unless `allowDelegatedHolder` is set
 * (a person's certificate, identified by cédula, that the tax authority has delegated for the
 * RNC). The new row becomes the active one and the previous active row is deactivated in the
 * same transaction (the tenant row is locked, so two uploads never leave two active rows).
 */
export async function storeTenantCertificate(
  database: TDatabase,
  input: { tenantId: string; p12: Uint8Array; password: string; now?: Date; allowDelegatedHolder?: boolean },
  keyring: TCertificateKeyring,
): Promise<TTenantCertificateMetadata> {
  const tenant = await database.tenant.findUnique({ where: { id: input.tenantId } });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');

  const certificate = parseCertificate(input.p12, input.password);
  if (certificate.holderId === undefined) {
    throw new AppError(
      'CERTIFICATE_HOLDER_ID_MISSING',
      'The certificate subject has no serialNumber with the holder RNC, cédula or passport.',
    );
  }
  if (certificate.holderId !== tenant.rnc && !input.allowDelegatedHolder) {
    throw new AppError(
      'CERTIFICATE_RNC_MISMATCH',
      `The certificate belongs to ${certificate.holderId}, not to the account's RNC ${tenant.rnc}.`,
      { details: { holderId: certificate.holderId, tenantRnc: tenant.rnc } },
    );
  }
  const now = input.now ?? new Date();
  if (certificate.validTo.getTime() < now.getTime()) {
    throw new AppError(
      'CERTIFICATE_EXPIRED',
      `The certificate expired on ${certificate.validTo.toISOString()}.`,
      { details: { validTo: certificate.validTo.toISOString() } },
    );
  }
  if (certificate.validFrom.getTime() > now.getTime()) {
    throw new AppError(
      'CERTIFICATE_NOT_YET_VALID',
      `The certificate is valid from ${certificate.validFrom.toISOString()}.`,
      { details: { validFrom: certificate.validFrom.toISOString() } },
    );
  }

  const row = { id: randomUUID(), tenantId: tenant.id };
  const p12 = keyring.seal(input.p12, associatedDataOf(row, 'p12'));
  const password = keyring.seal(Buffer.from(input.password, 'utf8'), associatedDataOf(row, 'password'));
  const stored = await database.$transaction(async (transaction) => {
    await transaction.$queryRaw`SELECT id FROM tenants WHERE id = ${tenant.id}::uuid FOR UPDATE`;
    await transaction.tenantCertificate.updateMany({
      where: { tenantId: tenant.id, active: true },
      data: { active: false },
    });
    return transaction.tenantCertificate.create({
      data: {
        id: row.id,
        tenantId: tenant.id,
        holderId: certificate.holderId ?? null,
        subject: formatDistinguishedName(certificate.subject),
        serialNumber: certificate.certificateSerialNumber,
        validFrom: certificate.validFrom,
        validTo: certificate.validTo,
        keyId: p12.keyId,
        encryptedP12: p12.sealed,
        encryptedPassword: password.sealed,
        active: true,
      },
      select: METADATA_SELECT,
    });
  });
  cacheOf(keyring).set(stored.id, Promise.resolve(certificate));
  return stored;
}

/** The row of a tenant's active certificate (null: none), when read along with something else. */
export type TActiveCertificateRef = { id: string; keyId: string } | null;

/**
 * The tenant's active certificate, decrypted and ready to sign. Decrypted certificates are kept in
 * memory per row (and keyring), so signing does not pay PKCS#12 parsing each time.
 * `CERTIFICATE_NOT_ACTIVE` when the tenant has none; `CERTIFICATE_DECRYPTION_FAILED` when the
 * keyring lacks its master key. `active`: the active row, when the caller read it in the same
 * query as its document (document-state.ts); otherwise it is looked up here.
 */
export async function loadActiveCertificate(
  database: TDatabase,
  tenantId: string,
  keyring: TCertificateKeyring,
  active?: TActiveCertificateRef,
): Promise<TSigningCertificate> {
  let found = active;
  if (found === undefined) {
    const { rows } = await sqlPoolOf(database).query<{ id: string; key_id: string }>(
      prepared(
        `SELECT id, key_id FROM tenant_certificates WHERE tenant_id = $1::uuid AND active AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
        [tenantId],
      ),
    );
    found = rows[0] === undefined ? null : { id: rows[0].id, keyId: rows[0].key_id };
  }
  if (found === null)
    throw new AppError('CERTIFICATE_NOT_ACTIVE', 'The account has no active signing certificate.');
  const row = { id: found.id, tenantId, keyId: found.keyId };
  const cache = cacheOf(keyring);
  const cached = cache.get(row.id);
  if (cached) return cached;
  const opening = (async () => {
    const sealed = await database.tenantCertificate.findUniqueOrThrow({
      where: { id: row.id },
      select: { encryptedP12: true, encryptedPassword: true },
    });
    const p12 = keyring.open(row.keyId, sealed.encryptedP12, associatedDataOf(row, 'p12'));
    const password = keyring
      .open(row.keyId, sealed.encryptedPassword, associatedDataOf(row, 'password'))
      .toString('utf8');
    return parseCertificate(p12, password);
  })();
  cache.set(row.id, opening);
  // A failure is not kept: the next call tries again (a master key added, a row restored).
  opening.catch(() => {
    if (cache.get(row.id) === opening) cache.delete(row.id);
  });
  return opening;
}

/** Every certificate of a tenant, newest first, metadata only. */
export async function findTenantCertificates(
  database: TDatabase,
  tenantId: string,
): Promise<TTenantCertificateMetadata[]> {
  return database.tenantCertificate.findMany({
    where: { tenantId },
    orderBy: { createdAt: 'desc' },
    select: METADATA_SELECT,
  });
}

/**
 * Master-key rotation, second half: re-encrypts every certificate not sealed with the current key
 * (optionally of one tenant). Safe to run repeatedly and concurrently: a row is rewritten only if
 * its `keyId` is still the one read. Rows that do not open (their key is not in the keyring, or
 * altered data) are left as they are and listed in `skipped` by id and key id.
 */
export async function reencryptTenantCertificates(
  database: TDatabase,
  keyring: TCertificateKeyring,
  options: { tenantId?: string } = {},
): Promise<{ reencrypted: number; skipped: { id: string; keyId: string }[] }> {
  const rows = await database.tenantCertificate.findMany({
    where: {
      keyId: { not: keyring.currentKeyId },
      ...(options.tenantId ? { tenantId: options.tenantId } : {}),
    },
    select: { id: true, tenantId: true, keyId: true, encryptedP12: true, encryptedPassword: true },
    orderBy: { createdAt: 'asc' },
  });
  let reencrypted = 0;
  const skipped: { id: string; keyId: string }[] = [];
  for (const row of rows) {
    let p12: ReturnType<TCertificateKeyring['seal']>;
    let password: ReturnType<TCertificateKeyring['seal']>;
    try {
      p12 = keyring.seal(
        keyring.open(row.keyId, row.encryptedP12, associatedDataOf(row, 'p12')),
        associatedDataOf(row, 'p12'),
      );
      password = keyring.seal(
        keyring.open(row.keyId, row.encryptedPassword, associatedDataOf(row, 'password')),
        associatedDataOf(row, 'password'),
      );
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'CERTIFICATE_DECRYPTION_FAILED')) throw error;
      skipped.push({ id: row.id, keyId: row.keyId });
      continue;
    }
    const updated = await database.tenantCertificate.updateMany({
      where: { id: row.id, keyId: row.keyId },
      data: { keyId: keyring.currentKeyId, encryptedP12: p12.sealed, encryptedPassword: password.sealed },
    });
    reencrypted += updated.count;
  }
  return { reencrypted, skipped };
}
