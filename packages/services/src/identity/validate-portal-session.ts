import type { TDatabase } from '@ecf/db';
import {
  findPartnerUserRow,
  findUserTenantRows,
  loadPortalSession,
  setSessionActiveTenant,
  touchPortalSession,
  type TUserTenantRow,
} from '../persistence/index.ts';
import { isUuid } from '../shared/references.ts';
import type { TPartnerRole, TPrincipal } from './permissions.ts';

/** A valid portal session as every request sees it. */
export type TPortalSession = {
  sessionId: string;
  expiresAt: Date;
  user: { id: string; email: string; name: string; isSupport: boolean };
  /** The user's tenants (the switcher's list); empty for support, who reach any tenant. */
  tenants: TUserTenantRow[];
  /** The tenant this session works in; null when none is chosen (or it was just taken away). */
  activeTenant: { id: string; rnc: string; legalName: string; tradeName: string | null } | null;
  /** Who the user is in the active tenant: its member role, or support; null without an active tenant. */
  principal: TPrincipal | null;
  /** The Partner the user works for (Partner portal, issue 20) and their role there; null for others. */
  partner: { id: string; name: string; role: TPartnerRole } | null;
};

/** How often a session's `last_seen_at` is written (not on every request). */
const TOUCH_AFTER_MS = 60_000;

/**
 * Checks a portal session on a request: it must exist, not be revoked (sign-out, sign-out
 * everywhere, a password reset) nor expired, and its user must still exist. The active tenant
 * counts only while the user is still a member of it (support: any tenant): a member removed a
 * moment ago has lost it on their very next request. Null when the session is not valid.
 */
export async function validatePortalSession(options: {
  database: TDatabase;
  sessionId: string;
  now?: () => Date;
}): Promise<TPortalSession | null> {
  const { database } = options;
  if (!isUuid(options.sessionId)) return null;
  const now = (options.now ?? (() => new Date()))();
  const session = await loadPortalSession(database, options.sessionId);
  if (session === null || session.revokedAt !== null || session.expiresAt <= now) return null;
  const { user } = session;
  let activeTenant = session.activeTenant;
  let principal: TPrincipal | null = null;
  if (activeTenant !== null) {
    if (user.isSupport) principal = { kind: 'support' };
    else if (session.activeRole !== null) principal = { kind: 'member', role: session.activeRole };
    else {
      // No longer a member: the tenant is gone from this session for good.
      await setSessionActiveTenant(database, { sessionId: session.id, tenantId: null });
      activeTenant = null;
    }
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_AFTER_MS)
    await touchPortalSession(database, { sessionId: session.id, at: now });
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    user: { id: user.id, email: user.email, name: user.name, isSupport: user.isSupport },
    tenants: user.isSupport ? [] : await findUserTenantRows(database, user.id),
    activeTenant,
    principal,
    partner: await partnerOf(database, user.id),
  };
}

async function partnerOf(database: TDatabase, userId: string): Promise<TPortalSession['partner']> {
  const row = await findPartnerUserRow(database, userId);
  return row === null ? null : { id: row.partnerId, name: row.partnerName, role: row.role };
}
