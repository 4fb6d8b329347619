import { findPartnerWebhookEndpoints, getPartnerWebhookDelivery } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { webhookDeliveryOf } from '../webhooks/webhook.schema.ts';
import { ZPartnerDeliveryInput, ZPartnerDeliveryOutput } from './partner-account.schema.ts';

/**
 * One delivery to one of the Partner's endpoints with every attempt (start, duration, outcome, the
 * receiver's HTTP code, the first bytes of its answer, the error) and the endpoint it went to;
 * another Partner's id answers NOT_FOUND, exactly like none.
 */
export const getPartnerDelivery = partnerProcedure('partner.webhooks.read')
  .input(ZPartnerDeliveryInput)
  .output(ZPartnerDeliveryOutput)
  .query(async ({ ctx, input }) => {
    const delivery = await getPartnerWebhookDelivery({
      database: ctx.database,
      partnerId: ctx.partner.id,
      deliveryId: input.deliveryId,
    });
    const endpoints = await findPartnerWebhookEndpoints({
      database: ctx.database,
      partnerId: ctx.partner.id,
      now: ctx.now,
    });
    const endpoint = endpoints.find((candidate) => candidate.id === delivery.endpointId) ?? null;
    return {
      delivery: { ...webhookDeliveryOf(delivery), endpointId: delivery.endpointId },
      endpoint:
        endpoint === null
          ? null
          : { id: endpoint.id, name: endpoint.name, url: endpoint.url, status: endpoint.status },
    };
  });
