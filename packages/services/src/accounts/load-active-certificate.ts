import type { TDatabase } from '@ecf/db';
import type { TSigningCertificate } from '@ecf/fiscal-core';
import {
  findActiveCertificateRow,
  readSealedCertificate,
  type TActiveCertificateRef,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { associatedDataOf, type TCertificateKeyring } from './certificate-keyring.ts';
import { openedCertificatesOf, parseCertificate } from './certificate-file.ts';

/**
 * The tenant's active certificate, decrypted and ready to sign. Decrypted certificates are kept in
 * memory per row (and keyring), so signing does not pay PKCS#12 parsing each time.
 * `CERTIFICATE_NOT_ACTIVE` when the tenant has none; `CERTIFICATE_DECRYPTION_FAILED` when the
 * keyring lacks its master key. `active`: the active row, when the caller read it in the same
 * query as its document (the pipeline's step reads); otherwise it is looked up here.
 */
export async function loadActiveCertificate(options: {
  database: TDatabase;
  keyring: TCertificateKeyring;
  tenantId: string;
  active?: TActiveCertificateRef;
}): Promise<TSigningCertificate> {
  const { database, keyring, tenantId } = options;
  const found =
    options.active === undefined ? await findActiveCertificateRow(database, tenantId) : options.active;
  if (found === null)
    throw new AppError('CERTIFICATE_NOT_ACTIVE', 'The account has no active signing certificate.');
  const row = { id: found.id, tenantId, keyId: found.keyId };
  const cache = openedCertificatesOf(keyring);
  const cached = cache.get(row.id);
  if (cached) return cached;
  const opening = (async () => {
    const sealed = await readSealedCertificate(database, row.id);
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
