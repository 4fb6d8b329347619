import { z } from 'zod';
import { ZEnvironment, ZWebhookEndpoint, ZWebhookEventType } from './webhook.schema.ts';

export const ZListWebhookEndpointsInput = z.object({ environment: ZEnvironment });
export const ZListWebhookEndpointsOutput = z.object({
  endpoints: z.array(ZWebhookEndpoint),
  /** The types a new endpoint may subscribe to. */
  eventTypes: z.array(ZWebhookEventType),
  /** Whether the caller may change endpoints (support only reads). */
  canManage: z.boolean(),
});
