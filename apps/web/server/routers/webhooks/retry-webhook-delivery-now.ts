import { retryWebhookDeliveryNow as retryWebhookDeliveryNowUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import {
  ZRetryWebhookDeliveryNowInput,
  ZRetryWebhookDeliveryNowOutput,
} from './retry-webhook-delivery-now.schema.ts';
import { webhookDeliveryOf } from './webhook.schema.ts';

/**
 * "Reintentar ahora": a queued delivery waiting for its next attempt becomes due now (one guarded
 * update: one being sent is never doubled); anything else is CONFLICT `WEBHOOK_REPLAY_NOT_ALLOWED`.
 */
export const retryWebhookDeliveryNow = tenantProcedure('webhooks.manage')
  .input(ZRetryWebhookDeliveryNowInput)
  .output(ZRetryWebhookDeliveryNowOutput)
  .mutation(async ({ ctx, input }) =>
    webhookDeliveryOf(
      await retryWebhookDeliveryNowUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        deliveryId: input.deliveryId,
        enqueue: ctx.webhooks.enqueue,
        actor: ctx.actor,
        now: ctx.now,
      }),
    ),
  );
