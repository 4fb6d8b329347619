/**
 * The receiver's side of `Svc-Signature`, as docs/webhooks/receiver-guide.md tells receivers to do
 * it (and as apps/worker/test/example-webhook-receiver.ts does): the header read without a map
 * (`t` once, every `v1`), the timestamp within 5 minutes of the reception, and the HMAC-SHA256 of
 * `<t>.<raw body>` with each installed secret compared in constant time. The test inbox runs it for
 * the person looking at what their inbox received, with the reason when it fails.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from './limits.ts';

/** Why a signature is not accepted. */
export type TWebhookSignatureRefusal =
  'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

export type TWebhookSignatureCheck =
  | {
      valid: true;
      timestamp: number;
      /** Which installed secret matched: the endpoint's current one or the one before its last rotation. */
      secret: 'current' | 'previous';
      /** Seconds between `t` and the reception (positive: `t` before it). */
      skewSeconds: number;
    }
  | { valid: false; reason: TWebhookSignatureRefusal; timestamp: number | null; skewSeconds: number | null };

export function checkWebhookSignature(options: {
  header: string | undefined;
  rawBody: Uint8Array;
  /** The endpoint's current secret, then the previous one when a rotation left one. */
  secrets: readonly string[];
  /** The reception time, in Unix seconds: `t` is judged against it. */
  nowSeconds: number;
  toleranceSeconds?: number;
}): TWebhookSignatureCheck {
  const { header, rawBody, secrets } = options;
  if (header === undefined || header === '')
    return { valid: false, reason: 'missing_header', timestamp: null, skewSeconds: null };
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamps.push(value);
    else if (key === 'v1') signatures.push(value);
  }
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
    return { valid: false, reason: 'malformed_header', timestamp: null, skewSeconds: null };
  const seconds = Number(timestamp);
  const skewSeconds = options.nowSeconds - seconds;
  if (Math.abs(skewSeconds) > (options.toleranceSeconds ?? WEBHOOK_SIGNATURE_TOLERANCE_SECONDS))
    return { valid: false, reason: 'timestamp_out_of_tolerance', timestamp: seconds, skewSeconds };
  const signedPayload = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), rawBody]);
  const received = signatures
    .filter((signature) => /^[0-9a-f]{64}$/i.test(signature))
    .map((signature) => Buffer.from(signature, 'hex'));
  for (const [index, secret] of secrets.entries()) {
    const expected = createHmac('sha256', secret).update(signedPayload).digest();
    if (received.some((signature) => timingSafeEqual(signature, expected)))
      return { valid: true, timestamp: seconds, secret: index === 0 ? 'current' : 'previous', skewSeconds };
  }
  return { valid: false, reason: 'no_matching_signature', timestamp: seconds, skewSeconds };
}
