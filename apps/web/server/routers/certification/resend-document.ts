import { assertDirectCertification, resendCertificationDocument } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZResendInput, ZResendOutput } from './certification.schema.ts';

/**
 * Sends a stuck certification receipt again, or asks for its status when it has a TrackID (the
 * use-case of `POST /{environment}/certificacion/documentos/{documentId}/reenviar`). NOT_FOUND for a
 * document that is not a certification receipt of this tenant; CONFLICT for one already resolved.
 */
export const resendDocument = tenantProcedure('certification.manage')
  .input(ZResendInput)
  .output(ZResendOutput)
  .mutation(async ({ ctx, input }) => {
    await assertDirectCertification(ctx.database, ctx.tenant.id);
    return resendCertificationDocument({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      documentId: input.documentId,
      enqueue: ctx.documents.enqueue,
      now: ctx.now(),
    });
  });
