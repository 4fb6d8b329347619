import { createRouter } from '../../trpc/init.ts';
import { listAuditEntries } from './list-audit-entries.ts';

/** The tenant's portal audit log (owners). */
export const auditRouter = createRouter({ list: listAuditEntries });
