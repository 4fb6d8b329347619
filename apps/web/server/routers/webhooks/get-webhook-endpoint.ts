import { getWebhookEndpoint as getWebhookEndpointUseCase, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZGetWebhookEndpointInput, ZGetWebhookEndpointOutput } from './get-webhook-endpoint.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

/** One endpoint of the active tenant in this environment; NOT_FOUND otherwise (another tenant's included). */
export const getWebhookEndpoint = tenantProcedure('webhooks.read')
  .input(ZGetWebhookEndpointInput)
  .output(ZGetWebhookEndpointOutput)
  .query(async ({ ctx, input }) => ({
    endpoint: webhookEndpointOf(
      await getWebhookEndpointUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        endpointId: input.endpointId,
        environment: input.environment,
        now: ctx.now,
      }),
    ),
    canManage: hasCapability(ctx.principal, 'webhooks.manage'),
  }));
