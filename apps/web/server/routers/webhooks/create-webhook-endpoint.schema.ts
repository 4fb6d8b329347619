import { z } from 'zod';
import {
  ZEnvironment,
  ZWebhookEndpoint,
  ZWebhookEventTypes,
  ZWebhookName,
  ZWebhookUrl,
} from './webhook.schema.ts';

export const ZCreateWebhookEndpointInput = z.object({
  environment: ZEnvironment,
  name: ZWebhookName,
  url: ZWebhookUrl,
  eventTypes: ZWebhookEventTypes,
});
export const ZCreateWebhookEndpointOutput = z.object({
  endpoint: ZWebhookEndpoint,
  /** The signing secret: in this answer only (stored sealed, never shown again). */
  signingSecret: z.string(),
});
