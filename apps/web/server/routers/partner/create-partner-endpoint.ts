import { createPartnerWebhookEndpoint } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZCreateEndpointInput, ZCreateEndpointOutput } from './partner-procedures.schema.ts';

/** A Partner webhook endpoint (every environment); the secret in this answer only; the same URL again: replayed. */
export const createPartnerEndpoint = partnerProcedure('partner.webhooks.manage')
  .input(ZCreateEndpointInput)
  .output(ZCreateEndpointOutput)
  .mutation(async ({ ctx, input }) =>
    createPartnerWebhookEndpoint({
      database: ctx.database,
      partnerId: ctx.partner.id,
      name: input.name,
      url: input.url,
      ...(input.eventTypes === 'all' ? {} : { eventTypes: input.eventTypes }),
      keyring: ctx.certificateKeyring(),
      allowPrivateTargets: ctx.webhooks.allowPrivateTargets,
      now: ctx.now,
    }),
  );
