import { randomUUID } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import {
  findTenant,
  insertActiveCertificate,
  type TTenantCertificateMetadata,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { assertCapability } from '../identity/assert-capability.ts';
import type { TPortalActor } from '../identity/permissions.ts';
import { associatedDataOf, type TCertificateKeyring } from './certificate-keyring.ts';
import { formatDistinguishedName, openedCertificatesOf, parseCertificate } from './certificate-file.ts';

/** A signing certificate needs at least one of these key usages (spec, Errors: certificate upload). */
const SIGNING_KEY_USAGES = ['digitalSignature', 'nonRepudiation'];

/** The largest PKCS#12 file accepted (a signing certificate with its chain is a few KiB). */
export const CERTIFICATE_FILE_MAX_BYTES = 64 * 1024;

/**
 * The certificate of a PKCS#12 file if it can sign for a tenant at `now`, or the AppError saying why
 * not, in this order: size, password, file, private key, key pair, holder id (subject
 * `serialNumber`), key usage (digitalSignature or nonRepudiation), validity at `now`. The install
 * and its preview both run it, so a preview never promises what the install would refuse.
 */
function checkedCertificate(p12: Uint8Array, password: string, now: Date) {
  if (p12.byteLength > CERTIFICATE_FILE_MAX_BYTES)
    throw new AppError('CERTIFICATE_FILE_INVALID', 'The file is larger than a PKCS#12 certificate can be.', {
      details: { reason: 'too_large', maxBytes: CERTIFICATE_FILE_MAX_BYTES },
    });
  const certificate = parseCertificate(p12, password);
  const holderId = certificate.holderId;
  if (holderId === undefined) {
    throw new AppError(
      'CERTIFICATE_HOLDER_ID_MISSING',
      'The certificate subject has no serialNumber with the holder RNC, cédula or passport.',
    );
  }
  const keyUsage = certificate.keyUsage ?? [];
  if (!keyUsage.some((usage) => SIGNING_KEY_USAGES.includes(usage))) {
    throw new AppError(
      'CERTIFICATE_KEY_USAGE_INVALID',
      'The certificate key usage includes neither digitalSignature nor nonRepudiation: it cannot sign.',
      { details: { keyUsage } },
    );
  }
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
  return { certificate, holderId, keyUsage };
}

/** What an upload would install, as the certificate's metadata is stored. */
export type TCertificatePreview = {
  subject: string;
  holderId: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  keyUsage: string[];
};

/**
 * What installing this file would put in place, without storing anything (no row, no audit entry,
 * nothing sealed): the portal shows it next to the active certificate before a replacement is
 * confirmed. The same checks and refusals as {@link storeTenantCertificate}.
 */
export function previewTenantCertificate(options: {
  p12: Uint8Array;
  password: string;
  now?: Date;
  /** The portal member asking (must have `certificate.manage`); absent for the admin CLI. */
  actor?: TPortalActor;
}): TCertificatePreview {
  if (options.actor !== undefined) assertCapability(options.actor, 'certificate.manage');
  const { certificate, holderId, keyUsage } = checkedCertificate(
    options.p12,
    options.password,
    options.now ?? new Date(),
  );
  return {
    subject: formatDistinguishedName(certificate.subject),
    holderId,
    serialNumber: certificate.certificateSerialNumber,
    validFrom: certificate.validFrom,
    validTo: certificate.validTo,
    keyUsage,
  };
}

/**
 * Installs a tenant's signing certificate, for the portal (an owner, `actor`) and the admin CLI (an
 * operator: no actor). The file is checked first, each failure with its spec code: password, file,
 * private key, key pair, holder id (subject `serialNumber`), key usage (digitalSignature or
 * nonRepudiation), validity at `now`. A holder other than the tenant's RNC is accepted: a person's
 * certificate delegated for the RNC, which the tax authority checks. Then, in ONE transaction that
 * locks the tenant row, the new row becomes the active one, the previous active row is deactivated
 * and the audit entry is written: the upload installs the certificate or changes nothing. The file
 * and password are sealed under the keyring; neither reaches an error, a log or the audit entry.
 */
export async function storeTenantCertificate(options: {
  database: TDatabase;
  keyring: TCertificateKeyring;
  tenantId: string;
  p12: Uint8Array;
  password: string;
  now?: Date;
  /** The portal member uploading (must have `certificate.manage`); absent for the admin CLI. */
  actor?: TPortalActor;
}): Promise<TTenantCertificateMetadata> {
  const { database, keyring } = options;
  if (options.actor !== undefined) assertCapability(options.actor, 'certificate.manage');
  const now = options.now ?? new Date();
  const { certificate, holderId, keyUsage } = checkedCertificate(options.p12, options.password, now);
  const tenant = await findTenant(database, { id: options.tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');

  const row = { id: randomUUID(), tenantId: tenant.id };
  const p12 = keyring.seal(options.p12, associatedDataOf(row, 'p12'));
  const password = keyring.seal(Buffer.from(options.password, 'utf8'), associatedDataOf(row, 'password'));
  const stored = await insertActiveCertificate(
    database,
    {
      id: row.id,
      tenantId: tenant.id,
      holderId,
      subject: formatDistinguishedName(certificate.subject),
      serialNumber: certificate.certificateSerialNumber,
      validFrom: certificate.validFrom,
      validTo: certificate.validTo,
      keyId: p12.keyId,
      keyUsage,
      encryptedP12: p12.sealed,
      encryptedPassword: password.sealed,
    },
    {
      actorUserId: options.actor?.userId ?? null,
      action: AUDIT_ACTIONS.CERTIFICATE_UPLOADED,
      data: {
        serialNumber: certificate.certificateSerialNumber,
        holderId,
        validTo: certificate.validTo.toISOString(),
        via: options.actor === undefined ? 'admin-cli' : 'portal',
      },
      ip: options.actor?.ip ?? null,
      at: now,
    },
  );
  openedCertificatesOf(keyring).set(stored.id, Promise.resolve(certificate));
  return stored;
}
