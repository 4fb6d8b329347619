/**
 * The portal's HTTP server (issue 25 item 5): node:http with the wire timeouts `next start` does
 * not expose, in front of any request handler (Next.js's in server.ts; a tiny one in the tests).
 * Plain Node: no Next.js, no `server-only`, so it can be started and tested on its own.
 *
 * - headers: the request line and headers must arrive within `headersTimeoutMs` (Node's
 *   `headersTimeout`, checked every `connectionsCheckingInterval`);
 * - body: once the headers are in, the body must arrive within `bodyTimeoutMs`;
 * - whole request: headers and body within `requestTimeoutMs` (Node's `requestTimeout`);
 * - idle keep-alive: a connection with no request in flight is closed after `keepAliveTimeoutMs`.
 *
 * A sender cut by one of them gets 400 `REQUEST_TIMEOUT` (the API's ErrorResponse shape, with a
 * correlation id) when no answer has begun, and the connection is closed.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type TPortalTimeouts = {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
};

type THandler = (request: IncomingMessage, response: ServerResponse) => unknown;

/** How long a refused connection may still be read after the answer, so a client still sending reads the 400 instead of a reset. */
const LINGER_MS = 1_000;

function refusalBody(code: 'REQUEST_TIMEOUT' | 'INVALID_REQUEST', message: string, reason: string) {
  const correlationId = randomUUID();
  return {
    correlationId,
    text: JSON.stringify({
      ok: false,
      error: { code, message, details: { code, reason } },
      correlationId,
    }),
  };
}

/** Writes a complete 400 on a socket Node's parser gave up on, then closes it (after a short linger). */
function refuseOnSocket(
  socket: Socket,
  code: 'REQUEST_TIMEOUT' | 'INVALID_REQUEST',
  message: string,
  reason: string,
) {
  if (socket.destroyed) return;
  if (socket.writable) {
    const { correlationId, text } = refusalBody(code, message, reason);
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nx-correlation-id: ${correlationId}\r\n` +
        `Connection: close\r\n\r\n${text}`,
    );
  }
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** Whether the request announces a body (a Content-Length above 0 or a chunked transfer). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/**
 * The portal's server: `handler` behind the four timeouts. Not listening yet (`server.listen`).
 */
export function createPortalServer(options: { handler: THandler; timeouts: TPortalTimeouts }): Server {
  const { timeouts } = options;
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (default 30 s): at most a quarter of the shortest.
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs) / 4)),
      ),
    },
    (request, response) => {
      if (hasBody(request)) watchBody(request, response, timeouts.bodyTimeoutMs);
      Promise.resolve()
        .then(() => options.handler(request, response))
        .catch((error: unknown) => {
          console.error('portal request failed', error);
          if (!response.headersSent) {
            response.statusCode = 500;
            response.end();
          } else response.destroy();
        });
    },
  );
  // Node's parser refusals and its header/request timers: our 400 instead of Node's bare 408/400.
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return socket.destroy();
    // A request already being answered (its handler started): nothing can be said any more.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight?.headersSent) return socket.destroy();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      refuseOnSocket(socket, 'REQUEST_TIMEOUT', 'The request was not received in time.', 'request_timeout');
    } else {
      refuseOnSocket(socket, 'INVALID_REQUEST', 'The request is not valid HTTP/1.1.', 'malformed_http');
    }
  });
  return server;
}

/**
 * The body-time limit: a request whose body has not fully arrived `bodyTimeoutMs` after its headers
 * is answered 400 REQUEST_TIMEOUT (when nothing was answered yet) and its connection closed.
 */
function watchBody(request: IncomingMessage, response: ServerResponse, bodyTimeoutMs: number): void {
  const timer = setTimeout(() => {
    if (request.complete) return;
    const socket = request.socket;
    if (!response.headersSent) {
      const { correlationId, text } = refusalBody(
        'REQUEST_TIMEOUT',
        `The request body was not received within ${bodyTimeoutMs} ms.`,
        'body_timeout',
      );
      response.writeHead(400, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
        'x-correlation-id': correlationId,
        connection: 'close',
      });
      response.end(text);
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    } else {
      socket.destroy();
    }
  }, bodyTimeoutMs);
  timer.unref();
  const clear = () => clearTimeout(timer);
  request.once('end', clear);
  request.once('close', clear);
  response.once('close', clear);
}
