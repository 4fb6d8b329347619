import { z } from 'zod';
import { ZUuid } from '../../../lib/schemas.ts';
import { ZEnvironment } from './webhook.schema.ts';

/** Requests shown per page of an inbox (the inbox keeps 100). */
export const WEBHOOK_INBOX_PAGE_SIZE = 20;

export const ZListWebhookInboxRequestsInput = z.object({ environment: ZEnvironment, endpointId: ZUuid });

export const WEBHOOK_SIGNATURE_REASONS = [
  'missing_header',
  'malformed_header',
  'timestamp_out_of_tolerance',
  'no_matching_signature',
  'body_truncated',
] as const;

export const ZWebhookInboxRequest = z.object({
  id: z.string(),
  receivedAt: z.iso.datetime(),
  headers: z.record(z.string(), z.string()),
  /** The body as received (UTF-8). */
  body: z.string(),
  bodyBytes: z.number().int(),
  bodyTruncated: z.boolean(),
  signature: z.object({
    valid: z.boolean(),
    reason: z.enum(WEBHOOK_SIGNATURE_REASONS).nullable(),
    /** Which secret matched: the current one or the one before the last rotation. */
    secret: z.enum(['current', 'previous']).nullable(),
    timestamp: z.number().int().nullable(),
    skewSeconds: z.number().int().nullable(),
  }),
});

export const ZListWebhookInboxRequestsOutput = z.object({
  /** False when the endpoint is not a test inbox (nothing else is set then). */
  isInbox: z.boolean(),
  keepDays: z.number().int(),
  keepRequests: z.number().int(),
  requests: z.array(ZWebhookInboxRequest),
});
