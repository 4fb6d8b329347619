import {
  replayWebhookDelivery as replayWebhookDeliveryUseCase,
  retryWebhookDeliveryNow as retryWebhookDeliveryNowUseCase,
} from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZReplayWebhookDeliveryInput,
  ZReplayWebhookDeliveryOutput,
} from './replay-webhook-delivery.schema.ts';
import { webhookDeliveryOf } from './webhook.schema.ts';

/** A procedure that puts one delivery back in the queue through `useCase` (same input, output and guard). */
function requeueProcedure(useCase: typeof replayWebhookDeliveryUseCase) {
  return tenantProcedure('webhooks.manage')
    .input(ZReplayWebhookDeliveryInput)
    .output(ZReplayWebhookDeliveryOutput)
    .mutation(async ({ ctx, input }) =>
      webhookDeliveryOf(
        await useCase({
          database: ctx.database,
          tenantId: ctx.tenant.id,
          deliveryId: input.deliveryId,
          enqueue: ctx.webhooks.enqueue,
          actor: ctx.actor,
          now: ctx.now,
        }),
      ),
    );
}

/**
 * Re-queues a failed delivery of an active endpoint (same event, same attempt counter; one more
 * attempt when all 8 were used); anything else is CONFLICT `WEBHOOK_REPLAY_NOT_ALLOWED`.
 */
export const replayWebhookDelivery = requeueProcedure(replayWebhookDeliveryUseCase);

/**
 * "Reintentar ahora": a queued delivery waiting for its next attempt becomes due now (one guarded
 * update: one being sent is never doubled); anything else is CONFLICT `WEBHOOK_REPLAY_NOT_ALLOWED`.
 */
export const retryWebhookDeliveryNow = requeueProcedure(retryWebhookDeliveryNowUseCase);
