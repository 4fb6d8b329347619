import { assertDirectCertification, getTenant, sendCertificationApprovals } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { approvalsViewOf } from './certification-view.ts';
import { ZSendApprovalsInput, ZSendApprovalsOutput } from './certification.schema.ts';

/**
 * Sends the commercial approval tests (`ACEECF_Generadas`, the use-case of `POST
 * /{environment}/certificacion/aprobaciones-comerciales`): stored with its first job; the worker
 * signs and sends the rows one by one. CONFLICT before the data tests were accepted or while a send
 * is in progress; UNPROCESSABLE_CONTENT with `details.errors[]` for a workbook that cannot be sent.
 */
export const sendApprovals = tenantProcedure('certification.manage')
  .input(ZSendApprovalsInput)
  .output(ZSendApprovalsOutput)
  .mutation(async ({ ctx, input }) => {
    await assertDirectCertification(ctx.database, ctx.tenant.id);
    const result = await sendCertificationApprovals({
      database: ctx.database,
      tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
      environment: input.environment,
      body: { workbookBase64: input.workbookBase64 },
      enqueue: ctx.documents.enqueue,
      now: ctx.now(),
    });
    return { commercialApprovals: approvalsViewOf(result.commercialApprovals) };
  });
