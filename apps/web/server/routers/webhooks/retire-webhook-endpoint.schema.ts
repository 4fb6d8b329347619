import { z } from 'zod';
import { ZEndpointId, ZWebhookEndpoint } from './webhook.schema.ts';

export const ZRetireWebhookEndpointInput = ZEndpointId;
export const ZRetireWebhookEndpointOutput = z.object({
  endpoint: ZWebhookEndpoint,
  /** Queued deliveries that became failed. */
  failedDeliveries: z.number().int(),
});
