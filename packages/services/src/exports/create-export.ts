import type { TDatabase, TEnqueue } from '@ecf/db';
import { AUDIT_ACTIONS } from '../audit/audit-actions.ts';
import { insertPortalExport } from '../persistence/index.ts';
import { writeExportFile } from './export-files.ts';
import { exportParametersOf, type TExportRequest } from './export-request.ts';
import { readExportTable, sourceOf, type TExportParameters } from './export-sources.ts';

/** Up to this many rows an export is built in the request; above, by the `export.build` job. */
export const DIRECT_EXPORT_MAX_ROWS = 2_000;

/** How long a finished file is kept (and downloadable by the user who asked). */
export const EXPORT_RETENTION_MS = 7 * 24 * 3_600_000;

const KIND_FILE_NAMES = { issued: 'emitidos', received: 'recibidos', audit: 'auditoria' } as const;

/** `emitidos-eCF-2026-10.xlsx`, `auditoria-todo.csv`. */
export function exportFileNameOf(parameters: TExportParameters, format: string): string {
  const environment = parameters.kind === 'audit' ? '' : `-${parameters.environment}`;
  return `${KIND_FILE_NAMES[parameters.kind]}${environment}-${parameters.label}.${format}`;
}

/**
 * Starts an export for the user in the tenant: small ones (at most {@link DIRECT_EXPORT_MAX_ROWS}
 * rows) are built now and stored `ready`; larger ones are stored `queued` with their `export.build`
 * job. Either way the export commits with its `export.created` audit entry. The file is kept
 * {@link EXPORT_RETENTION_MS} and only its owner (user and tenant) reads it.
 */
export async function createExport(options: {
  database: TDatabase;
  enqueue: TEnqueue;
  tenantId: string;
  userId: string;
  request: TExportRequest;
  ip?: string | null;
  now: () => Date;
  /** Tests: a lower threshold for the job. */
  directMaxRows?: number;
}): Promise<{ exportId: string; status: 'ready' | 'queued'; rows: number | null }> {
  const { database, tenantId, request } = options;
  const parameters = exportParametersOf(request);
  const source = sourceOf(database, tenantId, parameters);
  const directMax = options.directMaxRows ?? DIRECT_EXPORT_MAX_ROWS;
  // The sources' counts stop at their cap: one past the threshold tells small from large.
  const count = await source.count(directMax + 1);
  const at = options.now();
  const fileName = exportFileNameOf(parameters, request.format);
  const small = count <= directMax;
  const table = small ? await readExportTable(source) : null;
  const file = table ? writeExportFile(table, request.format) : null;
  const exportId = await insertPortalExport(database, {
    tenantId,
    userId: options.userId,
    kind: request.kind,
    format: request.format,
    environment: parameters.kind === 'audit' ? null : parameters.environment,
    parameters,
    at,
    expiresAt: new Date(at.getTime() + EXPORT_RETENTION_MS),
    ...(table && file
      ? { file: { fileName, content: file.content, sha256: file.sha256, rows: table.rows.length } }
      : {}),
    enqueue: options.enqueue,
    audit: {
      tenantId,
      actorUserId: options.userId,
      action: AUDIT_ACTIONS.EXPORT_CREATED,
      targetType: 'export',
      data: {
        kind: request.kind,
        format: request.format,
        ...(parameters.kind === 'audit' ? {} : { environment: parameters.environment }),
        scope:
          parameters.kind === 'audit'
            ? { from: parameters.from, to: parameters.to, action: parameters.action }
            : parameters.filters,
        ...(table ? { rows: table.rows.length } : {}),
      },
      ip: options.ip ?? null,
      at,
    },
  });
  return { exportId, status: small ? 'ready' : 'queued', rows: table ? table.rows.length : null };
}
