import { createWebhookEndpoint as createWebhookEndpointUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZCreateWebhookEndpointInput,
  ZCreateWebhookEndpointOutput,
} from './create-webhook-endpoint.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

/**
 * Creates an endpoint in the active tenant and environment; the URL rules run again (a refused URL
 * is a field error on `url`, `details.code`). The signing secret is in this answer only.
 */
export const createWebhookEndpoint = tenantProcedure('webhooks.manage')
  .input(ZCreateWebhookEndpointInput)
  .output(ZCreateWebhookEndpointOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, signingSecret } = await createWebhookEndpointUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      name: input.name,
      url: input.url,
      eventTypes: input.eventTypes,
      keyring: ctx.certificateKeyring(),
      allowPrivateTargets: ctx.webhooks.allowPrivateTargets,
      actor: ctx.actor,
      now: ctx.now,
    });
    return { endpoint: webhookEndpointOf(endpoint), signingSecret };
  });
