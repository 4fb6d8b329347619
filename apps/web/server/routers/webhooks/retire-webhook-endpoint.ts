import { retireWebhookEndpoint as retireWebhookEndpointUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZRetireWebhookEndpointInput,
  ZRetireWebhookEndpointOutput,
} from './retire-webhook-endpoint.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

/** Deletes (retires) an endpoint: history kept, its queued deliveries fail. */
export const retireWebhookEndpoint = tenantProcedure('webhooks.manage')
  .input(ZRetireWebhookEndpointInput)
  .output(ZRetireWebhookEndpointOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, failedDeliveries } = await retireWebhookEndpointUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      endpointId: input.endpointId,
      actor: ctx.actor,
      now: ctx.now,
    });
    return { endpoint: webhookEndpointOf(endpoint), failedDeliveries };
  });
