import { z } from 'zod';
import { ZAuditExportRequest, ZIssuedExportRequest, ZReceivedExportRequest } from '@ecf/services';

/** Issued documents of the page's environment: a month, or the list's query and search as in the URL. */
export const ZExportIssuedInput = ZIssuedExportRequest;
/** Received e-CF of the page's environment: a month (of reception), or the list's query. */
export const ZExportReceivedInput = ZReceivedExportRequest;
/** The audit log: a month and an action, each optional. */
export const ZExportAuditInput = ZAuditExportRequest;

/** An export started: built already (`ready`) or queued for the worker. */
export const ZExportStartedOutput = z.object({
  exportId: z.uuid(),
  status: z.enum(['ready', 'queued']),
  rows: z.number().int().nonnegative().nullable(),
  downloadUrl: z.string(),
});

export const ZGetExportInput = z.object({ exportId: z.uuid({ error: 'Exportación no válida.' }) });

export const ZGetExportOutput = z.object({
  exportId: z.uuid(),
  status: z.enum(['queued', 'running', 'ready', 'failed']),
  rowsDone: z.number().int().nonnegative(),
  rowsTotal: z.number().int().nonnegative().nullable(),
  percent: z.number().int().min(0).max(100),
  fileName: z.string().nullable(),
  expiresAt: z.iso.datetime(),
  downloadUrl: z.string(),
});

/** Where a ready export is downloaded (the route handler `app/api/exports/[exportId]`). */
export function exportDownloadUrl(exportId: string): string {
  return `/api/exports/${exportId}`;
}
