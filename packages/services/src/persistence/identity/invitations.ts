/**
 * Invitations (`invitations`): created (replacing the address's pending one) and accepted in
 * transactions that write their audit entries with them. Acceptance is a guarded update
 * (`accepted_at IS NULL`, not revoked, not expired): of two concurrent acceptances of one link the
 * second waits on the row and then matches nothing, so one membership is made.
 */
import { inSqlTransaction, sqlPoolOf, type MemberRole, type TDatabase } from '@ecf/db';
import { insertMembership } from './memberships.ts';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';
import { insertUser, type TUserRow } from './users.ts';

/** An invitation as its pages show it (never its token: only the hash is stored). */
export type TInvitationRow = {
  id: string;
  tenantId: string;
  email: string;
  role: MemberRole;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  invitedBy: { id: string; email: string; name: string };
  tenant: { rnc: string; legalName: string; tradeName: string | null };
};

type TInvitationRecord = {
  id: string;
  tenant_id: string;
  email: string;
  role: MemberRole;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  inviter_id: string;
  inviter_email: string;
  inviter_name: string;
  rnc: string;
  legal_name: string;
  trade_name: string | null;
};

const INVITATION_SELECT = `SELECT i.id, i.tenant_id, i.email, i.role, i.expires_at, i.accepted_at, i.revoked_at, i.created_at,
    u.id AS inviter_id, u.email AS inviter_email, u.name AS inviter_name, t.rnc, t.legal_name, t.trade_name
  FROM invitations i JOIN users u ON u.id = i.invited_by_id JOIN tenants t ON t.id = i.tenant_id`;

function invitationOf(row: TInvitationRecord): TInvitationRow {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    role: row.role,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    invitedBy: { id: row.inviter_id, email: row.inviter_email, name: row.inviter_name },
    tenant: { rnc: row.rnc, legalName: row.legal_name, tradeName: row.trade_name },
  };
}

/**
 * Creates an invitation; a pending one for the same tenant and address is revoked first (a unique
 * index allows one pending per address). With its audit entry, in one transaction.
 */
export async function insertInvitation(
  database: TDatabase,
  input: {
    tenantId: string;
    email: string;
    role: MemberRole;
    tokenHash: string;
    invitedById: string;
    at: Date;
    expiresAt: Date;
    audit: Omit<TAuditEntryInput, 'tenantId' | 'targetType' | 'targetId' | 'at' | 'actorUserId'>;
  },
): Promise<TInvitationRow> {
  return inSqlTransaction(database, async (sql) => {
    await sql.query(
      `UPDATE invitations SET revoked_at = $3 WHERE tenant_id = $1::uuid AND email = $2
         AND accepted_at IS NULL AND revoked_at IS NULL`,
      [input.tenantId, input.email, input.at],
    );
    const { rows } = await sql.query<{ id: string }>(
      `INSERT INTO invitations (id, tenant_id, email, role, token_hash, invited_by_id, expires_at, created_at)
       VALUES (gen_random_uuid(), $1::uuid, $2, $3::"MemberRole", $4, $5::uuid, $6, $7) RETURNING id`,
      [
        input.tenantId,
        input.email,
        input.role,
        input.tokenHash,
        input.invitedById,
        input.expiresAt,
        input.at,
      ],
    );
    const id = rows[0]?.id;
    if (id === undefined) throw new Error('the invitation was not inserted');
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: input.tenantId,
      actorUserId: input.invitedById,
      targetType: 'invitation',
      targetId: id,
      data: { ...input.audit.data, email: input.email, role: input.role },
      at: input.at,
    });
    const created = await sql.query<TInvitationRecord>(`${INVITATION_SELECT} WHERE i.id = $1::uuid`, [id]);
    const row = created.rows[0];
    if (row === undefined) throw new Error('the invitation vanished inside its transaction');
    return invitationOf(row);
  });
}

/** The invitation whose token has this SHA-256; null when none. */
export async function findInvitationByTokenHash(
  database: TDatabase,
  tokenHash: string,
): Promise<TInvitationRow | null> {
  const { rows } = await sqlPoolOf(database).query<TInvitationRecord>(
    `${INVITATION_SELECT} WHERE i.token_hash = $1`,
    [tokenHash],
  );
  const row = rows[0];
  return row === undefined ? null : invitationOf(row);
}

/** A tenant's invitations neither accepted nor revoked (expired ones included), newest first. */
export async function findPendingInvitationRows(
  database: TDatabase,
  tenantId: string,
): Promise<TInvitationRow[]> {
  const { rows } = await sqlPoolOf(database).query<TInvitationRecord>(
    `${INVITATION_SELECT} WHERE i.tenant_id = $1::uuid AND i.accepted_at IS NULL AND i.revoked_at IS NULL
      ORDER BY i.created_at DESC`,
    [tenantId],
  );
  return rows.map(invitationOf);
}

/** Revokes a pending invitation of the tenant, with its audit entry; false when it has none such. */
export async function revokeInvitationRow(
  database: TDatabase,
  input: {
    tenantId: string;
    invitationId: string;
    at: Date;
    audit: Omit<TAuditEntryInput, 'tenantId' | 'targetType' | 'targetId' | 'at'>;
  },
): Promise<boolean> {
  return inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<{ email: string; role: MemberRole }>(
      `UPDATE invitations SET revoked_at = $3 WHERE id = $2::uuid AND tenant_id = $1::uuid
         AND accepted_at IS NULL AND revoked_at IS NULL RETURNING email, role`,
      [input.tenantId, input.invitationId, input.at],
    );
    const row = rows[0];
    if (row === undefined) return false;
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: input.tenantId,
      targetType: 'invitation',
      targetId: input.invitationId,
      data: { ...input.audit.data, email: row.email, role: row.role },
      at: input.at,
    });
    return true;
  });
}

/** Who accepts: an existing user, or a new one made from the invitation's address. */
export type TAcceptingUser =
  { kind: 'existing'; userId: string } | { kind: 'new'; name: string; passwordHash: string };

export type TInvitationAcceptance =
  | {
      outcome: 'accepted';
      membershipId: string;
      user: Pick<TUserRow, 'id' | 'email' | 'name'>;
      tenantId: string;
      role: MemberRole;
    }
  | { outcome: 'not_pending' }
  | { outcome: 'account_exists' };

/**
 * Accepts the invitation: the guarded update (pending and not expired at `at`), then the user (when
 * new), the membership and the audit entry, all in one transaction. `not_pending` when the guard
 * matched nothing (accepted, revoked or expired in the meantime: the caller reads why);
 * `account_exists` (nothing written) when a new account was asked for an address that has one.
 */
export async function acceptInvitationRow(
  database: TDatabase,
  input: {
    invitationId: string;
    accepting: TAcceptingUser;
    at: Date;
    audit: Omit<TAuditEntryInput, 'tenantId' | 'targetType' | 'targetId' | 'at' | 'actorUserId'>;
  },
): Promise<TInvitationAcceptance> {
  return inSqlTransaction(database, async (sql): Promise<TInvitationAcceptance> => {
    const claimed = await sql.query<{ tenant_id: string; email: string; role: MemberRole }>(
      `UPDATE invitations SET accepted_at = $2 WHERE id = $1::uuid
         AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
       RETURNING tenant_id, email, role`,
      [input.invitationId, input.at],
    );
    const invitation = claimed.rows[0];
    if (invitation === undefined) return { outcome: 'not_pending' };
    let user: Pick<TUserRow, 'id' | 'email' | 'name'>;
    if (input.accepting.kind === 'new') {
      const inserted = await insertUser(sql, {
        email: invitation.email,
        name: input.accepting.name,
        passwordHash: input.accepting.passwordHash,
        isSupport: false,
        at: input.at,
      });
      // Thrown to roll the claim back: the link stays usable by signing in with that account.
      if (!inserted.created) throw new AccountExistsRollback();
      user = inserted.user;
    } else {
      const { rows } = await sql.query<{ id: string; email: string; name: string }>(
        `SELECT id, email, name FROM users WHERE id = $1::uuid`,
        [input.accepting.userId],
      );
      const existing = rows[0];
      if (existing === undefined) throw new Error('the accepting user does not exist');
      user = existing;
    }
    await sql.query(`UPDATE invitations SET accepted_by_id = $2::uuid WHERE id = $1::uuid`, [
      input.invitationId,
      user.id,
    ]);
    const membership = await insertMembership(sql, {
      userId: user.id,
      tenantId: invitation.tenant_id,
      role: invitation.role,
      at: input.at,
    });
    await insertAuditEntry(sql, {
      ...input.audit,
      tenantId: invitation.tenant_id,
      actorUserId: user.id,
      targetType: 'membership',
      targetId: membership.membershipId,
      data: {
        ...input.audit.data,
        invitationId: input.invitationId,
        email: invitation.email,
        role: invitation.role,
        newAccount: input.accepting.kind === 'new',
        alreadyMember: !membership.created,
      },
      at: input.at,
    });
    return {
      outcome: 'accepted',
      membershipId: membership.membershipId,
      user,
      tenantId: invitation.tenant_id,
      role: invitation.role,
    };
  }).catch((error: unknown) => {
    if (error instanceof AccountExistsRollback) return { outcome: 'account_exists' } as const;
    throw error;
  });
}

/** Ends an acceptance's transaction with a rollback when the new account's address has one. */
class AccountExistsRollback extends Error {
  override readonly name = 'AccountExistsRollback';
}
