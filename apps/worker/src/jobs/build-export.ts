import type { TJobPayload } from '@ecf/db';
import { buildExport } from '@ecf/services';
import type { TJobContext } from './context.ts';

/** A large portal export (issue 27): its rows page by page with progress, then the stored file. */
export async function buildExportJob(payload: TJobPayload<'export.build'>, context: TJobContext) {
  const result = await buildExport({
    database: context.database,
    exportId: payload.exportId,
    now: context.now,
  });
  context.log.info({ exportId: payload.exportId, ...result }, 'export built');
}
