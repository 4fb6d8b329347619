import { getDocumentDetails } from '@ecf/services';
import { FINAL_DOCUMENT_STATUSES } from '@ecf/contract';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZStatusInput, ZStatusOutput } from './status.schema.ts';

const FINAL: ReadonlySet<string> = new Set(FINAL_DOCUMENT_STATUSES);

/** Where a TesteCF document of the active tenant is now, and its timeline (Try it polls it). */
export const status = tenantProcedure('emission.test')
  .input(ZStatusInput)
  .output(ZStatusOutput)
  .query(async ({ ctx, input }) => {
    const details = await getDocumentDetails({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: 'TesteCF',
      documentId: input.documentId,
    });
    return {
      documentId: details.document.documentId,
      encf: details.document.encf,
      status: details.document.status,
      isFinal: FINAL.has(details.document.status),
      timeline: details.timeline,
    };
  });
