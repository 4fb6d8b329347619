/**
 * Memberships (`memberships`: user × tenant × role). A change of role and a removal run in one
 * transaction that locks the tenant's memberships first (so two owners demoting each other cannot
 * leave the tenant without one) and writes the audit entry with the change. A removal also takes
 * the tenant away from the removed user's sessions at once.
 */
import { inSqlTransaction, sqlPoolOf, type MemberRole, type TDatabase, type TSql } from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';

/** A member of a tenant, with the person. */
export type TMemberRow = {
  id: string;
  tenantId: string;
  role: MemberRole;
  createdAt: Date;
  user: { id: string; email: string; name: string };
};

/** One of a user's tenants. */
export type TUserTenantRow = {
  membershipId: string;
  tenantId: string;
  rnc: string;
  legalName: string;
  tradeName: string | null;
  role: MemberRole;
};

type TMemberRecord = {
  id: string;
  tenant_id: string;
  role: MemberRole;
  created_at: Date;
  user_id: string;
  email: string;
  name: string;
};

const MEMBER_SELECT = `SELECT m.id, m.tenant_id, m.role, m.created_at, u.id AS user_id, u.email, u.name
  FROM memberships m JOIN users u ON u.id = m.user_id`;

function memberOf(row: TMemberRecord): TMemberRow {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    role: row.role,
    createdAt: row.created_at,
    user: { id: row.user_id, email: row.email, name: row.name },
  };
}

/** A tenant's members, owners first, then by name. */
export async function findTenantMemberRows(database: TDatabase, tenantId: string): Promise<TMemberRow[]> {
  const { rows } = await sqlPoolOf(database).query<TMemberRecord>(
    `${MEMBER_SELECT} WHERE m.tenant_id = $1::uuid
      ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'developer' THEN 1 ELSE 2 END, lower(u.name), u.email`,
    [tenantId],
  );
  return rows.map(memberOf);
}

/** One membership of the tenant; null when the tenant has none with this id (another tenant's included). */
export async function findTenantMemberRow(
  database: TDatabase,
  input: { tenantId: string; membershipId: string },
): Promise<TMemberRow | null> {
  const { rows } = await sqlPoolOf(database).query<TMemberRecord>(
    `${MEMBER_SELECT} WHERE m.tenant_id = $1::uuid AND m.id = $2::uuid`,
    [input.tenantId, input.membershipId],
  );
  const row = rows[0];
  return row === undefined ? null : memberOf(row);
}

/** Whether the (lower-cased) e-mail belongs to a member of the tenant. */
export async function isTenantMemberEmail(
  database: TDatabase,
  input: { tenantId: string; email: string },
): Promise<boolean> {
  const { rows } = await sqlPoolOf(database).query(
    `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1::uuid AND u.email = $2`,
    [input.tenantId, input.email],
  );
  return rows.length > 0;
}

/** The tenants a user belongs to, by name. */
export async function findUserTenantRows(database: TDatabase, userId: string): Promise<TUserTenantRow[]> {
  const { rows } = await sqlPoolOf(database).query<TUserTenantRow>(
    `SELECT m.id AS "membershipId", t.id AS "tenantId", t.rnc, t.legal_name AS "legalName",
            t.trade_name AS "tradeName", m.role
       FROM memberships m JOIN tenants t ON t.id = m.tenant_id
      WHERE m.user_id = $1::uuid ORDER BY lower(coalesce(t.trade_name, t.legal_name)), t.rnc`,
    [userId],
  );
  return rows;
}

/** Adds a membership unless the user has one in the tenant (then its role is left alone). */
export async function insertMembership(
  sql: TSql,
  input: { userId: string; tenantId: string; role: MemberRole; at: Date },
): Promise<{ created: boolean; membershipId: string }> {
  const { rows } = await sql.query<{ id: string; created: boolean }>(
    `WITH inserted AS (
       INSERT INTO memberships (id, user_id, tenant_id, role, created_at, updated_at)
       VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::"MemberRole", $4, $4)
       ON CONFLICT (user_id, tenant_id) DO NOTHING RETURNING id
     )
     SELECT id, true AS created FROM inserted
     UNION ALL
     SELECT id, false FROM memberships WHERE user_id = $1::uuid AND tenant_id = $2::uuid AND NOT EXISTS (SELECT 1 FROM inserted)`,
    [input.userId, input.tenantId, input.role, input.at],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('the membership was neither inserted nor found');
  return { created: row.created, membershipId: row.id };
}

export type TMembershipChange =
  | { outcome: 'changed'; member: TMemberRow; previousRole: MemberRole }
  | { outcome: 'not_found' }
  | { outcome: 'last_owner' };

/** Locks the tenant's memberships (owners deciding together wait for each other) and returns them. */
async function lockTenantMemberships(sql: TSql, tenantId: string) {
  const { rows } = await sql.query<{ id: string; role: MemberRole; user_id: string }>(
    `SELECT id, role, user_id FROM memberships WHERE tenant_id = $1::uuid ORDER BY id FOR UPDATE`,
    [tenantId],
  );
  return rows;
}

/**
 * Gives a member another role, with its audit entry, unless it would leave the tenant without an
 * owner. `audit` is completed with the previous and new role.
 */
export async function changeMembershipRole(
  database: TDatabase,
  input: {
    tenantId: string;
    membershipId: string;
    role: MemberRole;
    at: Date;
    audit: Omit<TAuditEntryInput, 'tenantId' | 'targetType' | 'targetId' | 'at'>;
  },
): Promise<TMembershipChange> {
  return inSqlTransaction(database, async (sql) => {
    const members = await lockTenantMemberships(sql, input.tenantId);
    const target = members.find((member) => member.id === input.membershipId);
    if (target === undefined) return { outcome: 'not_found' };
    const owners = members.filter((member) => member.role === 'owner');
    if (target.role === 'owner' && input.role !== 'owner' && owners.length === 1)
      return { outcome: 'last_owner' };
    await sql.query(`UPDATE memberships SET role = $2::"MemberRole", updated_at = $3 WHERE id = $1::uuid`, [
      input.membershipId,
      input.role,
      input.at,
    ]);
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: input.tenantId,
      targetType: 'membership',
      targetId: input.membershipId,
      data: { ...input.audit.data, previousRole: target.role, role: input.role },
      at: input.at,
    });
    const { rows } = await sql.query<TMemberRecord>(`${MEMBER_SELECT} WHERE m.id = $1::uuid`, [
      input.membershipId,
    ]);
    const row = rows[0];
    if (row === undefined) throw new Error('the changed membership vanished inside its transaction');
    return { outcome: 'changed', member: memberOf(row), previousRole: target.role };
  });
}

export type TMembershipRemoval =
  | { outcome: 'removed'; member: TMemberRow; sessionsDetached: number }
  | { outcome: 'not_found' }
  | { outcome: 'last_owner' };

/**
 * Removes a member: the membership, the tenant from every session of that user that had it active
 * (so the next request of those sessions has no access to it), and the audit entry, in one
 * transaction; never the tenant's only owner.
 */
export async function deleteMembership(
  database: TDatabase,
  input: {
    tenantId: string;
    membershipId: string;
    at: Date;
    audit: Omit<TAuditEntryInput, 'tenantId' | 'targetType' | 'targetId' | 'at'>;
  },
): Promise<TMembershipRemoval> {
  return inSqlTransaction(database, async (sql) => {
    const members = await lockTenantMemberships(sql, input.tenantId);
    const target = members.find((member) => member.id === input.membershipId);
    if (target === undefined) return { outcome: 'not_found' };
    if (target.role === 'owner' && members.filter((member) => member.role === 'owner').length === 1)
      return { outcome: 'last_owner' };
    const { rows } = await sql.query<TMemberRecord>(`${MEMBER_SELECT} WHERE m.id = $1::uuid`, [
      input.membershipId,
    ]);
    const row = rows[0];
    if (row === undefined) throw new Error('the locked membership vanished inside its transaction');
    await sql.query(`DELETE FROM memberships WHERE id = $1::uuid`, [input.membershipId]);
    const detached = await sql.query(
      `UPDATE portal_sessions SET active_tenant_id = NULL WHERE user_id = $1::uuid AND active_tenant_id = $2::uuid`,
      [target.user_id, input.tenantId],
    );
    const member = memberOf(row);
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: input.tenantId,
      targetType: 'membership',
      targetId: input.membershipId,
      data: { ...input.audit.data, email: member.user.email, role: member.role },
      at: input.at,
    });
    return { outcome: 'removed', member, sessionsDetached: detached.rowCount ?? 0 };
  });
}
