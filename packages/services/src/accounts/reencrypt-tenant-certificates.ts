import type { TDatabase } from '@ecf/db';
import { findCertificatesSealedWithOtherKeys, resealCertificate } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { associatedDataOf, type TCertificateKeyring } from './certificate-keyring.ts';

/**
 * Master-key rotation, second half: re-encrypts every certificate not sealed with the current key
 * (optionally of one tenant). Safe to run repeatedly and concurrently: a row is rewritten only if
 * its `keyId` is still the one read. Rows that do not open (their key is not in the keyring, or
 * altered data) are left as they are and listed in `skipped` by id and key id.
 */
export async function reencryptTenantCertificates(options: {
  database: TDatabase;
  keyring: TCertificateKeyring;
  tenantId?: string;
}): Promise<{ reencrypted: number; skipped: { id: string; keyId: string }[] }> {
  const { database, keyring } = options;
  const rows = await findCertificatesSealedWithOtherKeys(database, {
    currentKeyId: keyring.currentKeyId,
    tenantId: options.tenantId,
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
    const resealed = await resealCertificate(database, {
      id: row.id,
      fromKeyId: row.keyId,
      keyId: keyring.currentKeyId,
      encryptedP12: p12.sealed,
      encryptedPassword: password.sealed,
    });
    if (resealed) reencrypted += 1;
  }
  return { reencrypted, skipped };
}
