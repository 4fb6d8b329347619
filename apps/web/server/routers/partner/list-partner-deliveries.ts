import { findPartnerWebhookDeliveries } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZListDeliveriesInput, ZListDeliveriesOutput } from './partner-procedures.schema.ts';

/** Deliveries to the Partner's endpoints, newest first, by cursor. */
export const listPartnerDeliveries = partnerProcedure('partner.webhooks.read')
  .input(ZListDeliveriesInput)
  .output(ZListDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    const page = await findPartnerWebhookDeliveries({
      database: ctx.database,
      partnerId: ctx.partner.id,
      ...(input.status === undefined ? {} : { status: input.status }),
      ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
      limit: 50,
    });
    return {
      nextCursor: page.nextCursor,
      items: page.items.map((delivery) => ({
        id: delivery.id,
        endpointId: delivery.endpointId,
        eventType: delivery.eventType,
        status: delivery.status,
        attempts: delivery.attempts,
        maxAttempts: delivery.maxAttempts,
        failureReason: delivery.failureReason,
        createdAt: delivery.createdAt,
        completedAt: delivery.completedAt,
      })),
    };
  });
