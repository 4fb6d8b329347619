import { updatePartnerWebhookEndpoint } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZEndpointOutput, ZUpdateEndpointInput } from './partner-procedures.schema.ts';

/** Pauses, resumes or renames a Partner endpoint. */
export const updatePartnerEndpoint = partnerProcedure('partner.webhooks.manage')
  .input(ZUpdateEndpointInput)
  .output(ZEndpointOutput)
  .mutation(async ({ ctx, input }) => ({
    endpoint: await updatePartnerWebhookEndpoint({
      database: ctx.database,
      partnerId: ctx.partner.id,
      endpointId: input.endpointId,
      patch: {
        ...(input.status === undefined ? {} : { status: input.status }),
        ...(input.name === undefined ? {} : { name: input.name }),
      },
      allowPrivateTargets: ctx.webhooks.allowPrivateTargets,
      enqueue: ctx.webhooks.enqueue,
      now: ctx.now,
    }),
  }));
