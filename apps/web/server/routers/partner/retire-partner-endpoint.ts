import { retirePartnerWebhookEndpoint } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZEndpointIdInput, ZEndpointOutput } from './partner-procedures.schema.ts';

/** Retires a Partner endpoint (history kept). */
export const retirePartnerEndpoint = partnerProcedure('partner.webhooks.manage')
  .input(ZEndpointIdInput)
  .output(ZEndpointOutput)
  .mutation(async ({ ctx, input }) => ({
    endpoint: await retirePartnerWebhookEndpoint({
      database: ctx.database,
      partnerId: ctx.partner.id,
      endpointId: input.endpointId,
      now: ctx.now,
    }),
  }));
