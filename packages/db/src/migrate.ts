import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/** The folder holding one sub-folder per migration, each with a `migration.sql`. */
export const MIGRATIONS_DIRECTORY = path.join(import.meta.dirname, '..', 'migrations');

/** Table where applied migrations are recorded (not part of the Prisma schema on purpose). */
const LEDGER = '_ecf_migrations';
/** Arbitrary constant: one migrator at a time per database (for the public schema). */
const ADVISORY_LOCK_KEY = 7_314_159_265;
/** A schema name the migrator accepts (it is quoted, never interpolated raw). */
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The ledger's qualified name: in `schema` when given, else the public one (search path). */
function ledgerOf(schema: string | undefined): string {
  return schema === undefined ? `"${LEDGER}"` : `"${schema}"."${LEDGER}"`;
}

export type TMigrationFile = { id: string; sql: string; checksum: string };
export type TMigrationStatus = {
  applied: string[];
  pending: string[];
  /** Applied migrations whose file changed since they were applied. */
  modified: string[];
  /** Applied migrations whose file no longer exists. */
  missing: string[];
};

/** Reads the migration folders in order (their names start with a sortable number). */
export async function readMigrationFiles(directory = MIGRATIONS_DIRECTORY): Promise<TMigrationFile[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    folders.map(async (id) => {
      const sql = await readFile(path.join(directory, id, 'migration.sql'), 'utf8');
      return { id, sql, checksum: checksumOf(sql) };
    }),
  );
}

function checksumOf(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

type TQueryable = Pick<pg.ClientBase, 'query'>;

async function ensureLedger(client: TQueryable, schema: string | undefined): Promise<void> {
  if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${ledgerOf(schema)} (
    id text PRIMARY KEY,
    checksum char(64) NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    duration_ms integer NOT NULL
  )`);
}

async function readLedger(client: TQueryable, schema: string | undefined): Promise<Map<string, string>> {
  const exists = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
    ledgerOf(schema),
  ]);
  if (!exists.rows[0]?.present) return new Map();
  const rows = await client.query<{ id: string; checksum: string }>(
    `SELECT id, checksum FROM ${ledgerOf(schema)}`,
  );
  return new Map(rows.rows.map((row) => [row.id, row.checksum]));
}

/** Compares the migration files with what the database (or `schema`) recorded. Read-only. */
export async function getMigrationStatus(
  client: TQueryable,
  files?: TMigrationFile[],
  schema?: string,
): Promise<TMigrationStatus> {
  const migrationFiles = files ?? (await readMigrationFiles());
  const ledger = await readLedger(client, schema);
  const onDisk = new Set(migrationFiles.map((file) => file.id));
  return {
    applied: migrationFiles.filter((file) => ledger.has(file.id)).map((file) => file.id),
    pending: migrationFiles.filter((file) => !ledger.has(file.id)).map((file) => file.id),
    modified: migrationFiles
      .filter((file) => ledger.has(file.id) && ledger.get(file.id) !== file.checksum)
      .map((file) => file.id),
    missing: [...ledger.keys()].filter((id) => !onDisk.has(id)).sort(),
  };
}

/** Raised when the recorded history and the files disagree; nothing is applied then. */
export class MigrationHistoryError extends Error {
  override readonly name = 'MigrationHistoryError';
}

/**
 * Applies pending migrations in order, each in its own transaction, recording its checksum.
 * Refuses to run when an applied migration was edited or deleted: history is never rewritten.
 * Concurrent callers serialize on an advisory lock, so two processes starting together are safe.
 *
 * With `schema`, the migrations of `directory` belong to that schema: it is created when absent,
 * its ledger lives in it, each migration runs with `search_path` set to it (so the files name no
 * schema and work under any configured name), and the lock is the schema's own.
 */
export async function migrate(options: {
  databaseUrl: string;
  directory?: string;
  schema?: string;
  log?: (message: string) => void;
}): Promise<{ applied: string[] }> {
  const log = options.log ?? (() => {});
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema))
    throw new TypeError(`invalid schema name: ${schema}`);
  const files = await readMigrationFiles(options.directory);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const lock =
    schema === undefined
      ? {
          text: 'SELECT pg_advisory_lock($1)',
          unlock: 'SELECT pg_advisory_unlock($1)',
          key: ADVISORY_LOCK_KEY,
        }
      : {
          text: 'SELECT pg_advisory_lock(hashtext($1))',
          unlock: 'SELECT pg_advisory_unlock(hashtext($1))',
          key: `ecf-migrate:${schema}`,
        };
  try {
    await client.query(lock.text, [lock.key]);
    await ensureLedger(client, schema);
    const status = await getMigrationStatus(client, files, schema);
    if (status.modified.length > 0) {
      throw new MigrationHistoryError(
        `applied migrations were edited after being applied: ${status.modified.join(', ')}. ` +
          'Never edit an applied migration; create a new one.',
      );
    }
    if (status.missing.length > 0) {
      throw new MigrationHistoryError(
        `applied migrations are missing from disk: ${status.missing.join(', ')}`,
      );
    }
    const applied: string[] = [];
    for (const file of files.filter((candidate) => status.pending.includes(candidate.id))) {
      const started = performance.now();
      await client.query('BEGIN');
      try {
        if (schema !== undefined) await client.query(`SET LOCAL search_path TO "${schema}"`);
        await client.query(file.sql);
        await client.query(
          `INSERT INTO ${ledgerOf(schema)} (id, checksum, duration_ms) VALUES ($1, $2, $3)`,
          [file.id, file.checksum, Math.round(performance.now() - started)],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file.id} failed and was rolled back: ${(error as Error).message}`, {
          cause: error,
        });
      }
      applied.push(file.id);
      log(`applied ${file.id}`);
    }
    return { applied };
  } finally {
    await client.query(lock.unlock, [lock.key]).catch(() => {});
    await client.end();
  }
}

/** Creates the database named in the URL when it does not exist yet (connecting to `postgres`). */
export async function ensureDatabase(databaseUrl: string): Promise<{ created: boolean }> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) throw new Error(`unsupported database name in DATABASE_URL`);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return { created: false };
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } catch (error) {
      // Another process created it between our check and our CREATE.
      if ((error as { code?: string }).code === '42P04') return { created: false };
      throw error;
    }
    return { created: true };
  } finally {
    await client.end();
  }
}
