import { AppError, getTenant, sendAnnulment as sendAnnulmentUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZSendAnnulmentInput, ZSendAnnulmentOutput } from './annulment.schema.ts';
import { annulmentViewOf } from './annulment-view.ts';

/**
 * Signs and sends the ANECF (the use-case of `POST /{environment}/anulaciones-ecf`, with the
 * page's idempotency key): accepted, rejected and uncertain are answers (the page shows them);
 * ANECF_RANGE_RESERVED, ANECF_DOCUMENT_CONFLICT... are errors with their details.
 */
export const sendAnnulment = tenantProcedure('annulments.manage')
  .input(ZSendAnnulmentInput)
  .output(ZSendAnnulmentOutput)
  .mutation(async ({ ctx, input }) => {
    const clientFor = ctx.documents.taxauthClientFor;
    if (clientFor === undefined)
      throw new AppError('SERVICE_UNAVAILABLE', 'The portal has no tax authority address configured.');
    const result = await sendAnnulmentUseCase({
      database: ctx.database,
      tenant: await getTenant({ database: ctx.database, reference: ctx.tenant.id }),
      environment: input.environment,
      request: { ranges: input.ranges, ...(input.reason === undefined ? {} : { reason: input.reason }) },
      idempotencyKey: input.idempotencyKey,
      now: ctx.now,
      xsd: await ctx.documents.loadXsd(),
      clientFor,
      keyring: ctx.certificateKeyring(),
    });
    return { replayed: result.replayed, annulment: annulmentViewOf(result.annulment) };
  });
