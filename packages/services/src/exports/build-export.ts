import type { TDatabase } from '@ecf/db';
import {
  completePortalExport,
  failPortalExport,
  findPortalExportForJob,
  updatePortalExportProgress,
} from '../persistence/index.ts';
import { writeExportFile, type TExportFormat } from './export-files.ts';
import { readExportTable, sourceOf, type TExportParameters } from './export-sources.ts';
import { exportFileNameOf } from './create-export.ts';

/** Counting stops here: a progress bar needs no exact total past it. */
const COUNT_CAP = 1_000_000;

/**
 * The `export.build` job: counts the rows, reads them page by page recording `rows_done` after
 * each page (the portal shows "Preparando… 40 %"), writes the file and stores it `ready` with its
 * SHA-256. A finished or unknown export is left as it is (a redelivered job does nothing); a failure
 * marks it `failed` and is rethrown for the job's log.
 */
export async function buildExport(options: {
  database: TDatabase;
  exportId: string;
  now: () => Date;
}): Promise<{ outcome: 'built' | 'not_pending'; rows?: number }> {
  const { database, exportId } = options;
  const row = await findPortalExportForJob(database, exportId);
  if (row === null || (row.status !== 'queued' && row.status !== 'running'))
    return { outcome: 'not_pending' };
  try {
    const parameters = row.parameters as TExportParameters;
    const source = sourceOf(database, row.tenantId, parameters);
    const total = await source.count(COUNT_CAP);
    await updatePortalExportProgress(database, { id: exportId, rowsDone: 0, rowsTotal: total });
    const table = await readExportTable(source, (rowsDone) =>
      updatePortalExportProgress(database, { id: exportId, rowsDone, rowsTotal: Math.max(total, rowsDone) }),
    );
    const format = row.format as TExportFormat;
    const file = writeExportFile(table, format);
    await completePortalExport(database, {
      id: exportId,
      fileName: exportFileNameOf(parameters, format),
      content: file.content,
      sha256: file.sha256,
      rows: table.rows.length,
      at: options.now(),
    });
    return { outcome: 'built', rows: table.rows.length };
  } catch (error) {
    await failPortalExport(database, {
      id: exportId,
      error: error instanceof Error ? error.message : String(error),
      at: options.now(),
    });
    throw error;
  }
}
