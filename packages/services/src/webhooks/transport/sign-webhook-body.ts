/**
 * The `Svc-Signature` header and the request headers (spec, Events: "Headers and signature").
 * `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint secret as
 * given (the whole `whsec_…` string, as Stripe does), one `v1` per installed secret — two during a
 * rotation's `overlapSeconds`, in the order given. The scheme is Stripe's, so its SDK verifies it.
 */
import { createHmac } from 'node:crypto';
import { WEBHOOK_USER_AGENT } from './limits.ts';

export function signWebhookBody(options: {
  body: string | Uint8Array;
  secrets: readonly string[];
  timestampSeconds: number;
}): string {
  if (options.secrets.length === 0) throw new Error('A webhook is signed with at least one secret.');
  if (!Number.isSafeInteger(options.timestampSeconds)) throw new Error('The timestamp is whole seconds.');
  const prefix = `${options.timestampSeconds}.`;
  const signatures = options.secrets.map((secret) =>
    createHmac('sha256', secret).update(prefix).update(options.body).digest('hex'),
  );
  return [`t=${options.timestampSeconds}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}

/** The headers of every attempt; `Svc-Event-Id` is the event's, the same on every retry. */
export function webhookRequestHeaders(options: {
  eventId: string;
  eventType: string;
  signature: string;
  userAgent?: string | undefined;
}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'svc-event-id': options.eventId,
    'svc-event-type': options.eventType,
    'svc-signature': options.signature,
    'user-agent': options.userAgent ?? WEBHOOK_USER_AGENT,
  };
}
