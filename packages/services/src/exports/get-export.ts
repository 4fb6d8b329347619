import { createHash } from 'node:crypto';
import type { TDatabase } from '@ecf/db';
import { findPortalExport, findPortalExportContent } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** An export as the portal shows it: state, progress in percent, the file's name once ready. */
export type TExportView = {
  exportId: string;
  kind: string;
  format: string;
  status: 'queued' | 'running' | 'ready' | 'failed';
  rowsDone: number;
  rowsTotal: number | null;
  /** 0 to 100 (100 only when ready). */
  percent: number;
  fileName: string | null;
  expiresAt: string;
};

async function ownExport(options: {
  database: TDatabase;
  tenantId: string;
  userId: string;
  exportId: string;
  now: Date;
}) {
  const row = await findPortalExport(options.database, {
    id: options.exportId,
    tenantId: options.tenantId,
    userId: options.userId,
  });
  // Another user's, another tenant's, an expired or an unknown export: all the same 404.
  if (row === null || row.expiresAt <= options.now)
    throw new AppError('NOT_FOUND', 'No export with this id.');
  return row;
}

/** The state of one of the user's exports in the tenant (NOT_FOUND for anyone else's or an expired one). */
export async function getExport(options: {
  database: TDatabase;
  tenantId: string;
  userId: string;
  exportId: string;
  now: Date;
}): Promise<TExportView> {
  const row = await ownExport(options);
  const percent =
    row.status === 'ready'
      ? 100
      : row.rowsTotal === null || row.rowsTotal === 0
        ? 0
        : Math.min(99, Math.floor((row.rowsDone * 100) / row.rowsTotal));
  return {
    exportId: row.id,
    kind: row.kind,
    format: row.format,
    status: row.status,
    rowsDone: row.rowsDone,
    rowsTotal: row.rowsTotal,
    percent,
    fileName: row.fileName,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The finished file of one of the user's exports, its SHA-256 checked on the read. NOT_FOUND for
 * anyone else's, expired, unknown or not yet ready (the page only links a ready one).
 */
export async function getExportFile(options: {
  database: TDatabase;
  tenantId: string;
  userId: string;
  exportId: string;
  now: Date;
}): Promise<{ content: Uint8Array; fileName: string; contentType: string; kind: string }> {
  const row = await ownExport(options);
  const stored = await findPortalExportContent(options.database, {
    id: row.id,
    tenantId: options.tenantId,
    userId: options.userId,
  });
  if (stored === null || row.fileName === null) throw new AppError('NOT_FOUND', 'This export is not ready.');
  if (createHash('sha256').update(stored.content).digest('hex') !== stored.sha256)
    throw new Error(`export ${row.id}: the stored file does not match its SHA-256`);
  return {
    content: stored.content,
    fileName: row.fileName,
    contentType:
      row.format === 'csv'
        ? 'text/csv; charset=utf-8'
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    kind: row.kind,
  };
}
