/**
 * Password resets (`password_resets`): the SHA-256 of each e-mailed token, single use and expiring.
 * Completing one is a guarded update (unused, not expired) that, in the same transaction, sets the
 * new password, signs the user out everywhere and writes the audit entry.
 */
import { inSqlTransaction, sqlPoolOf, type TDatabase } from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';
import { revokeUserSessionRows } from './portal-sessions.ts';
import { updateUserPassword } from './users.ts';

/** Stores a reset for the user. */
export async function insertPasswordReset(
  database: TDatabase,
  input: { userId: string; tokenHash: string; at: Date; expiresAt: Date },
): Promise<void> {
  await sqlPoolOf(database).query(
    `INSERT INTO password_resets (id, user_id, token_hash, expires_at, created_at)
     VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4)`,
    [input.userId, input.tokenHash, input.expiresAt, input.at],
  );
}

/** A reset by its token's hash (for telling an expired link from a used or unknown one). */
export async function findPasswordReset(
  database: TDatabase,
  tokenHash: string,
): Promise<{ userId: string; expiresAt: Date; usedAt: Date | null } | null> {
  const { rows } = await sqlPoolOf(database).query<{ userId: string; expiresAt: Date; usedAt: Date | null }>(
    `SELECT user_id AS "userId", expires_at AS "expiresAt", used_at AS "usedAt" FROM password_resets WHERE token_hash = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/**
 * Uses the reset: when it is unused and not expired at `at`, sets the password, revokes every
 * session of the user and appends the audit entry; null (nothing written) otherwise.
 */
export async function consumePasswordReset(
  database: TDatabase,
  input: {
    tokenHash: string;
    passwordHash: string;
    at: Date;
    audit: Omit<TAuditEntryInput, 'actorUserId' | 'tenantId' | 'targetType' | 'targetId' | 'at'>;
  },
): Promise<{ userId: string; sessionsRevoked: number } | null> {
  return inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<{ user_id: string }>(
      `UPDATE password_resets SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING user_id`,
      [input.tokenHash, input.at],
    );
    const userId = rows[0]?.user_id;
    if (userId === undefined) return null;
    await updateUserPassword(sql, { userId, passwordHash: input.passwordHash, at: input.at });
    // The other links of this user stop working too: the password they would reset was just set.
    await sql.query(`UPDATE password_resets SET used_at = $2 WHERE user_id = $1::uuid AND used_at IS NULL`, [
      userId,
      input.at,
    ]);
    const sessionsRevoked = await revokeUserSessionRows(sql, { userId, at: input.at });
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: null,
      actorUserId: userId,
      targetType: 'user',
      targetId: userId,
      data: { ...input.audit.data, sessionsRevoked },
      at: input.at,
    });
    return { userId, sessionsRevoked };
  });
}
