import { findWebhookDeliveries } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZListWebhookDeliveriesInput,
  ZListWebhookDeliveriesOutput,
} from './list-webhook-deliveries.schema.ts';
import { webhookDeliveryOf } from './webhook.schema.ts';

/** An endpoint's deliveries, newest first, 25 per page by cursor, optionally of one status, each with its attempts. */
export const listWebhookDeliveries = tenantProcedure('webhooks.read')
  .input(ZListWebhookDeliveriesInput)
  .output(ZListWebhookDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    const page = await findWebhookDeliveries({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      endpointId: input.endpointId,
      environment: input.environment,
      ...(input.status == null ? {} : { status: input.status }),
      ...(input.cursor == null ? {} : { cursor: input.cursor }),
    });
    return { items: page.items.map(webhookDeliveryOf), nextCursor: page.nextCursor };
  });
