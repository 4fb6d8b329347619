/**
 * Portal exports (`portal_exports`, issue 27): the request row, its progress, the finished file
 * (bytea with its SHA-256) and the reads only exports need (signed XML of a page of issued
 * documents, received XML by artifact id, a range of the audit log). A row is read only by the
 * user who asked, in the tenant it was asked in.
 */
import {
  inSqlTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  type Environment,
  type TDatabase,
  type TEnqueue,
} from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';

export type TPortalExportStatus = 'queued' | 'running' | 'ready' | 'failed';

/** An export as read back, without its bytes. */
export type TPortalExportRow = {
  id: string;
  tenantId: string;
  userId: string;
  kind: string;
  format: string;
  environment: Environment | null;
  parameters: Record<string, unknown>;
  status: TPortalExportStatus;
  rowsTotal: number | null;
  rowsDone: number;
  fileName: string | null;
  sha256: string | null;
  sizeBytes: number | null;
  error: string | null;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date;
};

const COLUMNS = `id::text, tenant_id::text AS "tenantId", user_id::text AS "userId", kind, format, environment::text AS environment,
  parameters, status, rows_total AS "rowsTotal", rows_done AS "rowsDone", file_name AS "fileName", sha256, size_bytes AS "sizeBytes",
  error, created_at AS "createdAt", completed_at AS "completedAt", expires_at AS "expiresAt"`;

export type TNewPortalExport = {
  tenantId: string;
  userId: string;
  kind: string;
  format: string;
  environment: Environment | null;
  parameters: Record<string, unknown>;
  at: Date;
  expiresAt: Date;
  /** A file built in the request: the row is written `ready` with it. */
  file?: { fileName: string; content: Uint8Array; sha256: string; rows: number };
};

/**
 * Writes an export with its audit entry in one transaction; a queued one (no `file`) gets its
 * `export.build` job in the same transaction, so neither exists without the other.
 */
export async function insertPortalExport(
  database: TDatabase,
  input: TNewPortalExport & {
    audit: Omit<TAuditEntryInput, 'targetId'>;
    enqueue?: TEnqueue;
  },
): Promise<string> {
  return inSqlTransaction(database, async (sql) => {
    const file = input.file;
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO portal_exports (id, tenant_id, user_id, kind, format, environment, parameters, status, rows_total, rows_done,
         file_name, content, sha256, size_bytes, created_at, completed_at, expires_at)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $4, $5::"Environment", $6::jsonb, $7, $8, $9, $10, $11, $12, $13,
         $14::timestamptz, $15::timestamptz, $16::timestamptz)
       RETURNING id::text`,
      [
        input.tenantId,
        input.userId,
        input.kind,
        input.format,
        input.environment,
        JSON.stringify(input.parameters),
        file ? 'ready' : 'queued',
        file ? file.rows : null,
        file ? file.rows : 0,
        file ? file.fileName : null,
        file ? Buffer.from(file.content) : null,
        file ? file.sha256 : null,
        file ? file.content.byteLength : null,
        input.at,
        file ? input.at : null,
        input.expiresAt,
      ],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('the export was not inserted');
    await insertAuditEntry(sql, { ...input.audit, targetId: id });
    if (!file) {
      if (input.enqueue === undefined) throw new Error('a queued export needs the enqueue function');
      await input.enqueue([{ name: 'export.build', payload: { exportId: id } }], {
        executor: jobExecutorOfSql(sql),
      });
    }
    return id;
  });
}

/** An export of this user in this tenant (null otherwise: another user's id is unknown here). */
export async function findPortalExport(
  database: TDatabase,
  input: { id: string; tenantId: string; userId: string },
): Promise<TPortalExportRow | null> {
  const { rows } = await sqlPoolOf(database).query<TPortalExportRow>(
    `SELECT ${COLUMNS} FROM portal_exports WHERE id = $1::uuid AND tenant_id = $2::uuid AND user_id = $3::uuid`,
    [input.id, input.tenantId, input.userId],
  );
  return rows[0] ?? null;
}

/** An export by id alone (the job's read). */
export async function findPortalExportForJob(
  database: TDatabase,
  id: string,
): Promise<TPortalExportRow | null> {
  const { rows } = await sqlPoolOf(database).query<TPortalExportRow>(
    `SELECT ${COLUMNS} FROM portal_exports WHERE id = $1::uuid`,
    [id],
  );
  return rows[0] ?? null;
}

/** The finished file's bytes of this user's export in this tenant, with its recorded SHA-256. */
export async function findPortalExportContent(
  database: TDatabase,
  input: { id: string; tenantId: string; userId: string },
): Promise<{ content: Buffer; sha256: string } | null> {
  const { rows } = await sqlPoolOf(database).query<{ content: Buffer | null; sha256: string | null }>(
    `SELECT content, sha256 FROM portal_exports
      WHERE id = $1::uuid AND tenant_id = $2::uuid AND user_id = $3::uuid AND status = 'ready'`,
    [input.id, input.tenantId, input.userId],
  );
  const row = rows[0];
  return row?.content && row.sha256 ? { content: row.content, sha256: row.sha256 } : null;
}

/** Progress of a running export (`running`, how many rows of how many). Only a row not yet finished moves. */
export async function updatePortalExportProgress(
  database: TDatabase,
  input: { id: string; rowsDone: number; rowsTotal: number | null },
): Promise<void> {
  await sqlPoolOf(database).query(
    `UPDATE portal_exports SET status = 'running', rows_done = $2, rows_total = COALESCE($3, rows_total)
      WHERE id = $1::uuid AND status IN ('queued', 'running')`,
    [input.id, input.rowsDone, input.rowsTotal],
  );
}

/** Stores the finished file (`ready`). */
export async function completePortalExport(
  database: TDatabase,
  input: { id: string; fileName: string; content: Uint8Array; sha256: string; rows: number; at: Date },
): Promise<void> {
  await sqlPoolOf(database).query(
    `UPDATE portal_exports SET status = 'ready', rows_done = $2, rows_total = $2, file_name = $3, content = $4,
            sha256 = $5, size_bytes = $6, completed_at = $7::timestamptz
      WHERE id = $1::uuid AND status IN ('queued', 'running')`,
    [
      input.id,
      input.rows,
      input.fileName,
      Buffer.from(input.content),
      input.sha256,
      input.content.byteLength,
      input.at,
    ],
  );
}

/** Marks an export failed with the cause (for operators). */
export async function failPortalExport(
  database: TDatabase,
  input: { id: string; error: string; at: Date },
): Promise<void> {
  await sqlPoolOf(database).query(
    `UPDATE portal_exports SET status = 'failed', error = $2, completed_at = $3::timestamptz
      WHERE id = $1::uuid AND status IN ('queued', 'running')`,
    [input.id, input.error.slice(0, 2000), input.at],
  );
}

/** Deletes exports (and their files) expired before `before`. */
export async function deleteExpiredPortalExports(database: TDatabase, before: Date): Promise<number> {
  const result = await sqlPoolOf(database).query(
    `DELETE FROM portal_exports WHERE expires_at < $1::timestamptz`,
    [before],
  );
  return result.rowCount ?? 0;
}

/** The latest signed XML of each of these documents of the tenant, by document id. */
export async function findSignedXmlByDocument(
  database: TDatabase,
  input: { tenantId: string; documentIds: string[] },
): Promise<Map<string, Buffer>> {
  if (input.documentIds.length === 0) return new Map();
  const { rows } = await sqlPoolOf(database).query<{ documentId: string; content: Buffer }>(
    `SELECT DISTINCT ON (document_id) document_id::text AS "documentId", content FROM artifacts
      WHERE tenant_id = $1::uuid AND document_id = ANY($2::uuid[]) AND kind = 'signed_xml'
      ORDER BY document_id, created_at DESC`,
    [input.tenantId, input.documentIds],
  );
  return new Map(rows.map((row) => [row.documentId, row.content]));
}

/** Artifacts' bytes of the tenant by artifact id (the received XML as it arrived). */
export async function findArtifactContents(
  database: TDatabase,
  input: { tenantId: string; artifactIds: string[] },
): Promise<Map<string, Buffer>> {
  if (input.artifactIds.length === 0) return new Map();
  const { rows } = await sqlPoolOf(database).query<{ id: string; content: Buffer }>(
    `SELECT id::text, content FROM artifacts WHERE tenant_id = $1::uuid AND id = ANY($2::uuid[])`,
    [input.tenantId, input.artifactIds],
  );
  return new Map(rows.map((row) => [row.id, row.content]));
}

/** An audit log entry as exported. */
export type TAuditExportRow = {
  id: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  data: Record<string, unknown>;
  ip: string | null;
  createdAt: Date;
  actorEmail: string | null;
  actorName: string | null;
  actorIsSupport: boolean | null;
};

type TAuditRange = { tenantId: string; from: Date | null; to: Date | null; action: string | null };

/** How many of a tenant's audit entries are in the range (counting at most `cap` + 1). */
export async function countAuditEntriesInRange(
  database: TDatabase,
  input: TAuditRange & { cap: number },
): Promise<number> {
  const { rows } = await sqlPoolOf(database).query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (
       SELECT 1 FROM portal_audit_log
        WHERE tenant_id = $1::uuid AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
          AND ($3::timestamptz IS NULL OR created_at < $3::timestamptz) AND ($4::text IS NULL OR action = $4)
        LIMIT $5) matched`,
    [input.tenantId, input.from, input.to, input.action, input.cap + 1],
  );
  return rows[0]?.count ?? 0;
}

/** A page of a tenant's audit entries in the range, newest first, older than `beforeId` when given. */
export async function findAuditEntriesInRange(
  database: TDatabase,
  input: TAuditRange & { beforeId: string | null; take: number },
): Promise<TAuditExportRow[]> {
  const { rows } = await sqlPoolOf(database).query<TAuditExportRow>(
    `SELECT a.id::text, a.action, a.target_type AS "targetType", a.target_id AS "targetId", a.data, a.ip,
            a.created_at AS "createdAt", u.email AS "actorEmail", u.name AS "actorName", u.is_support AS "actorIsSupport"
       FROM portal_audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
      WHERE a.tenant_id = $1::uuid AND ($2::timestamptz IS NULL OR a.created_at >= $2::timestamptz)
        AND ($3::timestamptz IS NULL OR a.created_at < $3::timestamptz) AND ($4::text IS NULL OR a.action = $4)
        AND ($5::bigint IS NULL OR a.id < $5::bigint)
      ORDER BY a.id DESC LIMIT $6`,
    [input.tenantId, input.from, input.to, input.action, input.beforeId, input.take],
  );
  return rows;
}
