/**
 * Certificate upload sessions of the Partner API: the session (SHA-256 of its upload token only),
 * its attempts (a guarded increment: never more than five) and its completion.
 */
import { sqlPoolOf, type PartnerStatus, type TDatabase } from '@ecf/db';

export type TUploadSessionRow = {
  id: string;
  partnerId: string;
  tenantId: string;
  purpose: 'upload' | 'rotation';
  browserOrigin: string;
  tokenHash: string;
  attemptsUsed: number;
  maxAttempts: number;
  expiresAt: Date;
  completedAt: Date | null;
  createdAt: Date;
  partnerStatus: PartnerStatus;
};

const COLUMNS = `s.id::text AS "id", s.partner_id::text AS "partnerId", s.tenant_id::text AS "tenantId", s.purpose,
  s.browser_origin AS "browserOrigin", s.token_hash AS "tokenHash", s.attempts_used AS "attemptsUsed",
  s.max_attempts AS "maxAttempts", s.expires_at AS "expiresAt", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", p.status::text AS "partnerStatus"`;

/** Starts a session. */
export async function insertUploadSession(
  database: TDatabase,
  input: {
    partnerId: string;
    tenantId: string;
    purpose: 'upload' | 'rotation';
    browserOrigin: string;
    tokenHash: string;
    expiresAt: Date;
    at: Date;
  },
): Promise<TUploadSessionRow> {
  const { rows } = await sqlPoolOf(database).query<TUploadSessionRow>(
    `WITH s AS (
       INSERT INTO certificate_upload_sessions (id, partner_id, tenant_id, purpose, browser_origin, token_hash, expires_at, created_at)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, $5, $6, $7) RETURNING *)
     SELECT ${COLUMNS} FROM s JOIN partners p ON p.id = s.partner_id`,
    [
      input.partnerId,
      input.tenantId,
      input.purpose,
      input.browserOrigin,
      input.tokenHash,
      input.expiresAt,
      input.at,
    ],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the upload session was not inserted');
  return row;
}

/** A session by id with its Partner's standing; null when absent. */
export async function findUploadSession(
  database: TDatabase,
  uploadId: string,
): Promise<TUploadSessionRow | null> {
  const { rows } = await sqlPoolOf(database).query<TUploadSessionRow>(
    `SELECT ${COLUMNS} FROM certificate_upload_sessions s JOIN partners p ON p.id = s.partner_id WHERE s.id = $1::uuid`,
    [uploadId],
  );
  return rows[0] ?? null;
}

/** Uses one attempt of an open session (guarded: never past its maximum); the attempts used after it, or null. */
export async function useUploadAttempt(
  database: TDatabase,
  input: { uploadId: string },
): Promise<number | null> {
  const { rows } = await sqlPoolOf(database).query<{ attempts: number }>(
    `UPDATE certificate_upload_sessions SET attempts_used = attempts_used + 1
      WHERE id = $1::uuid AND completed_at IS NULL AND attempts_used < max_attempts RETURNING attempts_used AS attempts`,
    [input.uploadId],
  );
  return rows[0]?.attempts ?? null;
}

/** Completes a session with the certificate it installed. */
export async function completeUploadSession(
  database: TDatabase,
  input: { uploadId: string; certificateId: string; at: Date },
): Promise<void> {
  await sqlPoolOf(database).query(
    `UPDATE certificate_upload_sessions SET completed_at = $3, certificate_id = $2::uuid, attempts_used = LEAST(attempts_used + 1, max_attempts)
      WHERE id = $1::uuid AND completed_at IS NULL`,
    [input.uploadId, input.certificateId, input.at],
  );
}
