/**
 * The portal's audit log (`portal_audit_log`, append-only: a trigger refuses UPDATE, DELETE and
 * TRUNCATE). Entries are inserted alone or inside the transaction of the change they record, so a
 * change and its entry commit together or not at all.
 */
import { inSqlTransaction, sqlPoolOf, type TDatabase, type TSql } from '@ecf/db';

/** An entry to append. `tenantId` null: an operator-level entry (a sign-in, support's desk). */
export type TAuditEntryInput = {
  tenantId: string | null;
  actorUserId: string | null;
  /** Dotted verb: `member.invited`, `member.removed`, `support.viewed`... */
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  data?: Record<string, unknown>;
  ip?: string | null;
  at: Date;
};

/** An entry as read back, with who made it. */
export type TAuditEntry = {
  id: string;
  tenantId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  data: Record<string, unknown>;
  ip: string | null;
  createdAt: Date;
  actor: { id: string; email: string; name: string; isSupport: boolean } | null;
};

const INSERT_ENTRY = `INSERT INTO portal_audit_log (tenant_id, actor_user_id, action, target_type, target_id, data, ip, created_at)
  VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6::jsonb, $7, $8::timestamptz) RETURNING id::text`;

/** Appends one entry on `sql` (the pool, or a connection inside the caller's transaction). */
export async function insertAuditEntry(sql: TSql, entry: TAuditEntryInput): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(INSERT_ENTRY, [
    entry.tenantId,
    entry.actorUserId,
    entry.action,
    entry.targetType ?? null,
    entry.targetId ?? null,
    JSON.stringify(entry.data ?? {}),
    entry.ip ?? null,
    entry.at,
  ]);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the audit entry was not inserted');
  return id;
}

/** Appends one entry on its own. */
export async function appendAuditEntryRow(database: TDatabase, entry: TAuditEntryInput): Promise<string> {
  return insertAuditEntry(sqlPoolOf(database), entry);
}

/** How many of a tenant's newest entries {@link appendAuditEntryUnlessRecent} looks through for a repeat. */
const RECENT_ENTRIES_SCANNED = 500;

/**
 * Appends `entry` unless the same actor already has an entry with the same action, target and data
 * in the tenant's log within `withinMs` before `entry.at` (issue 27: a live page refreshing every
 * few seconds is one view, not one per refresh). Returns the new id, or null when it was a repeat.
 * The look-back reads only the tenant's newest entries on its `(tenant_id, id DESC)` index, so its
 * cost never grows with the log (a repeat beyond them is written again: harmless). A transaction-
 * scoped advisory lock per actor and tenant makes concurrent refreshes of one page write one entry.
 */
export async function appendAuditEntryUnlessRecent(
  database: TDatabase,
  entry: TAuditEntryInput & { tenantId: string },
  withinMs: number,
): Promise<string | null> {
  if (withinMs <= 0) return appendAuditEntryRow(database, entry);
  return inSqlTransaction(database, async (sql) => {
    await sql.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('portal_audit_repeat:' || $1 || ':' || $2, 0))`,
      [entry.tenantId, entry.actorUserId ?? ''],
    );
    const { rows } = await sql.query<{ found: number }>(
      `SELECT 1 AS found FROM (
         SELECT actor_user_id, action, target_id, data, created_at FROM portal_audit_log
          WHERE tenant_id = $1::uuid ORDER BY id DESC LIMIT ${RECENT_ENTRIES_SCANNED}) recent
        WHERE recent.actor_user_id IS NOT DISTINCT FROM $2::uuid AND recent.action = $3
          AND recent.target_id IS NOT DISTINCT FROM $4 AND recent.data = $5::jsonb
          AND recent.created_at > $6::timestamptz - make_interval(secs => $7::double precision / 1000)
          AND recent.created_at <= $6::timestamptz
        LIMIT 1`,
      [
        entry.tenantId,
        entry.actorUserId,
        entry.action,
        entry.targetId ?? null,
        JSON.stringify(entry.data ?? {}),
        entry.at,
        withinMs,
      ],
    );
    if (rows.length > 0) return null;
    return insertAuditEntry(sql, entry);
  });
}

type TAuditRow = {
  id: string;
  tenant_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  data: Record<string, unknown>;
  ip: string | null;
  created_at: Date;
  actor_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  actor_is_support: boolean | null;
};

/** Above every id (bigint's maximum): a cursor past it reads from the newest entry. */
const NO_CURSOR_ABOVE = 9_223_372_036_854_775_807n;

/** The cursor as a bigint's text, or null: client text never reaches a `::bigint` cast that could fail. */
function auditCursorOf(beforeId: string | undefined): string | null {
  if (beforeId === undefined || !/^[0-9]{1,30}$/.test(beforeId)) return null;
  return (BigInt(beforeId) > NO_CURSOR_ABOVE ? NO_CURSOR_ABOVE : BigInt(beforeId)).toString();
}

/**
 * A tenant's entries, newest first, older than `beforeId` when given (keyset pagination on the
 * `(tenant_id, id DESC)` index); `limit` + 1 rows are read so the caller knows whether more exist.
 */
export async function findTenantAuditEntries(
  database: TDatabase,
  input: { tenantId: string; beforeId?: string; limit: number; actions?: string[] },
): Promise<TAuditEntry[]> {
  const { rows } = await sqlPoolOf(database).query<TAuditRow>(
    `SELECT a.id::text, a.tenant_id, a.action, a.target_type, a.target_id, a.data, a.ip, a.created_at,
            u.id AS actor_id, u.email AS actor_email, u.name AS actor_name, u.is_support AS actor_is_support
       FROM portal_audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
      WHERE a.tenant_id = $1::uuid AND ($2::bigint IS NULL OR a.id < $2::bigint)
        AND ($4::text[] IS NULL OR a.action = ANY($4::text[]))
      ORDER BY a.id DESC LIMIT $3`,
    [input.tenantId, auditCursorOf(input.beforeId), input.limit, input.actions ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    tenantId: row.tenant_id,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    data: row.data,
    ip: row.ip,
    createdAt: row.created_at,
    actor:
      row.actor_id === null
        ? null
        : {
            id: row.actor_id,
            email: row.actor_email ?? '',
            name: row.actor_name ?? '',
            isSupport: row.actor_is_support === true,
          },
  }));
}
