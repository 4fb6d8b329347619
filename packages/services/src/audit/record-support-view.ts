import type { TDatabase } from '@ecf/db';
import { appendAuditEntryUnlessRecent } from '../persistence/index.ts';
import { AUDIT_ACTIONS } from './audit-actions.ts';

/**
 * How long a support view stands for the same view again (issue 27, live status): the portal's live
 * pages refresh every few seconds, and a view of the same data (same support user, tenant, `what`
 * and input) within this window is the view already recorded, not a new entry per refresh.
 */
export const SUPPORT_VIEW_REPEAT_WINDOW_MS = 5 * 60_000;

/**
 * Writes to a tenant's audit log that operator staff read its data: what (`what`, e.g. the tRPC
 * procedure `members.list`) and with which input. The tenant's owners read these entries on the
 * audit log page. Called by the portal for every read of a tenant's data by support; with
 * `repeatWindowMs` the same view repeated within it (a live page's refresh) is written once.
 * Returns whether an entry was written.
 */
export async function recordSupportView(options: {
  database: TDatabase;
  tenantId: string;
  supportUserId: string;
  what: string;
  input?: unknown;
  ip?: string | null;
  now?: () => Date;
  /**
   * The same view within this many milliseconds is not written again: the portal's procedures pass
   * {@link SUPPORT_VIEW_REPEAT_WINDOW_MS}; without it (downloads) every view is written.
   */
  repeatWindowMs?: number;
}): Promise<boolean> {
  const id = await appendAuditEntryUnlessRecent(
    options.database,
    {
      tenantId: options.tenantId,
      actorUserId: options.supportUserId,
      action: AUDIT_ACTIONS.SUPPORT_VIEWED,
      targetType: 'portal',
      targetId: options.what.slice(0, 200),
      data: options.input === undefined ? {} : { input: options.input },
      ip: options.ip ?? null,
      at: (options.now ?? (() => new Date()))(),
    },
    options.repeatWindowMs ?? 0,
  );
  return id !== null;
}
