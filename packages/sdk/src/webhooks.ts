/**
 * `verifyWebhook`: the contract's receiver rules (spec, Events: "Headers and signature"), exactly.
 *
 * - the raw body, byte for byte as received (parse it only after the check);
 * - `Svc-Signature` read without a key-value map: `t` once, every `v1` kept (two during a secret
 *   rotation);
 * - `t` within `toleranceSeconds` (default 300) of now, either side;
 * - HMAC-SHA256 of `<t>.<raw body>` with each installed secret; any `v1` matching any secret is
 *   enough; the comparison is the platform's (`crypto.subtle.verify`), in constant time.
 *
 * Web Crypto only: the same code runs in Node 20+, Deno, Bun and edge runtimes.
 */
import type { webhooks } from './generated/openapi.ts';

/** An event of a direct account's webhook endpoint (configured in the portal). */
export type TDirectWebhookEvent =
  webhooks['directEvent']['post']['requestBody']['content']['application/json'];
/** A Partner webhook event (`schemaVersion: partner.webhook.v1`). */
export type TPartnerWebhookEvent =
  webhooks['partnerEvent']['post']['requestBody']['content']['application/json'];
export type TWebhookEvent = TDirectWebhookEvent | TPartnerWebhookEvent;

export type TWebhookRefusal =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'no_matching_signature'
  | 'invalid_body'
  | 'event_id_mismatch';

/** The delivery is not one the service signed (or not within the tolerance): answer 400, apply nothing. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  readonly reason: TWebhookRefusal;
  constructor(reason: TWebhookRefusal, message: string) {
    super(message);
    this.reason = reason;
  }
}

export const WEBHOOK_TOLERANCE_SECONDS = 300;

type THeaders = Headers | Record<string, string | string[] | undefined>;

export type TVerifyWebhookOptions = {
  /** The body exactly as received: bytes, or the string they decode to (UTF-8). */
  rawBody: Uint8Array | ArrayBuffer | string;
  /** The request's headers: a fetch `Headers` or Node's `req.headers`. */
  headers: THeaders;
  /** The endpoint's secrets: the current one and, during a rotation, the previous one. */
  secrets: readonly string[];
  toleranceSeconds?: number;
  /** Now, in Unix seconds (tests); default the clock. */
  nowSeconds?: number;
};

/** The verified delivery: the typed event, its id (dedupe on it) and which secret matched. */
export type TVerifiedWebhook<Event = TWebhookEvent> = {
  event: Event;
  eventId: string;
  eventType: string;
  timestamp: number;
  /** The index in `secrets` of the secret that signed it. */
  secretIndex: number;
};

const encoder = new TextEncoder();

function headerOf(headers: THeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>))
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(',') : value;
  return undefined;
}

function bytesOfHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const bytes = new Uint8Array(32);
  for (let index = 0; index < 32; index++)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/**
 * Checks a delivery and returns its event; throws `WebhookVerificationError` (with `reason`) when
 * it is not the service's. Store `eventId` under a unique constraint before acting on the event.
 */
export async function verifyWebhook<Event = TWebhookEvent>(
  options: TVerifyWebhookOptions,
): Promise<TVerifiedWebhook<Event>> {
  const { headers, secrets } = options;
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs at least one secret.');
  const header = headerOf(headers, 'svc-signature');
  if (header === undefined || header.trim() === '')
    throw new WebhookVerificationError('missing_header', 'Svc-Signature is missing.');
  const timestamps: string[] = [];
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamps.push(value);
    else if (key === 'v1') {
      const bytes = bytesOfHex(value);
      if (bytes) signatures.push(bytes);
    }
  }
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError(
      'malformed_header',
      'Svc-Signature needs exactly one t=<unix seconds>.',
    );
  const seconds = Number(timestamp);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(now - seconds) > tolerance)
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `Svc-Signature's t is ${now - seconds} s from now (at most ${tolerance}).`,
    );
  const raw =
    typeof options.rawBody === 'string'
      ? encoder.encode(options.rawBody)
      : options.rawBody instanceof Uint8Array
        ? options.rawBody
        : new Uint8Array(options.rawBody);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + raw.length);
  signed.set(prefix, 0);
  signed.set(raw, prefix.length);
  let secretIndex = -1;
  for (const [index, secret] of secrets.entries()) {
    const key = await globalThis.crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    for (const signature of signatures)
      if (await globalThis.crypto.subtle.verify('HMAC', key, signature, signed)) secretIndex = index;
    if (secretIndex >= 0) break;
  }
  if (secretIndex < 0)
    throw new WebhookVerificationError('no_matching_signature', 'No v1 of Svc-Signature matches a secret.');
  let event: { id?: unknown; type?: unknown };
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)) as typeof event;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON.');
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string'
  )
    throw new WebhookVerificationError('invalid_body', 'The signed body is not an event (id, type).');
  const eventId = headerOf(headers, 'svc-event-id');
  if (eventId !== undefined && eventId !== event.id)
    throw new WebhookVerificationError('event_id_mismatch', 'Svc-Event-Id is not the event’s id.');
  return { event: event as Event, eventId: event.id, eventType: event.type, timestamp: seconds, secretIndex };
}
