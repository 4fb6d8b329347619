/**
 * One HTTP exchange with the tax authority and the classification of everything that can go wrong
 * with it. Uses Node's global fetch; each exchange has its own timeout covering connect, upload and
 * the whole answer body.
 */
import type { z } from 'zod';
import { TaxauthError, type TTaxauthMessage, type TTaxauthService } from './errors.ts';
import { toTaxauthMessages, ZTaxauthMessage } from './schemas.ts';

export type THttpRequest = {
  service: TTaxauthService;
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  // Buffer<ArrayBuffer> (not ArrayBufferLike): what fetch accepts as a body under the DOM types too (the portal).
  body?: Buffer<ArrayBuffer>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
};

export type THttpAnswer = { status: number; body: string; contentType: string };

/** Error codes meaning the request never reached the server, so it cannot have been processed. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Performs the exchange; network failures and timeouts become transient `TaxauthError`s. */
export async function exchange(request: THttpRequest): Promise<THttpAnswer> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal === undefined ? timeout : AbortSignal.any([timeout, request.signal]);
  const init: RequestInit = { method: request.method, headers: request.headers, signal, redirect: 'follow' };
  if (request.body !== undefined) init.body = request.body;
  let response: Response;
  try {
    response = await fetch(request.url, init);
  } catch (error) {
    throw networkFailure(request, error, timeout, false);
  }
  try {
    const body = await response.text();
    return { status: response.status, body, contentType: response.headers.get('content-type') ?? '' };
  } catch (error) {
    throw networkFailure(request, error, timeout, true);
  }
}

function networkFailure(
  request: THttpRequest,
  error: unknown,
  timeout: AbortSignal,
  isAfterHeaders: boolean,
): TaxauthError {
  const where = `${request.method} ${request.url.pathname}`;
  if (timeout.aborted) {
    return new TaxauthError({
      reason: 'timeout',
      service: request.service,
      message: `No answer within ${request.timeoutMs} ms from ${where}`,
      isOutcomeUnknown: true,
      cause: error,
    });
  }
  if (request.signal?.aborted === true) {
    return new TaxauthError({
      reason: 'aborted',
      service: request.service,
      message: `Aborted by the caller: ${where}`,
      isOutcomeUnknown: true,
      cause: error,
    });
  }
  const code = errorCode(error);
  return new TaxauthError({
    reason: 'connection',
    service: request.service,
    message: `Connection failure (${code ?? 'unknown'}) on ${where}`,
    isOutcomeUnknown: isAfterHeaders || code === undefined || !NOT_SENT_CODES.has(code),
    ...(code === undefined ? {} : { detail: code }),
    cause: error,
  });
}

/** The first `code` along the `cause` chain (fetch wraps socket errors in `TypeError: fetch failed`). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Messages found in an answer body: `mensajes` as sent, else `mensaje`/`error` text; undefined if none. */
export function messagesOfBody(body: string): TTaxauthMessage[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const asMessages = (value: unknown): TTaxauthMessage[] | undefined => {
    const result = ZTaxauthMessage.array().safeParse(value);
    return result.success ? toTaxauthMessages(result.data) : undefined;
  };
  if (Array.isArray(parsed)) return asMessages(parsed);
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const byLower = new Map<string, unknown>(
    Object.entries(parsed as Record<string, unknown>).map(([key, value]) => [key.toLowerCase(), value]),
  );
  const mensajes = byLower.get('mensajes');
  if (Array.isArray(mensajes)) {
    const found = asMessages(mensajes);
    if (found !== undefined && found.length > 0) return found;
  }
  const collected: TTaxauthMessage[] = [];
  for (const key of ['error', 'mensaje', 'message', 'title']) {
    const value = byLower.get(key);
    if (typeof value === 'string' && value.trim() !== '') collected.push({ valor: value });
    if (Array.isArray(value)) collected.push(...(asMessages(value) ?? []));
  }
  return collected.length > 0 ? collected : undefined;
}

/** Text that says the certificate's holder is not delegated for the RNC (FACTS §1.7–§1.9). */
export function mentionsDelegation(body: string): boolean {
  return /delegad[oa]/i.test(body);
}

/** The `TaxauthError` for a non-2xx answer. */
export function statusFailure(
  request: Pick<THttpRequest, 'service' | 'method' | 'url'>,
  answer: THttpAnswer,
): TaxauthError {
  const { status, body } = answer;
  const messages = messagesOfBody(body);
  const common = { service: request.service, status, body, ...(messages === undefined ? {} : { messages }) };
  const where = `${request.method} ${request.url.pathname}`;
  const summary =
    messages?.map((message) => message.valor).find((text) => typeof text === 'string' && text !== '') ??
    body.slice(0, 200);
  const message = `HTTP ${status} from ${where}${summary === '' ? '' : `: ${summary}`}`;
  if (status >= 500)
    return new TaxauthError({ ...common, reason: 'http_5xx', message, isOutcomeUnknown: true });
  if (status === 429) return new TaxauthError({ ...common, reason: 'rate_limited', message });
  if (status === 408)
    return new TaxauthError({ ...common, reason: 'http_408', message, isOutcomeUnknown: true });
  if (status === 401) return new TaxauthError({ ...common, reason: 'unauthorized', message });
  if ((status === 400 || status === 403) && mentionsDelegation(body))
    return new TaxauthError({ ...common, reason: 'not_delegated', message });
  if (status === 403) return new TaxauthError({ ...common, reason: 'forbidden', message });
  if (status === 404) return new TaxauthError({ ...common, reason: 'not_found', message });
  if (status === 400 || status === 409 || status === 422)
    return new TaxauthError({ ...common, reason: 'rejected', message });
  return new TaxauthError({ ...common, reason: 'http_4xx', message });
}

/** Parses a 2xx JSON answer with `schema`; anything else is a transient `malformed_answer`. */
export function parseAnswer<TSchema extends z.ZodType>(
  request: Pick<THttpRequest, 'service' | 'method' | 'url'>,
  answer: THttpAnswer,
  schema: TSchema,
): z.output<TSchema> {
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    throw malformed(request, answer, 'The answer is not JSON');
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const detail = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw malformed(request, answer, 'The answer does not have the documented shape', detail);
  }
  return result.data;
}

export function malformed(
  request: Pick<THttpRequest, 'service' | 'method' | 'url'>,
  answer: THttpAnswer,
  what: string,
  detail?: string,
): TaxauthError {
  const messages = messagesOfBody(answer.body);
  return new TaxauthError({
    reason: 'malformed_answer',
    service: request.service,
    message: `${what} (HTTP ${answer.status} from ${request.method} ${request.url.pathname})`,
    status: answer.status,
    body: answer.body,
    ...(messages === undefined ? {} : { messages }),
    isOutcomeUnknown: true,
    ...(detail === undefined ? {} : { detail }),
  });
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
