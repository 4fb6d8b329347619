import { createExport, type TExportRequest } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  exportDownloadUrl,
  ZExportAuditInput,
  ZExportIssuedInput,
  ZExportReceivedInput,
  ZExportStartedOutput,
} from './exports.schema.ts';

type TExportContext = {
  database: Parameters<typeof createExport>[0]['database'];
  documents: { enqueue: Parameters<typeof createExport>[0]['enqueue'] };
  tenant: { id: string };
  actor: { userId: string; ip?: string | null };
  now: () => Date;
};

async function startExport(ctx: TExportContext, request: TExportRequest) {
  const started = await createExport({
    database: ctx.database,
    enqueue: ctx.documents.enqueue,
    tenantId: ctx.tenant.id,
    userId: ctx.actor.userId,
    request,
    ip: ctx.actor.ip ?? null,
    now: ctx.now,
  });
  return { ...started, downloadUrl: exportDownloadUrl(started.exportId) };
}

/** CSV or Excel of issued documents (a month or the list's filter); small ones ready at once, large ones queued. */
export const exportIssued = tenantProcedure('documents.read')
  .input(ZExportIssuedInput)
  .output(ZExportStartedOutput)
  .mutation(({ ctx, input }) => startExport(ctx, { kind: 'issued', ...input }));

/** CSV or Excel of received e-CF (a month of reception or the list's filter). */
export const exportReceived = tenantProcedure('inbound.read')
  .input(ZExportReceivedInput)
  .output(ZExportStartedOutput)
  .mutation(({ ctx, input }) => startExport(ctx, { kind: 'received', ...input }));

/** CSV or Excel of the audit log (a month, an action). */
export const exportAuditLog = tenantProcedure('audit.read')
  .input(ZExportAuditInput)
  .output(ZExportStartedOutput)
  .mutation(({ ctx, input }) => startExport(ctx, { kind: 'audit', ...input }));
