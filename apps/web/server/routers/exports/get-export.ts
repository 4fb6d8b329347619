import { getExport as getExportUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { exportDownloadUrl, ZGetExportInput, ZGetExportOutput } from './exports.schema.ts';

/** The state of one of the caller's exports ("Preparando… 40 %"); another user's or tenant's is NOT_FOUND. */
export const getExport = tenantProcedure('overview.read')
  .input(ZGetExportInput)
  .output(ZGetExportOutput)
  .query(async ({ ctx, input }) => {
    const view = await getExportUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      userId: ctx.actor.userId,
      exportId: input.exportId,
      now: ctx.now(),
    });
    return { ...view, downloadUrl: exportDownloadUrl(view.exportId) };
  });
