/**
 * Portal users (`users`): look-ups by e-mail and id, creation, the brute-force state of an account
 * (failed sign-ins and the lock they cause) and password changes. E-mails arrive lower-cased (the
 * database refuses others).
 */
import { sqlPoolOf, type TDatabase, type TSql } from '@ecf/db';

/** A user as the identity use-cases read it (the hash only for the sign-in check). */
export type TUserRow = {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  isSupport: boolean;
  failedSignInCount: number;
  lockedUntil: Date | null;
  passwordChangedAt: Date;
  createdAt: Date;
};

const USER_COLUMNS = `id, email, name, password_hash AS "passwordHash", is_support AS "isSupport",
  failed_sign_in_count AS "failedSignInCount", locked_until AS "lockedUntil",
  password_changed_at AS "passwordChangedAt", created_at AS "createdAt"`;

/** The user with this (lower-cased) e-mail; null when none. */
export async function findUserByEmail(database: TDatabase, email: string): Promise<TUserRow | null> {
  const { rows } = await sqlPoolOf(database).query<TUserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE email = $1`,
    [email],
  );
  return rows[0] ?? null;
}

/** The user with this id; null when none. */
export async function findUserById(database: TDatabase, id: string): Promise<TUserRow | null> {
  const { rows } = await sqlPoolOf(database).query<TUserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = $1::uuid`,
    [id],
  );
  return rows[0] ?? null;
}

/** Creates a user unless the e-mail has one (`created: false` then); on `sql` (maybe a transaction). */
export async function insertUser(
  sql: TSql,
  input: { email: string; name: string; passwordHash: string; isSupport: boolean; at: Date },
): Promise<{ created: true; user: TUserRow } | { created: false }> {
  const { rows } = await sql.query<TUserRow>(
    `INSERT INTO users (id, email, name, password_hash, is_support, password_changed_at, created_at, updated_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $5, $5)
     ON CONFLICT (email) DO NOTHING
     RETURNING ${USER_COLUMNS}`,
    [input.email, input.name, input.passwordHash, input.isSupport, input.at],
  );
  const user = rows[0];
  return user === undefined ? { created: false } : { created: true, user };
}

/**
 * Counts a failed sign-in of the account and, from the count the policy says, locks it:
 * `lockSeconds[n - 1]` is the lock after the n-th consecutive failure (0: none; past the end of
 * the list, its last value). One statement, so concurrent failures each count.
 */
export async function recordUserSignInFailure(
  database: TDatabase,
  input: { userId: string; at: Date; lockSeconds: readonly number[] },
): Promise<{ failedSignInCount: number; lockedUntil: Date | null }> {
  const { rows } = await sqlPoolOf(database).query<{ failedSignInCount: number; lockedUntil: Date | null }>(
    `UPDATE users SET failed_sign_in_count = failed_sign_in_count + 1,
       locked_until = CASE
         WHEN coalesce(($3::int[])[least(failed_sign_in_count + 1, cardinality($3::int[]))], 0) > 0
         THEN $2::timestamptz + make_interval(secs => ($3::int[])[least(failed_sign_in_count + 1, cardinality($3::int[]))])
         ELSE locked_until END,
       updated_at = $2::timestamptz
     WHERE id = $1::uuid
     RETURNING failed_sign_in_count AS "failedSignInCount", locked_until AS "lockedUntil"`,
    [input.userId, input.at, input.lockSeconds],
  );
  return rows[0] ?? { failedSignInCount: 0, lockedUntil: null };
}

/** A successful sign-in: the failure count and lock start over. */
export async function clearUserSignInFailures(database: TDatabase, userId: string): Promise<void> {
  await sqlPoolOf(database).query(
    `UPDATE users SET failed_sign_in_count = 0, locked_until = NULL
      WHERE id = $1::uuid AND (failed_sign_in_count <> 0 OR locked_until IS NOT NULL)`,
    [userId],
  );
}

/** Sets a new password hash (on `sql`, inside the caller's transaction); the lock starts over. */
export async function updateUserPassword(
  sql: TSql,
  input: { userId: string; passwordHash: string; at: Date },
): Promise<void> {
  await sql.query(
    `UPDATE users SET password_hash = $2, password_changed_at = $3, failed_sign_in_count = 0,
       locked_until = NULL, updated_at = $3 WHERE id = $1::uuid`,
    [input.userId, input.passwordHash, input.at],
  );
}
