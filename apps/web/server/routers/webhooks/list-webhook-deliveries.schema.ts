import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { WEBHOOK_DELIVERY_STATUSES, ZEnvironment, ZWebhookDelivery } from './webhook.schema.ts';

export const ZListWebhookDeliveriesInput = z.object({
  environment: ZEnvironment,
  endpointId: ZUuid,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: 'Estado desconocido.' }).nullish(),
  cursor: z.string().max(200, 'Cursor no válido.').nullish(),
});
export const ZListWebhookDeliveriesOutput = z.object({
  items: z.array(ZWebhookDelivery),
  /** The next (older) page, null on the last. */
  nextCursor: z.string().nullable(),
});
