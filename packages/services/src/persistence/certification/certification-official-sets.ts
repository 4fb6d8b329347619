/**
 * The catalogue of official sets (migration 0020): data-test workbooks the operator loads, keyed by
 * their `ref` (never reused), retired rather than deleted (the cases on a set keep naming it).
 */
import { sqlPoolOf, type Prisma, type TDatabase } from '@ecf/db';

export type TOfficialSetRow = {
  ref: string;
  name: string;
  description: string;
  issuerRnc: string;
  sha256: string;
  rowCount: number;
  createdAt: Date;
  retiredAt: Date | null;
};

const COLUMNS = `ref, name, description, issuer_rnc AS "issuerRnc", sha256, row_count AS "rowCount",
  created_at AS "createdAt", retired_at AS "retiredAt"`;

/** Stores a new set; null when its ref is taken (by a set in the catalogue or a retired one). */
export async function insertOfficialSet(
  database: TDatabase,
  input: {
    ref: string;
    name: string;
    description: string;
    issuerRnc: string;
    sha256: string;
    content: Uint8Array;
    rows: unknown;
    rowCount: number;
    now: Date;
  },
): Promise<TOfficialSetRow | null> {
  const result = await sqlPoolOf(database).query<TOfficialSetRow>(
    `INSERT INTO certification_official_sets
       (ref, name, description, issuer_rnc, sha256, content, rows, row_count, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)
     ON CONFLICT (ref) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      input.ref,
      input.name,
      input.description,
      input.issuerRnc,
      input.sha256,
      Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength),
      JSON.stringify(input.rows),
      input.rowCount,
      input.now,
    ],
  );
  return result.rows[0] ?? null;
}

/** Every set, oldest first; `retired` false leaves out the retired ones (the catalogue). */
export async function findOfficialSetRows(
  database: TDatabase,
  input: { retired: boolean },
): Promise<TOfficialSetRow[]> {
  const result = await sqlPoolOf(database).query<TOfficialSetRow>(
    `SELECT ${COLUMNS} FROM certification_official_sets
      WHERE $1::boolean OR retired_at IS NULL
      ORDER BY created_at, ref`,
    [input.retired],
  );
  return result.rows;
}

/** A set by its ref (retired ones included) with its rows, or null. */
export async function findOfficialSetRow(
  database: TDatabase,
  ref: string,
): Promise<(TOfficialSetRow & { rows: Prisma.JsonValue }) | null> {
  const result = await sqlPoolOf(database).query<TOfficialSetRow & { rows: Prisma.JsonValue }>(
    `SELECT ${COLUMNS}, rows FROM certification_official_sets WHERE ref = $1`,
    [ref],
  );
  return result.rows[0] ?? null;
}

/** The bytes of a set as loaded. */
export async function readOfficialSetContent(database: TDatabase, ref: string): Promise<Buffer> {
  const result = await sqlPoolOf(database).query<{ content: Buffer }>(
    `SELECT content FROM certification_official_sets WHERE ref = $1`,
    [ref],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error(`official set ${ref} not found`);
  return row.content;
}

/** Retires a set (once: a second retire keeps the first time); null when there is no such ref. */
export async function retireOfficialSetRow(
  database: TDatabase,
  input: { ref: string; now: Date },
): Promise<(TOfficialSetRow & { openCases: number }) | null> {
  const result = await sqlPoolOf(database).query<TOfficialSetRow & { openCases: number }>(
    `WITH retired AS (
       UPDATE certification_official_sets SET retired_at = COALESCE(retired_at, $2)
        WHERE ref = $1 RETURNING ${COLUMNS})
     SELECT retired.*, (SELECT count(*)::int FROM certification_cases
                         WHERE official_set_ref = $1 AND state <> 'closed') AS "openCases"
       FROM retired`,
    [input.ref, input.now],
  );
  return result.rows[0] ?? null;
}
