import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZWebhookEndpoint, ZWebhookEventTypes, ZWebhookName, ZWebhookUrl } from './webhook.schema.ts';

/** PATCH: absent fields stay as they are; `status` pauses or resumes (DELETE retires). */
export const ZUpdateWebhookEndpointInput = z.object({
  endpointId: ZUuid,
  status: z.enum(['active', 'paused'], { error: 'Estado no válido.' }).optional(),
  name: ZWebhookName.optional(),
  url: ZWebhookUrl.optional(),
  eventTypes: ZWebhookEventTypes.optional(),
});
export const ZUpdateWebhookEndpointOutput = ZWebhookEndpoint;
