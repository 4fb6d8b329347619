import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZWebhookDelivery } from './webhook.schema.ts';

export const ZReplayWebhookDeliveryInput = z.object({ deliveryId: ZUuid });
export const ZReplayWebhookDeliveryOutput = ZWebhookDelivery;
