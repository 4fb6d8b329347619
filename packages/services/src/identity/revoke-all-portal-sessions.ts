import { sqlPoolOf, type TDatabase } from '@ecf/db';
import { appendAuditEntryRow, revokeUserSessionRows } from '../persistence/index.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';

/**
 * Signs a user out everywhere: every session of theirs is revoked, so each browser's next request
 * (page, tRPC call) finds no valid session. Written to the audit log.
 */
export async function revokeAllPortalSessions(options: {
  database: TDatabase;
  userId: string;
  ip?: string | null;
  now?: () => Date;
}): Promise<{ sessionsRevoked: number }> {
  const at = (options.now ?? (() => new Date()))();
  const sessionsRevoked = await revokeUserSessionRows(sqlPoolOf(options.database), {
    userId: options.userId,
    at,
  });
  await appendAuditEntryRow(options.database, {
    tenantId: null,
    actorUserId: options.userId,
    action: AUDIT_ACTIONS.SIGNED_OUT_EVERYWHERE,
    targetType: 'user',
    targetId: options.userId,
    data: { sessionsRevoked },
    ip: options.ip ?? null,
    at,
  });
  return { sessionsRevoked };
}
