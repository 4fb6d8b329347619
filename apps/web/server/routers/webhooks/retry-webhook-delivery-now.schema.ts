import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZWebhookDelivery } from './webhook.schema.ts';

export const ZRetryWebhookDeliveryNowInput = z.object({ deliveryId: ZUuid });
export const ZRetryWebhookDeliveryNowOutput = ZWebhookDelivery;
