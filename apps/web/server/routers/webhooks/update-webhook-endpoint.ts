import { updateWebhookEndpoint as updateWebhookEndpointUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZUpdateWebhookEndpointInput,
  ZUpdateWebhookEndpointOutput,
} from './update-webhook-endpoint.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

/** Pauses, resumes, renames, moves or resubscribes an endpoint; a retired one is CONFLICT (WEBHOOK_ENDPOINT_RETIRED). */
export const updateWebhookEndpoint = tenantProcedure('webhooks.manage')
  .input(ZUpdateWebhookEndpointInput)
  .output(ZUpdateWebhookEndpointOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpointId, ...patch } = input;
    return webhookEndpointOf(
      await updateWebhookEndpointUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        endpointId,
        patch: {
          ...(patch.status === undefined ? {} : { status: patch.status }),
          ...(patch.name === undefined ? {} : { name: patch.name }),
          ...(patch.url === undefined ? {} : { url: patch.url }),
          ...(patch.eventTypes === undefined ? {} : { eventTypes: patch.eventTypes }),
        },
        allowPrivateTargets: ctx.webhooks.allowPrivateTargets,
        enqueue: ctx.webhooks.enqueue,
        actor: ctx.actor,
        now: ctx.now,
      }),
    );
  });
