import type { TDatabase } from '@ecf/db';
import { insertWebhookInboxRequest } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { webhookInboxTokenHash } from './create-webhook-inbox.ts';
import { WEBHOOK_INBOX_TOKEN_PATTERN } from './transport/index.ts';

/** Body bytes kept per request (a webhook body is a few KiB; the route accepts up to 64 KiB). */
export const WEBHOOK_INBOX_BODY_KEEP_BYTES = 64 * 1024;
/** Headers kept per request, and characters per header value. */
export const WEBHOOK_INBOX_MAX_HEADERS = 40;
export const WEBHOOK_INBOX_HEADER_VALUE_MAX_LENGTH = 1000;

/** Credentials never kept, whoever sends them. */
const DROPPED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-api-key',
  'x-partner-key',
  'x-reception-proxy-secret',
]);

/**
 * What a test inbox received (`POST /webhook-inbox/{token}`): the headers (names lower case, the
 * first 40, values cut at 1000 characters, credentials left out), the body's bytes (the first 64 KiB)
 * and its size, at `now`. The inbox keeps the newest 100 for 7 days. An unknown or malformed token,
 * or the inbox of a retired endpoint, is NOT_FOUND: nothing is kept.
 */
export async function recordWebhookInboxRequest(options: {
  database: TDatabase;
  token: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Uint8Array;
  now?: () => Date;
}): Promise<{ requestId: string; receivedAt: Date }> {
  if (!WEBHOOK_INBOX_TOKEN_PATTERN.test(options.token))
    throw new AppError('NOT_FOUND', 'No test inbox at this address.');
  const headers: Record<string, string> = {};
  let kept = 0;
  for (const [name, value] of Object.entries(options.headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || DROPPED_HEADERS.has(lower)) continue;
    if (kept >= WEBHOOK_INBOX_MAX_HEADERS) break;
    headers[lower] = (Array.isArray(value) ? value.join(', ') : value).slice(
      0,
      WEBHOOK_INBOX_HEADER_VALUE_MAX_LENGTH,
    );
    kept += 1;
  }
  const receivedAt = (options.now ?? (() => new Date()))();
  const body = Buffer.from(options.body.subarray(0, WEBHOOK_INBOX_BODY_KEEP_BYTES));
  const recorded = await insertWebhookInboxRequest(options.database, {
    tokenSha256: webhookInboxTokenHash(options.token),
    receivedAt,
    headers,
    body,
    bodyBytes: options.body.byteLength,
  });
  if (recorded === null) throw new AppError('NOT_FOUND', 'No test inbox at this address.');
  return { requestId: recorded.id, receivedAt };
}
