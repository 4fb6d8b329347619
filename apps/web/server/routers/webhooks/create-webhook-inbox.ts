import { AppError, createWebhookInbox as createWebhookInboxUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZCreateWebhookInboxInput, ZCreateWebhookInboxOutput } from './create-webhook-inbox.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

/**
 * "Crear bandeja de prueba" (TesteCF only; another environment is a field error on `environment`):
 * an endpoint whose URL is the service's own test inbox, subscribed to every event type. The
 * signing secret is in this answer only.
 */
export const createWebhookInbox = tenantProcedure('webhooks.manage')
  .input(ZCreateWebhookInboxInput)
  .output(ZCreateWebhookInboxOutput)
  .mutation(async ({ ctx, input }) => {
    if (ctx.webhooks.inboxBaseUrl === undefined)
      throw new AppError('SERVICE_UNAVAILABLE', 'Test inboxes are not configured (PUBLIC_BASE_URL).');
    const { endpoint, signingSecret, inboxUrl } = await createWebhookInboxUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      keyring: ctx.certificateKeyring(),
      inboxBaseUrl: ctx.webhooks.inboxBaseUrl,
      actor: ctx.actor,
      now: ctx.now,
    });
    return { endpoint: webhookEndpointOf(endpoint), inboxUrl, signingSecret };
  });
