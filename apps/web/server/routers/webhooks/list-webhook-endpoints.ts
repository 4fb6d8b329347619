import { DIRECT_WEBHOOK_EVENT_TYPES, findWebhookEndpoints, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListWebhookEndpointsInput, ZListWebhookEndpointsOutput } from './list-webhook-endpoints.schema.ts';
import { WEBHOOK_EVENT_TYPES_OFFERED, webhookEndpointOf } from './webhook.schema.ts';

/** The active tenant's endpoints of one environment (never a secret) and the types on offer. */
export const listWebhookEndpoints = tenantProcedure('webhooks.read')
  .input(ZListWebhookEndpointsInput)
  .output(ZListWebhookEndpointsOutput)
  .query(async ({ ctx, input }) => {
    const endpoints = await findWebhookEndpoints({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      environment: input.environment,
      now: ctx.now,
    });
    return {
      endpoints: endpoints.map(webhookEndpointOf),
      eventTypes: WEBHOOK_EVENT_TYPES_OFFERED.filter((type) => DIRECT_WEBHOOK_EVENT_TYPES.includes(type)),
      canManage: hasCapability(ctx.principal, 'webhooks.manage'),
    };
  });
