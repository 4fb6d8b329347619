import { replayWebhookDelivery as replayWebhookDeliveryUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZReplayWebhookDeliveryInput,
  ZReplayWebhookDeliveryOutput,
} from './replay-webhook-delivery.schema.ts';
import { webhookDeliveryOf } from './webhook.schema.ts';

/**
 * Re-queues a failed delivery of an active endpoint (same event, same attempt counter; one more
 * attempt when all 8 were used); anything else is CONFLICT `WEBHOOK_REPLAY_NOT_ALLOWED`.
 */
export const replayWebhookDelivery = tenantProcedure('webhooks.manage')
  .input(ZReplayWebhookDeliveryInput)
  .output(ZReplayWebhookDeliveryOutput)
  .mutation(async ({ ctx, input }) =>
    webhookDeliveryOf(
      await replayWebhookDeliveryUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        deliveryId: input.deliveryId,
        enqueue: ctx.webhooks.enqueue,
        actor: ctx.actor,
        now: ctx.now,
      }),
    ),
  );
