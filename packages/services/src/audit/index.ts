/**
 * Audit: the portal's append-only audit log (who did what to which tenant's data; every view of a
 * tenant's data by operator staff), read by the tenant's owners.
 */
export { AUDIT_ACTIONS, type TAuditAction } from './audit-actions.ts';
export { appendAuditEntry } from './append-audit-entry.ts';
export { findAuditEntries } from './find-audit-entries.ts';
export { recordSupportView, SUPPORT_VIEW_REPEAT_WINDOW_MS } from './record-support-view.ts';
export type { TAuditEntry } from '../persistence/index.ts';
