import { createRouter } from '../../trpc/init.ts';
import { getExport } from './get-export.ts';
import { exportAuditLog, exportIssued, exportReceived } from './start-exports.ts';

/** Exports (issue 27): CSV and Excel of issued and received documents and of the audit log. */
export const exportsRouter = createRouter({
  issued: exportIssued,
  received: exportReceived,
  auditLog: exportAuditLog,
  get: getExport,
});
