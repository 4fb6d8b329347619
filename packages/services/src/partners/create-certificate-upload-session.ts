import { randomBytes } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import { findPartnerBrowserOriginRows, insertUploadSession } from '../persistence/index.ts';
import { findTenantCertificates } from '../accounts/index.ts';
import { AppError } from '../shared/errors.ts';
import { exactBrowserOrigin, hashPartnerKey } from './partner-rules.ts';

/** How long an upload session lasts. */
export const UPLOAD_SESSION_TTL_SECONDS = 30 * 60;
/** Attempts of a session (spec Limits: certificate upload session, 5 attempts). */
export const UPLOAD_SESSION_ATTEMPTS = 5;

/**
 * `POST .../certificate-upload-sessions` (`purpose: upload`) and `.../certificate-rotation-requests`
 * (`rotation`: an active certificate must exist, else 409 `CERTIFICATE_NOT_ACTIVE`): a session for
 * one account, bound to an exact HTTPS `browserOrigin` (400 `INVALID_BROWSER_ORIGIN`) among the
 * Partner's registered origins (422 `BROWSER_ORIGIN_NOT_ALLOWED`). The upload token is returned
 * ONCE; only its SHA-256 is kept.
 */
export async function createCertificateUploadSession(options: {
  database: TDatabase;
  partnerId: string;
  tenantId: string;
  browserOrigin: string;
  purpose: 'upload' | 'rotation';
  now?: () => Date;
}) {
  const origin = exactBrowserOrigin(options.browserOrigin);
  const registered = await findPartnerBrowserOriginRows(options.database, options.partnerId);
  if (!registered.some((row) => row.origin === origin))
    throw new AppError(
      'BROWSER_ORIGIN_NOT_ALLOWED',
      `${origin} is not among the Partner's registered browser origins.`,
      {
        details: { browserOrigin: origin },
      },
    );
  if (options.purpose === 'rotation') {
    const certificates = await findTenantCertificates({
      database: options.database,
      tenantId: options.tenantId,
    });
    if (!certificates.some((certificate) => certificate.active))
      throw new AppError(
        'CERTIFICATE_NOT_ACTIVE',
        'The account has no certificate to rotate: open an upload session.',
      );
  }
  const at = (options.now ?? (() => new Date()))();
  const uploadToken = `ecfu_${randomBytes(32).toString('base64url')}`;
  const row = await insertUploadSession(options.database, {
    partnerId: options.partnerId,
    tenantId: options.tenantId,
    purpose: options.purpose,
    browserOrigin: origin,
    tokenHash: hashPartnerKey(uploadToken),
    expiresAt: new Date(at.getTime() + UPLOAD_SESSION_TTL_SECONDS * 1000),
    at,
  });
  return {
    uploadId: row.id,
    uploadToken,
    browserOrigin: row.browserOrigin,
    purpose: row.purpose,
    maxAttempts: row.maxAttempts,
    expiresAt: row.expiresAt,
  };
}
