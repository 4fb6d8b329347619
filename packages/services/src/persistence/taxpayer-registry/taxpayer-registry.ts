/**
 * The tax authority's taxpayer registry (RNC and cédulas), loaded by `importTaxpayerRegistry`:
 * each load is an import whose rows are streamed with COPY into `taxpayer_registry_entries`; the
 * current registry is the last COMPLETED import, so readers switch from the old rows to the new ones
 * at the commit of one UPDATE (atomic, never blocked). Older imports' rows are deleted afterwards.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { prepared, sqlPoolOf, type TDatabase } from '@ecf/db';

/** Starts an import (not current until completed). */
export async function insertRegistryImport(
  database: TDatabase,
  input: { fileName: string; at: Date },
): Promise<string> {
  const { rows } = await sqlPoolOf(database).query<{ id: string }>(
    `INSERT INTO taxpayer_registry_imports (id, file_name, started_at) VALUES (gen_random_uuid(), $1, $2) RETURNING id::text`,
    [input.fileName.slice(0, 500), input.at],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the registry import was not inserted');
  return id;
}

/**
 * Streams `rows` (COPY text format lines: `import_id \t rnc \t name \t trade_name \t activity \t status \n`,
 * the caller escapes) into the import's entries with ONE COPY statement on one connection: it lands
 * whole or not at all. Returns the number of rows copied.
 */
export async function copyRegistryEntries(
  database: TDatabase,
  input: { importId: string; lines: Readable },
): Promise<number> {
  const client = await sqlPoolOf(database).connect();
  try {
    const copy = client.query(
      copyFrom(
        `COPY taxpayer_registry_entries (import_id, rnc, name, trade_name, activity, status) FROM STDIN WITH (FORMAT text)`,
      ),
    );
    await pipeline(input.lines, copy);
    return copy.rowCount;
  } finally {
    client.release();
  }
}

/**
 * Makes the import current (one UPDATE: readers see the old registry until it commits, then the
 * new one) and deletes every other import's rows and rows of imports that never completed.
 */
export async function completeRegistryImport(
  database: TDatabase,
  input: { importId: string; rows: number; at: Date },
): Promise<{ deletedRows: number }> {
  const pool = sqlPoolOf(database);
  await pool.query(`UPDATE taxpayer_registry_imports SET completed_at = $2, rows = $3 WHERE id = $1::uuid`, [
    input.importId,
    input.at,
    input.rows,
  ]);
  const deleted = await pool.query(`DELETE FROM taxpayer_registry_entries WHERE import_id <> $1::uuid`, [
    input.importId,
  ]);
  await pool.query(`DELETE FROM taxpayer_registry_imports WHERE id <> $1::uuid`, [input.importId]);
  return { deletedRows: deleted.rowCount ?? 0 };
}

/** Removes an import that failed (its rows, if any COPY landed, and its row). */
export async function discardRegistryImport(database: TDatabase, importId: string): Promise<void> {
  const pool = sqlPoolOf(database);
  await pool.query(`DELETE FROM taxpayer_registry_entries WHERE import_id = $1::uuid`, [importId]);
  await pool.query(`DELETE FROM taxpayer_registry_imports WHERE id = $1::uuid AND completed_at IS NULL`, [
    importId,
  ]);
}

/** The current import, or null when no registry was ever loaded. */
export async function findCurrentRegistryImport(
  database: TDatabase,
): Promise<{ id: string; fileName: string; rows: number; completedAt: Date } | null> {
  const { rows } = await sqlPoolOf(database).query<{
    id: string;
    fileName: string;
    rows: number;
    completedAt: Date;
  }>(
    prepared(
      `SELECT id::text AS "id", file_name AS "fileName", rows, completed_at AS "completedAt"
         FROM taxpayer_registry_imports WHERE completed_at IS NOT NULL ORDER BY completed_at DESC LIMIT 1`,
      [],
    ),
  );
  return rows[0] ?? null;
}

/** A taxpayer of an import, or null when its RNC is not there. */
export async function findRegistryEntry(
  database: TDatabase,
  input: { importId: string; rnc: string },
): Promise<{
  rnc: string;
  name: string;
  tradeName: string | null;
  activity: string | null;
  status: string;
} | null> {
  const { rows } = await sqlPoolOf(database).query<{
    rnc: string;
    name: string;
    tradeName: string | null;
    activity: string | null;
    status: string;
  }>(
    prepared(
      `SELECT rnc, name, trade_name AS "tradeName", activity, status FROM taxpayer_registry_entries
        WHERE import_id = $1::uuid AND rnc = $2`,
      [input.importId, input.rnc],
    ),
  );
  return rows[0] ?? null;
}
