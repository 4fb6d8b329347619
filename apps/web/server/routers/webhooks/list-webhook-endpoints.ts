import { DIRECT_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { findWebhookEndpoints, hasCapability } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZListWebhookEndpointsInput, ZListWebhookEndpointsOutput } from './list-webhook-endpoints.schema.ts';
import { webhookEndpointOf } from './webhook.schema.ts';

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
      eventTypes: [...DIRECT_WEBHOOK_EVENT_TYPES],
      canManage: hasCapability(ctx.principal, 'webhooks.manage'),
    };
  });
