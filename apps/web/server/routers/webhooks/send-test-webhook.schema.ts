import { z } from 'zod';
import { ZEndpointId } from './webhook.schema.ts';

export const ZSendTestWebhookInput = ZEndpointId;
export const ZSendTestWebhookOutput = z.object({ eventId: z.uuid(), deliveryId: z.uuid() });
