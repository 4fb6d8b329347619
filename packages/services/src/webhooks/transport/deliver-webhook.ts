/**
 * One webhook attempt: a signed `POST` to the endpoint, and what its answer means (spec, "Partner
 * delivery and retries", the same for both systems):
 *
 * | answer                                                    | outcome     |
 * |-----------------------------------------------------------|-------------|
 * | any 2xx                                                   | `succeeded` |
 * | network error (refused, reset, closed, TLS), timeout, 408, 429, 5xx | `retry` |
 * | 3xx (never followed), other 4xx, over 64 KiB, refused target | `failed` |
 *
 * A TLS failure, an invalid certificate included, is a network error (`certificate_invalid`): the
 * receiver may renew it before the attempts run out. The target is checked again here, before
 * connecting (a literal address) or inside the connection's lookup (a host name), never trusting
 * the save-time check. Redirects are never followed: undici's dispatcher follows none unless asked.
 * The function does not throw for anything the receiver or the network does.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request, type Dispatcher } from 'undici';
import {
  WEBHOOK_RESPONSE_EXCERPT_BYTES,
  WEBHOOK_RESPONSE_LIMIT_BYTES,
  WEBHOOK_TIMEOUT_MS,
} from './limits.ts';
import { signWebhookBody, webhookRequestHeaders } from './sign-webhook-body.ts';
import {
  guardedLookup,
  isWebhookInboxUrl,
  webhookUrlRefusal,
  WebhookTargetRefusedError,
  type TWebhookResolver,
  type TWebhookTargetRefusal,
} from './target-rules.ts';

export type TWebhookDeliveryOutcome = 'succeeded' | 'retry' | 'failed';

/** Why an attempt did not succeed, besides a refused target (the portal's catalogue walks this list). */
export const WEBHOOK_ATTEMPT_ERROR_CODES = [
  /** A non-2xx, non-3xx answer (`status` says which). */
  'http_status',
  /** A 3xx answer, not followed. */
  'redirect',
  /** No complete answer within the timeout. */
  'timeout',
  /** Refused, reset or closed connection, DNS failure, TLS failure. */
  'network',
  /** TLS: the receiver's certificate is not valid for its host (expired, self-signed, wrong name...). */
  'certificate_invalid',
  /** The answer is longer than 64 KiB. */
  'response_too_large',
] as const;

export type TWebhookDeliveryErrorCode =
  | (typeof WEBHOOK_ATTEMPT_ERROR_CODES)[number]
  /** The target is not allowed (checked again at this attempt). */
  | TWebhookTargetRefusal;

export type TWebhookDeliveryResult = {
  outcome: TWebhookDeliveryOutcome;
  /** The answer's HTTP status, when one arrived. */
  status?: number;
  durationMs: number;
  /** The first bytes of the answer's body (UTF-8, NULs removed), when it had one. */
  responseExcerpt?: string;
  /** Why it did not succeed; absent on success. */
  error?: { code: TWebhookDeliveryErrorCode; message: string };
};

export type TDeliverWebhookOptions = {
  url: string;
  /** The exact stored body bytes, the same on every attempt. */
  body: string | Uint8Array;
  /** `Svc-Event-Id`, the same on every attempt. */
  eventId: string;
  eventType: string;
  /** The endpoint's installed secrets: one, or two during a rotation's overlap. */
  secrets: readonly string[];
  /** `Svc-Webhooks/1.0` when absent (the direct system). */
  userAgent?: string | undefined;
  /** The clock of `t=`; each attempt is signed anew. */
  now: () => Date;
  allowPrivateTargets: boolean;
  /** 10 000 ms when absent. */
  timeoutMs?: number | undefined;
  /** Host name resolution (tests); the system resolver when absent. */
  resolve?: TWebhookResolver | undefined;
  /** The service's public address: its test inbox URLs are allowed (`isWebhookInboxUrl`). */
  inboxBaseUrl?: string | undefined;
};

/** Kept-alive connections per guard setting; every new connection runs the guarded lookup. */
const sharedAgents = new Map<boolean, Agent>();

function agentFor(allowPrivateTargets: boolean, resolve: TWebhookResolver | undefined): Agent {
  const create = () =>
    new Agent({
      connect: { lookup: guardedLookup({ allowPrivateTargets, resolve }) },
      keepAliveTimeout: 4_000,
    });
  if (resolve !== undefined) return create();
  let agent = sharedAgents.get(allowPrivateTargets);
  if (agent === undefined) {
    agent = create();
    sharedAgents.set(allowPrivateTargets, agent);
  }
  return agent;
}

/** Closes the kept-alive connections (graceful shutdown). */
export async function closeWebhookConnections(): Promise<void> {
  const agents = [...sharedAgents.values()];
  sharedAgents.clear();
  await Promise.all(agents.map((agent) => agent.close()));
}

const CERTIFICATE_ERROR_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** The longest `error.message` (the attempts log keeps `code: message` in 200 characters). */
export const WEBHOOK_ERROR_MESSAGE_MAX_LENGTH = 160;

export async function deliverWebhook(options: TDeliverWebhookOptions): Promise<TWebhookDeliveryResult> {
  const result = await attemptDelivery(options);
  const message = result.error?.message;
  if (
    result.error === undefined ||
    message === undefined ||
    message.length <= WEBHOOK_ERROR_MESSAGE_MAX_LENGTH
  )
    return result;
  return {
    ...result,
    error: { ...result.error, message: `${message.slice(0, WEBHOOK_ERROR_MESSAGE_MAX_LENGTH - 1)}…` },
  };
}

async function attemptDelivery(options: TDeliverWebhookOptions): Promise<TWebhookDeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // Signed first: a missing secret is a programmer error and throws before anything is sent.
  const signature = signWebhookBody({
    body: options.body,
    secrets: options.secrets,
    timestampSeconds: Math.floor(options.now().getTime() / 1000),
  });
  const refusal = webhookUrlRefusal(options.url, options);
  if (refusal !== null)
    return {
      outcome: 'failed',
      durationMs: elapsed(),
      error: { code: refusal.reason, message: refusal.message },
    };

  // The service's own test inbox may be on a private address (a local stack, an internal load
  // balancer): its origin is the operator's PUBLIC_BASE_URL, so its connection skips the address check.
  const agent = agentFor(
    options.allowPrivateTargets || isWebhookInboxUrl(options.url, options.inboxBaseUrl),
    options.resolve,
  );
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  let status: number | undefined;
  let excerpt: string | undefined;
  try {
    const response = await request(options.url, {
      method: 'POST',
      headers: webhookRequestHeaders({ ...options, signature }),
      body: options.body,
      dispatcher: agent,
      signal: controller.signal,
    });
    status = response.statusCode;
    const read = await readLimited(response.body);
    excerpt = excerptOf(read.bytes);
    const answered = {
      status,
      durationMs: elapsed(),
      ...(excerpt === undefined ? {} : { responseExcerpt: excerpt }),
    };
    if (read.tooLarge)
      return {
        outcome: 'failed',
        ...answered,
        error: {
          code: 'response_too_large',
          message: `The answer is longer than ${WEBHOOK_RESPONSE_LIMIT_BYTES} bytes.`,
        },
      };
    return { ...classifyStatus(status), ...answered };
  } catch (error) {
    const failure = classifyError(error, timedOut, options.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
    return {
      ...failure,
      ...(status === undefined ? {} : { status }),
      durationMs: elapsed(),
      ...(excerpt === undefined ? {} : { responseExcerpt: excerpt }),
    };
  } finally {
    clearTimeout(timer);
    if (options.resolve !== undefined) void agent.destroy().catch(() => undefined);
  }
}

function classifyStatus(status: number): Pick<TWebhookDeliveryResult, 'outcome' | 'error'> {
  if (status >= 200 && status < 300) return { outcome: 'succeeded' };
  if (status >= 300 && status < 400)
    return {
      outcome: 'failed',
      error: { code: 'redirect', message: `HTTP ${status}: redirects are not followed.` },
    };
  const retry = status === 408 || status === 429 || (status >= 500 && status < 600);
  return { outcome: retry ? 'retry' : 'failed', error: { code: 'http_status', message: `HTTP ${status}.` } };
}

function classifyError(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
): Pick<TWebhookDeliveryResult, 'outcome' | 'error'> {
  if (timedOut)
    return {
      outcome: 'retry',
      error: { code: 'timeout', message: `No complete answer within ${timeoutMs} ms.` },
    };
  const refused = causeOf(error, (cause) => cause instanceof WebhookTargetRefusedError);
  if (refused instanceof WebhookTargetRefusedError)
    return { outcome: 'failed', error: { code: refused.reason, message: refused.message } };
  const certificate = causeOf(error, (cause) => CERTIFICATE_ERROR_CODES.has(codeOf(cause) ?? ''));
  if (certificate !== undefined)
    return { outcome: 'retry', error: { code: 'certificate_invalid', message: messageOf(certificate) } };
  return { outcome: 'retry', error: { code: 'network', message: messageOf(error) } };
}

/** The first error in `error`'s cause chain (AggregateError members included) that matches. */
function causeOf(error: unknown, matches: (cause: unknown) => boolean, depth = 0): unknown {
  if (error === undefined || error === null || depth > 8) return undefined;
  if (matches(error)) return error;
  if (error instanceof AggregateError)
    for (const member of error.errors as unknown[]) {
      const found = causeOf(member, matches, depth + 1);
      if (found !== undefined) return found;
    }
  return error instanceof Error ? causeOf(error.cause, matches, depth + 1) : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined || message.includes(code) ? message : `${code}: ${message}`;
}

/** Reads at most the limit (one byte more tells a longer answer), then stops the stream. */
async function readLimited(
  body: Dispatcher.ResponseData['body'],
): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > WEBHOOK_RESPONSE_LIMIT_BYTES) {
      body.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_LIMIT_BYTES), tooLarge: true };
    }
  }
  return { bytes: Buffer.concat(chunks), tooLarge: false };
}

function excerptOf(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  // PostgreSQL text cannot hold U+0000; a cut multi-byte character decodes as U+FFFD.
  return new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, WEBHOOK_RESPONSE_EXCERPT_BYTES))
    .replaceAll('\u0000', '');
}
