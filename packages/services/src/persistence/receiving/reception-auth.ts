/**
 * The optional authentication of our reception routes (FACTS §2; docs/receiving.md): seeds we
 * issued (`reception_seeds`, single use, short-lived) and the tokens given for a validated signed
 * seed (`reception_tokens`, only their SHA-256).
 */
import { sqlPoolOf, type Environment, type TDatabase } from '@ecf/db';

/** Stores an issued seed value until `expiresAt`. */
export async function insertReceptionSeed(
  database: TDatabase,
  input: { value: string; environment: Environment; issuedAt: Date; expiresAt: Date },
): Promise<void> {
  await sqlPoolOf(database).query(
    `INSERT INTO reception_seeds (value, environment, issued_at, expires_at)
     VALUES ($1, $2::"Environment", $3::timestamptz, $4::timestamptz)`,
    [input.value, input.environment, input.issuedAt, input.expiresAt],
  );
}

/**
 * Marks a seed used, once: `used` when it was ours, unused and unexpired in this environment (one
 * guarded update, so two posts of the same seed cannot both win); otherwise why not.
 */
export async function consumeReceptionSeed(
  database: TDatabase,
  input: { value: string; environment: Environment; at: Date },
): Promise<'used' | 'unknown' | 'expired' | 'already_used'> {
  const pool = sqlPoolOf(database);
  const { rowCount } = await pool.query(
    `UPDATE reception_seeds SET used_at = $3::timestamptz
      WHERE value = $1 AND environment = $2::"Environment" AND used_at IS NULL AND expires_at > $3::timestamptz`,
    [input.value, input.environment, input.at],
  );
  if ((rowCount ?? 0) === 1) return 'used';
  const { rows } = await pool.query<{ used_at: Date | null }>(
    'SELECT used_at FROM reception_seeds WHERE value = $1 AND environment = $2::"Environment"',
    [input.value, input.environment],
  );
  const row = rows[0];
  if (row === undefined) return 'unknown';
  return row.used_at === null ? 'expired' : 'already_used';
}

/** Stores a token's SHA-256 with its holder and expiry. */
export async function insertReceptionToken(
  database: TDatabase,
  input: { tokenSha256: string; environment: Environment; holderId: string; issuedAt: Date; expiresAt: Date },
): Promise<void> {
  await sqlPoolOf(database).query(
    `INSERT INTO reception_tokens (token_sha256, environment, holder_id, issued_at, expires_at)
     VALUES ($1, $2::"Environment", $3, $4::timestamptz, $5::timestamptz)`,
    [input.tokenSha256, input.environment, input.holderId, input.issuedAt, input.expiresAt],
  );
}

/** The holder of an unexpired token of this environment, or null. */
export async function findReceptionToken(
  database: TDatabase,
  input: { tokenSha256: string; environment: Environment; at: Date },
): Promise<{ holderId: string; expiresAt: Date } | null> {
  const { rows } = await sqlPoolOf(database).query<{ holder_id: string; expires_at: Date }>(
    `SELECT holder_id, expires_at FROM reception_tokens
      WHERE token_sha256 = $1 AND environment = $2::"Environment" AND expires_at > $3::timestamptz`,
    [input.tokenSha256, input.environment, input.at],
  );
  const row = rows[0];
  return row === undefined ? null : { holderId: row.holder_id, expiresAt: row.expires_at };
}

/**
 * Deletes seeds and tokens that expired before `before` (the purge job; the public seed route
 * inserts a row per call). Answers how many of each.
 */
export async function deleteExpiredReceptionCredentials(
  database: TDatabase,
  before: Date,
): Promise<{ receptionSeeds: number; receptionTokens: number }> {
  const pool = sqlPoolOf(database);
  const seeds = await pool.query('DELETE FROM reception_seeds WHERE expires_at < $1::timestamptz', [before]);
  const tokens = await pool.query('DELETE FROM reception_tokens WHERE expires_at < $1::timestamptz', [
    before,
  ]);
  return { receptionSeeds: seeds.rowCount ?? 0, receptionTokens: tokens.rowCount ?? 0 };
}
