import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type TErrorCode } from '@ecf/services';
import { isBuyerLinkUrl, sendBuyerLinkRefusal } from '../routes/printed-link.ts';
import { sendError, type TErrorResponse } from './error-handler.ts';

/**
 * How long a connection refused by the HTTP parser stays open for reading after the answer: the
 * client may still be sending (a 20 KB header, a body), and closing at once would reset the
 * connection before it reads the 400.
 */
export const CLIENT_ERROR_LINGER_MS = 2_000;

/** Sockets already answered: after a parse error Node reports every further chunk as a new error. */
const answered = new WeakSet<Socket>();

/** What Node's HTTP parser (llhttp) or its timers reported, as our code and message. */
function classify(error: ConnectionError & { code?: string }, maxHeaderBytes: number) {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'REQUEST_HEADERS_TOO_LARGE' as const,
        message: `The request line and headers exceed ${maxHeaderBytes} bytes.`,
        details: { limitBytes: maxHeaderBytes },
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        code: 'REQUEST_TIMEOUT' as const,
        message: 'The request was not received in time.',
        details: {},
      };
    default:
      return {
        code: 'INVALID_REQUEST' as const,
        message: 'The request is not valid HTTP/1.1.',
        // llhttp's own code (HPE_INVALID_METHOD, HPE_INVALID_CONTENT_LENGTH...) says which rule broke.
        details: { reason: 'malformed_http', ...(error.code ? { parserError: error.code } : {}) },
      };
  }
}

/**
 * The target of the request line at the start of the bytes Node's parser refused (`rawPacket`, the
 * chunk it was reading), or null when that chunk does not start with one (a timeout, a later chunk).
 */
export function requestTargetOf(error: ConnectionError): string | null {
  const packet = (error as { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(packet)) return null;
  const line = packet.subarray(0, 2048).toString('latin1');
  return /^[A-Za-z]+ +(\S+)/.exec(line)?.[1] ?? null;
}

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError': the request could not be parsed, its
 * headers overflowed, or it timed out): an ErrorResponse 400 written on the socket (see
 * `writeRawRefusal`) instead of Node's bare "Client Error" or its 408/431. On the buyer link
 * (`/ri/...` in the refused request line) the answer is the link's format: plain text with the code
 * in `X-Error-Code` (spec: `/ri` never answers JSON).
 */
export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  const parserError = (error as { code?: string }).code;
  if (parserError === 'ECONNRESET') return;
  const refusal = classify(error, maxHeaderSize);
  // A request whose headers were read (a body over API_REQUEST_TIMEOUT_MS) has its URL on the socket's response.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  const target = requestTargetOf(error) ?? inFlight?.req?.url ?? null;
  const format = target !== null && isBuyerLinkUrl(target) ? 'buyer_link' : 'json';
  writeRawRefusal(this, socket, refusal, { parserError }, format);
}

/**
 * `CONNECT` (Node hands it to a 'connect' listener, and without one closes the connection without
 * a word): 400 `INVALID_REQUEST` `method_not_supported`, written like a parser refusal.
 */
export function answerConnect(this: FastifyInstance, _request: IncomingMessage, socket: Socket): void {
  writeRawRefusal(
    this,
    socket,
    {
      code: 'INVALID_REQUEST',
      message: 'CONNECT is not supported: this is not a proxy.',
      details: { reason: 'method_not_supported' },
    },
    {},
  );
  // The socket is no longer read by the HTTP parser: read (and drop) what comes, to see the client close.
  socket.resume();
}

/**
 * A complete HTTP/1.1 400 with an ErrorResponse body, a fresh correlation id (also in
 * `x-correlation-id`) and `connection: close`, written on a socket Node's HTTP server gave up on.
 * The socket is then half-closed and kept reading for {@link CLIENT_ERROR_LINGER_MS} (or until the
 * client closes) so the answer is not lost to a reset. Logged by code only: the raw packet holds
 * headers such as X-API-KEY.
 */
function writeRawRefusal(
  app: FastifyInstance,
  socket: Socket,
  refusal: { code: TErrorCode; message: string; details: Record<string, unknown> },
  logged: Record<string, unknown>,
  format: 'json' | 'buyer_link' = 'json',
): void {
  if (socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    // Part of another answer is on the wire already: anything written now would corrupt it.
    socket.destroy();
    return;
  }
  const correlationId = randomUUID();
  app.log.info({ correlationId, code: refusal.code, ...logged }, 'request refused by the HTTP server');
  const body: TErrorResponse = {
    ok: false,
    error: {
      code: refusal.code,
      message: refusal.message,
      details: { code: refusal.code, ...refusal.details },
    },
    correlationId,
  };
  const text = format === 'json' ? JSON.stringify(body) : `${refusal.message}\n${refusal.code}\n`;
  socket.end(
    'HTTP/1.1 400 Bad Request\r\n' +
      (format === 'json'
        ? 'content-type: application/json; charset=utf-8\r\n'
        : 'content-type: text/plain; charset=utf-8\r\n' +
          `x-error-code: ${refusal.code}\r\n` +
          'referrer-policy: no-referrer\r\n') +
      `content-length: ${Buffer.byteLength(text)}\r\n` +
      `x-correlation-id: ${correlationId}\r\n` +
      'cache-control: no-store\r\n' +
      'connection: close\r\n' +
      '\r\n' +
      text,
  );
  const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  timer.unref();
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
}

/** Router refusals (Fastify's `frameworkErrors`), as our codes. */
const FRAMEWORK_REFUSALS: Record<
  string,
  { code: Extract<TErrorCode, 'INVALID_REQUEST'>; reason: string; message: string }
> = {
  FST_ERR_BAD_URL: {
    code: 'INVALID_REQUEST',
    reason: 'invalid_url_encoding',
    message: 'The path has an invalid percent-encoding.',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'INVALID_REQUEST',
    reason: 'path_parameter_too_long',
    message: 'A path segment is longer than any this API accepts.',
  },
};

/**
 * Fastify's `frameworkErrors` (the router could not decode the path, or a parameter is over
 * `maxParamLength`): an ErrorResponse 400 (Fastify's own answers are FST_ERR_BAD_URL JSON and 414),
 * or on `/ri/...` the buyer link's plain-text `RI_LINK_INVALID`. The messages never repeat the path:
 * on `/ri` it is a credential.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (isBuyerLinkUrl(request.raw.url ?? '')) {
    void sendBuyerLinkRefusal(request, reply, new AppError('RI_LINK_INVALID', 'Not a buyer link.'));
    return;
  }
  const refusal = FRAMEWORK_REFUSALS[error.code] ?? {
    code: 'INVALID_REQUEST',
    reason: 'unroutable',
    message: 'The request cannot be routed.',
  };
  request.log.info({ code: refusal.code, reason: refusal.reason }, 'request refused');
  void sendError(
    request,
    reply,
    new AppError(refusal.code, refusal.message, { details: { reason: refusal.reason } }),
  );
}
