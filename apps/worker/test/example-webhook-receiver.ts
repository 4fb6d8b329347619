/**
 * An example receiver of our webhooks, the one docs/webhooks/receiver-guide.md walks through:
 * node:http and node:crypto only, nothing of this repository, so it can be copied into a
 * receiver's own code base. It is typechecked and linted with the worker and run by its tests
 * (`src/example-webhook-receiver.test.ts` feeds it requests signed by our signer;
 * `src/kill-webhooks.test.ts` uses it as the receiver while the worker is killed).
 *
 * What it does, in order, for every POST:
 * 1. reads the raw body (bytes, at most 1 MiB) before any parsing;
 * 2. verifies `Svc-Signature` over `<t>.<raw body>`: every `v1` against every installed secret,
 *    compared in constant time, the timestamp within 5 minutes of its clock;
 * 3. parses the JSON and checks that the (signed) body `id` is the `Svc-Event-Id` header;
 * 4. stores the event under its id (a unique key) BEFORE anything is applied: a duplicate is
 *    answered 200 and applied no second time;
 * 5. answers 200 at once and applies the event afterwards, from what it stored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

/** Timestamps further than this from the receiver's clock are refused (replayed or delayed requests). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Our bodies are a few KB; a larger one is not from us. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type TSignatureCheck =
  | { valid: true; timestamp: number }
  | {
      valid: false;
      reason: 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';
    };

/**
 * Verifies a `Svc-Signature` header (`t=<unix seconds>,v1=<hex>[,v1=<hex>]`) against the RAW body
 * bytes as received. The header is read as a list, never as a map: during a secret rotation it
 * carries two `v1`, and a map keeps only one of them.
 */
export function verifyWebhookSignature(options: {
  header: string | undefined;
  rawBody: Buffer;
  /** Every secret installed now: during a rotation, the old one and the new one. */
  secrets: readonly string[];
  nowSeconds?: number;
  toleranceSeconds?: number;
}): TSignatureCheck {
  const { header, rawBody, secrets } = options;
  if (header === undefined || header === '') return { valid: false, reason: 'missing_header' };
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamps.push(value);
    else if (key === 'v1') signatures.push(value);
    // Other schemes (a future v2) are ignored, not refused.
  }
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || timestamp === undefined || !/^\d{1,12}$/.test(timestamp))
    return { valid: false, reason: 'malformed_header' };
  const nowSeconds = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS))
    return { valid: false, reason: 'timestamp_out_of_tolerance' };
  const signedPayload = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), rawBody]);
  const received = signatures
    .filter((signature) => /^[0-9a-f]{64}$/i.test(signature))
    .map((signature) => Buffer.from(signature, 'hex'));
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(signedPayload).digest();
    // Constant time: timingSafeEqual on equal-length buffers (both are 32 bytes here).
    if (received.some((signature) => timingSafeEqual(signature, expected)))
      return { valid: true, timestamp: Number(timestamp) };
  }
  return { valid: false, reason: 'no_matching_signature' };
}

/** An event as the receiver stores it: its id, its type and the exact body received. */
export type TStoredEvent = { id: string; type: string; body: unknown; receivedAt: Date };

/**
 * Where events are stored under a unique key on their id: `add` returns false when that id is
 * already there. In PostgreSQL, `INSERT INTO webhook_inbox (event_id, ...) VALUES (...)
 * ON CONFLICT (event_id) DO NOTHING RETURNING event_id` (a row back: new; none: a duplicate).
 */
export type TWebhookInbox = {
  add(event: TStoredEvent): Promise<boolean>;
  markApplied(id: string): Promise<void>;
};

/** An in-memory inbox (tests, demos): a Map keyed by event id. */
export function createMemoryInbox() {
  const events = new Map<string, TStoredEvent & { appliedAt: Date | null }>();
  const inbox: TWebhookInbox = {
    async add(event) {
      if (events.has(event.id)) return false;
      events.set(event.id, { ...event, appliedAt: null });
      return true;
    },
    async markApplied(id) {
      const event = events.get(id);
      if (event) event.appliedAt = new Date();
    },
  };
  return { ...inbox, events };
}

export type TWebhookReceiverOptions = {
  /** The endpoint's secrets installed now (read at every request: rotation needs no restart). */
  secrets: () => readonly string[];
  inbox: TWebhookInbox;
  /** Applies one event; called once per event id, after the 200 was sent. */
  apply: (event: TStoredEvent) => Promise<void>;
  /** Called when `apply` fails (the event stays stored, not applied: apply it again later). */
  onApplyError?: (event: TStoredEvent, error: unknown) => void;
  nowSeconds?: () => number;
};

/** A header as text (Node joins a repeated header of unknown name with ", "). */
const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/** The request handler; mount it on `http.createServer` (see `startWebhookReceiver`). */
export function createWebhookReceiver(options: TWebhookReceiverOptions): http.RequestListener {
  const answer = (response: http.ServerResponse, status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  return (request, response) => {
    if (request.method !== 'POST') return answer(response, 405, { error: 'method_not_allowed' });
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => {
      if (tooLarge) return answer(response, 413, { error: 'body_too_large' });
      const rawBody = Buffer.concat(chunks);
      const check = verifyWebhookSignature({
        header: headerText(request.headers['svc-signature']),
        rawBody,
        secrets: options.secrets(),
        ...(options.nowSeconds ? { nowSeconds: options.nowSeconds() } : {}),
      });
      // 4xx: not from us (or signed with a secret not installed here): our side does not retry it.
      if (!check.valid) return answer(response, 401, { error: check.reason });
      let body: { id?: unknown; type?: unknown };
      try {
        body = JSON.parse(rawBody.toString('utf8')) as { id?: unknown; type?: unknown };
      } catch {
        return answer(response, 400, { error: 'invalid_json' });
      }
      // The header is not signed, the body is: dedupe on the body's id, and refuse a mismatch.
      const headerId = headerText(request.headers['svc-event-id']);
      if (typeof body.id !== 'string' || body.id !== headerId || typeof body.type !== 'string')
        return answer(response, 400, { error: 'event_id_mismatch' });
      const event: TStoredEvent = { id: body.id, type: body.type, body, receivedAt: new Date() };
      options.inbox.add(event).then(
        (isNew) => {
          // Stored (or stored before): 200 now; the work happens after the answer.
          answer(response, 200, { received: true, duplicate: !isNew });
          if (!isNew) return;
          setImmediate(() => {
            options
              .apply(event)
              .then(() => options.inbox.markApplied(event.id))
              .catch((error: unknown) => options.onApplyError?.(event, error));
          });
        },
        // Not stored: a 5xx makes the sender retry later.
        () => answer(response, 503, { error: 'inbox_unavailable' }),
      );
    });
  };
}

/** Starts the receiver on `port` (0: any free port) of 127.0.0.1; resolves with its URL. */
export async function startWebhookReceiver(
  options: TWebhookReceiverOptions & { port?: number },
): Promise<{ url: string; server: http.Server; close: () => Promise<void> }> {
  const server = http.createServer(createWebhookReceiver(options));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/webhooks`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Final document statuses: once one is applied, a late event must not replace it unchecked. */
export const FINAL_DOCUMENT_STATUSES: readonly string[] = [
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
  'transmission_failed',
];

/**
 * What to do with a document event given the status the receiver holds. Events can arrive late,
 * twice or out of order (each retry waits longer; two events of one document travel apart), and
 * `document.status` is a snapshot: apply a newer snapshot, ignore the same status again, and when
 * an event would replace a FINAL status (or is older than what is held), ask the status batch
 * (`POST /{environment}/documentos-ecf/status/batch`) and store what it answers instead.
 */
export function decideDocumentUpdate(
  held: { status: string; eventCreatedAt: string } | undefined,
  incoming: { status: string; eventCreatedAt: string },
): 'apply' | 'ignore' | 'check_status_batch' {
  if (held === undefined) return 'apply';
  if (held.status === incoming.status) return 'ignore';
  if (FINAL_DOCUMENT_STATUSES.includes(held.status)) return 'check_status_batch';
  return Date.parse(incoming.eventCreatedAt) >= Date.parse(held.eventCreatedAt)
    ? 'apply'
    : 'check_status_batch';
}

/** The status batch, for `check_status_batch`: the current status of up to 100 eNCF (50 recommended). */
export async function fetchDocumentStatuses(options: {
  baseUrl: string;
  environment: 'TesteCF' | 'CerteCF' | 'eCF';
  apiKey: string;
  encfs: string[];
}): Promise<Array<{ encf: string; status: string; trackId: string | null }>> {
  const response = await fetch(`${options.baseUrl}/${options.environment}/documentos-ecf/status/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': options.apiKey },
    body: JSON.stringify({ encfs: options.encfs }),
  });
  if (!response.ok) throw new Error(`status batch answered ${response.status}`);
  const body = (await response.json()) as {
    found: Array<{ encf: string; status: string; trackId: string | null }>;
  };
  return body.found;
}
