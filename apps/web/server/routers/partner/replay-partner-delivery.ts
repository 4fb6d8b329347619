import { replayPartnerWebhookDelivery } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZReplayInput, ZReplayOutput } from './partner-procedures.schema.ts';

/** Re-queues a failed delivery of an active endpoint (CONFLICT otherwise). */
export const replayPartnerDelivery = partnerProcedure('partner.webhooks.manage')
  .input(ZReplayInput)
  .output(ZReplayOutput)
  .mutation(async ({ ctx, input }) => {
    const delivery = await replayPartnerWebhookDelivery({
      database: ctx.database,
      partnerId: ctx.partner.id,
      deliveryId: input.deliveryId,
      enqueue: ctx.webhooks.enqueue,
      now: ctx.now,
    });
    return {
      delivery: {
        id: delivery.id,
        endpointId: delivery.endpointId,
        eventType: delivery.eventType,
        status: delivery.status,
        attempts: delivery.attempts,
        maxAttempts: delivery.maxAttempts,
        failureReason: delivery.failureReason,
        createdAt: delivery.createdAt,
        completedAt: delivery.completedAt,
      },
    };
  });
