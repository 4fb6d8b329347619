import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZWebhookEndpoint } from './webhook.schema.ts';

/** The overlap windows the page offers (seconds); the use-case accepts 0 to 7 days. */
export const WEBHOOK_OVERLAP_CHOICES = [0, 3600, 86_400, 604_800] as const;

export const ZRotateWebhookSecretInput = z.object({
  endpointId: ZUuid,
  overlapSeconds: z
    .number({ error: 'Elija cuánto tiempo sigue firmando el secreto anterior.' })
    .int('Elija cuánto tiempo sigue firmando el secreto anterior.')
    .min(0, 'Elija cuánto tiempo sigue firmando el secreto anterior.')
    .max(604_800, 'El secreto anterior puede seguir firmando 7 días como máximo.'),
});
export const ZRotateWebhookSecretOutput = z.object({
  endpoint: ZWebhookEndpoint,
  /** The new signing secret: in this answer only. */
  signingSecret: z.string(),
});
