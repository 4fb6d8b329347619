import { z } from 'zod';
import { ZEnvironment, ZWebhookEndpoint } from './webhook.schema.ts';

export const ZCreateWebhookInboxInput = z.object({ environment: ZEnvironment });
export const ZCreateWebhookInboxOutput = z.object({
  endpoint: ZWebhookEndpoint,
  /** The inbox's address (the endpoint's URL). */
  inboxUrl: z.string(),
  /** The signing secret: in this answer only (stored sealed, never shown again). */
  signingSecret: z.string(),
});
