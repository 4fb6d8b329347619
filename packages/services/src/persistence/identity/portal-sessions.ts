/**
 * Portal sessions (`portal_sessions`): one row per signed-in browser, whose id is all next-auth's
 * JWT carries. The row is read on every request with what the request needs to know (the user, the
 * active tenant and the user's membership of it) in one statement.
 */
import { sqlPoolOf, type MemberRole, type TDatabase, type TSql } from '@ecf/db';

/** What every portal request learns from its session id. */
export type TSessionRow = {
  id: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  user: { id: string; email: string; name: string; isSupport: boolean; passwordChangedAt: Date };
  /** The session's tenant, when one is chosen and still exists. */
  activeTenant: { id: string; rnc: string; legalName: string; tradeName: string | null } | null;
  /** The user's role in the active tenant NOW; null when not a member (any more). */
  activeRole: MemberRole | null;
};

type TSessionRecord = {
  id: string;
  user_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  email: string;
  name: string;
  is_support: boolean;
  password_changed_at: Date;
  tenant_id: string | null;
  rnc: string | null;
  legal_name: string | null;
  trade_name: string | null;
  role: MemberRole | null;
};

/** The session with its user, active tenant and membership; null when no such session (or user). */
export async function loadPortalSession(database: TDatabase, sessionId: string): Promise<TSessionRow | null> {
  const { rows } = await sqlPoolOf(database).query<TSessionRecord>(
    `SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at,
            u.email, u.name, u.is_support, u.password_changed_at,
            t.id AS tenant_id, t.rnc, t.legal_name, t.trade_name, m.role
       FROM portal_sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN tenants t ON t.id = s.active_tenant_id
       LEFT JOIN memberships m ON m.user_id = s.user_id AND m.tenant_id = s.active_tenant_id
      WHERE s.id = $1::uuid`,
    [sessionId],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    user: {
      id: row.user_id,
      email: row.email,
      name: row.name,
      isSupport: row.is_support,
      passwordChangedAt: row.password_changed_at,
    },
    activeTenant:
      row.tenant_id === null
        ? null
        : {
            id: row.tenant_id,
            rnc: row.rnc ?? '',
            legalName: row.legal_name ?? '',
            tradeName: row.trade_name,
          },
    activeRole: row.role,
  };
}

/** Creates a session. */
export async function insertPortalSession(
  database: TDatabase,
  input: {
    userId: string;
    activeTenantId: string | null;
    at: Date;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<{ id: string; expiresAt: Date }> {
  const { rows } = await sqlPoolOf(database).query<{ id: string; expires_at: Date }>(
    `INSERT INTO portal_sessions (id, user_id, active_tenant_id, created_at, last_seen_at, expires_at, ip, user_agent)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3, $3, $4, $5, $6) RETURNING id, expires_at`,
    [input.userId, input.activeTenantId, input.at, input.expiresAt, input.ip, input.userAgent],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the portal session was not inserted');
  return { id: row.id, expiresAt: row.expires_at };
}

/** Records that the session was used (the caller throttles it). */
export async function touchPortalSession(database: TDatabase, input: { sessionId: string; at: Date }) {
  await sqlPoolOf(database).query(
    `UPDATE portal_sessions SET last_seen_at = $2 WHERE id = $1::uuid AND revoked_at IS NULL`,
    [input.sessionId, input.at],
  );
}

/** Revokes one session of a user (sign-out); true when it was live. */
export async function revokePortalSessionRow(
  database: TDatabase,
  input: { sessionId: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await sqlPoolOf(database).query(
    `UPDATE portal_sessions SET revoked_at = $2 WHERE id = $1::uuid AND revoked_at IS NULL`,
    [input.sessionId, input.at],
  );
  return (rowCount ?? 0) > 0;
}

/** Revokes every live session of a user (on `sql`: maybe inside a password change); how many. */
export async function revokeUserSessionRows(sql: TSql, input: { userId: string; at: Date }): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE portal_sessions SET revoked_at = $2 WHERE user_id = $1::uuid AND revoked_at IS NULL`,
    [input.userId, input.at],
  );
  return rowCount ?? 0;
}

/** Moves a live session to another tenant (null: none); true when the session was live. */
export async function setSessionActiveTenant(
  database: TDatabase,
  input: { sessionId: string; tenantId: string | null },
): Promise<boolean> {
  const { rowCount } = await sqlPoolOf(database).query(
    `UPDATE portal_sessions SET active_tenant_id = $2::uuid WHERE id = $1::uuid AND revoked_at IS NULL`,
    [input.sessionId, input.tenantId],
  );
  return (rowCount ?? 0) > 0;
}
