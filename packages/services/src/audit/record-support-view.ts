import type { TDatabase } from '@ecf/db';
import { appendAuditEntryRow } from '../persistence/index.ts';
import { AUDIT_ACTIONS } from './audit-actions.ts';

/**
 * Writes to a tenant's audit log that operator staff read its data: what (`what`, e.g. the tRPC
 * procedure `members.list`) and with which input. The tenant's owners read these entries on the
 * audit log page. Called by the portal for every read of a tenant's data by support.
 */
export async function recordSupportView(options: {
  database: TDatabase;
  tenantId: string;
  supportUserId: string;
  what: string;
  input?: unknown;
  ip?: string | null;
  now?: () => Date;
}): Promise<void> {
  await appendAuditEntryRow(options.database, {
    tenantId: options.tenantId,
    actorUserId: options.supportUserId,
    action: AUDIT_ACTIONS.SUPPORT_VIEWED,
    targetType: 'portal',
    targetId: options.what.slice(0, 200),
    data: options.input === undefined ? {} : { input: options.input },
    ip: options.ip ?? null,
    at: (options.now ?? (() => new Date()))(),
  });
}
