import { randomUUID } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import {
  findTenant,
  insertActiveCertificate,
  type TTenantCertificateMetadata,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { associatedDataOf, type TCertificateKeyring } from './certificate-keyring.ts';
import { formatDistinguishedName, openedCertificatesOf, parseCertificate } from './certificate-file.ts';

/**
 * Installs a tenant's signing certificate. The file is read first (password, key pair, holder id,
 * validity at `now`); its holder id must be the tenant's RNC unless `allowDelegatedHolder` is set
 * (a person's certificate, identified by cédula, that the tax authority has delegated for the
 * RNC). The new row becomes the active one and the previous active row is deactivated in the
 * same transaction (the tenant row is locked, so two uploads never leave two active rows).
 */
export async function storeTenantCertificate(options: {
  database: TDatabase;
  keyring: TCertificateKeyring;
  tenantId: string;
  p12: Uint8Array;
  password: string;
  now?: Date;
  allowDelegatedHolder?: boolean;
}): Promise<TTenantCertificateMetadata> {
  const { database, keyring } = options;
  const tenant = await findTenant(database, { id: options.tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');

  const certificate = parseCertificate(options.p12, options.password);
  if (certificate.holderId === undefined) {
    throw new AppError(
      'CERTIFICATE_HOLDER_ID_MISSING',
      'The certificate subject has no serialNumber with the holder RNC, cédula or passport.',
    );
  }
  if (certificate.holderId !== tenant.rnc && !options.allowDelegatedHolder) {
    throw new AppError(
      'CERTIFICATE_RNC_MISMATCH',
      `The certificate belongs to ${certificate.holderId}, not to the account's RNC ${tenant.rnc}.`,
      { details: { holderId: certificate.holderId, tenantRnc: tenant.rnc } },
    );
  }
  const now = options.now ?? new Date();
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
  const p12 = keyring.seal(options.p12, associatedDataOf(row, 'p12'));
  const password = keyring.seal(Buffer.from(options.password, 'utf8'), associatedDataOf(row, 'password'));
  const stored = await insertActiveCertificate(database, {
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
  });
  openedCertificatesOf(keyring).set(stored.id, Promise.resolve(certificate));
  return stored;
}
