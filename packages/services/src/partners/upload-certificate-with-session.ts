import { timingSafeEqual } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import { storeTenantCertificate, type TCertificateKeyring } from '../accounts/index.ts';
import {
  completeUploadSession,
  findUploadSession,
  useUploadAttempt,
  type TTenantCertificateMetadata,
  type TUploadSessionRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { hashPartnerKey } from './partner-rules.ts';

/** The session an upload names, checked before any attempt: token, completion, expiry, Partner, attempts. */
export async function openUploadSession(options: {
  database: TDatabase;
  uploadId: string;
  uploadToken: string | undefined;
  now: Date;
}): Promise<TUploadSessionRow> {
  const invalid = (reason: string) =>
    new AppError('UPLOAD_SESSION_INVALID', 'Send Authorization: Upload <uploadToken> of an open session.', {
      details: { reason },
    });
  if (options.uploadToken === undefined || options.uploadToken === '') throw invalid('token_missing');
  const session = isUuid(options.uploadId)
    ? await findUploadSession(options.database, options.uploadId.toLowerCase())
    : null;
  const given = Buffer.from(hashPartnerKey(options.uploadToken), 'hex');
  if (session === null || !timingSafeEqual(given, Buffer.from(session.tokenHash, 'hex')))
    throw invalid('token_invalid');
  if (session.completedAt !== null) throw invalid('session_completed');
  if (session.expiresAt.getTime() <= options.now.getTime())
    throw new AppError('UPLOAD_SESSION_EXPIRED', 'This upload session expired; ask for a new one.', {
      details: { expiredAt: session.expiresAt.toISOString() },
    });
  if (session.partnerStatus !== 'active')
    throw new AppError('PARTNER_INACTIVE', 'The Partner was suspended: the upload session no longer works.');
  if (session.attemptsUsed >= session.maxAttempts)
    throw new AppError(
      'UPLOAD_SESSION_EXHAUSTED',
      'The five attempts of this session are used; ask for a new one.',
      {
        details: { attemptsRemaining: 0 },
      },
    );
  return session;
}

/**
 * `PUT /certificate-upload-sessions/{uploadId}`: the certificate installed through THE portal
 * use-case (`storeTenantCertificate`: the same checks and codes). A certificate refusal (wrong
 * password, file, key usage, validity...) uses one of the five attempts and carries
 * `details.attemptsRemaining`; the session stays open until a certificate is installed or the
 * attempts run out. The installation emits `certificate.validated` (migration 0017's trigger).
 */
export async function uploadCertificateWithSession(options: {
  database: TDatabase;
  keyring: TCertificateKeyring;
  uploadId: string;
  uploadToken: string | undefined;
  p12: Uint8Array;
  password: string;
  now?: () => Date;
}): Promise<{ session: TUploadSessionRow; certificate: TTenantCertificateMetadata }> {
  const now = (options.now ?? (() => new Date()))();
  const session = await openUploadSession({ ...options, now });
  let certificate: TTenantCertificateMetadata;
  try {
    certificate = await storeTenantCertificate({
      database: options.database,
      keyring: options.keyring,
      tenantId: session.tenantId,
      p12: options.p12,
      password: options.password,
      now,
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 422 && error.code.startsWith('CERTIFICATE_')) {
      const used = await useUploadAttempt(options.database, { uploadId: session.id });
      throw new AppError(error.code, error.message, {
        details: {
          ...error.details,
          attemptsRemaining: Math.max(0, session.maxAttempts - (used ?? session.maxAttempts)),
        },
      });
    }
    throw error;
  }
  await completeUploadSession(options.database, {
    uploadId: session.id,
    certificateId: certificate.id,
    at: now,
  });
  return { session, certificate };
}
