import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, bodyTimedOut, bodyTooLarge, NO_BODY_LIMITS, type TEdgeLimits } from '@ecf/services';
import { DEFAULT_BODY_LIMIT_BYTES, routeTableOf } from '../route-limits.ts';

export {
  ANNULMENT_BODY_LIMIT_BYTES,
  CERTIFICATION_APPROVALS_BODY_LIMIT_BYTES,
  CERTIFICATION_SET_BODY_LIMIT_BYTES,
  DEFAULT_BODY_LIMIT_BYTES,
  RECONCILIATION_BODY_LIMIT_BYTES,
  SEQUENCE_BODY_LIMIT_BYTES,
  STATUS_BATCH_BODY_LIMIT_BYTES,
} from '../route-limits.ts';
export { bodyTooLarge };

/**
 * How much of a refused body is still read (and thrown away) before the connection is closed, and
 * for how long at most (never past the route's `bodyTimeoutMs`). Closing while the client is still
 * sending makes the client's kernel answer our next segment with a reset and drop the answer it had
 * not read yet (EPIPE/ECONNRESET instead of the 400); reading the rest first lets it finish sending
 * and read the error. Beyond these bounds the connection is closed anyway (a client that sends
 * 100 MB to a 6 MiB limit may miss its answer).
 */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
export const DRAIN_TIMEOUT_MS = 30_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once `100 Continue` was sent: the client is now sending its body. */
    continued?: boolean;
    /** When the body must have arrived (epoch ms): the route's `bodyTimeoutMs` after the headers (or the `100 Continue`). */
    bodyDeadline?: number;
    /** Set when the body did not arrive in time: answered 400 `REQUEST_TIMEOUT`, the connection closed. */
    bodyTimedOut?: boolean;
    /** Set while the answer is on its way (onSend): a body timer firing then leaves it to the drain. */
    isAnswering?: boolean;
  }
}

function expectsContinue(request: FastifyRequest): boolean {
  return /^100-continue$/i.test(String(request.headers.expect ?? '').trim());
}

/** The limits the route table gave the request's route (an unknown path reads no body). */
export function edgeLimitsOf(request: FastifyRequest): TEdgeLimits {
  return request.routeOptions.config?.edgeLimits ?? NO_BODY_LIMITS;
}

/** Whether a body is still to come on this request (declared by Content-Length or Transfer-Encoding). */
function isBodyPending(request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return false;
  const declared = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (declared !== undefined && Number(declared) > 0);
}

/**
 * Reads and discards what is left of a request body, at most {@link DRAIN_MAX_BYTES} and
 * `timeoutMs`. True when the body was read to its end (the connection can be kept or closed
 * safely), false when a bound was hit or the client went away.
 */
export function drainRequestBody(
  raw: IncomingMessage,
  timeoutMs: number = DRAIN_TIMEOUT_MS,
): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed || timeoutMs <= 0) return Promise.resolve(false);
  const declared = Number(raw.headers['content-length']);
  if (declared > DRAIN_MAX_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onGone);
      raw.off('close', onGone);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DRAIN_MAX_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), Math.min(timeoutMs, DRAIN_TIMEOUT_MS));
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onGone);
    raw.once('close', onGone);
    raw.resume();
  });
}

/**
 * Starts the route's body clock: a body that has not fully arrived `bodyTimeoutMs` after the
 * headers (or the `100 Continue`) is answered 400 `REQUEST_TIMEOUT` (`details.reason`
 * `body_timeout`) with `connection: close`, whatever reads it (the JSON parser, multipart, a
 * forward); the connection is then closed. A `Content-Length: 1000` with 10 bytes sent no longer
 * holds a connection for minutes.
 */
function startBodyClock(request: FastifyRequest, reply: FastifyReply): void {
  if (!isBodyPending(request)) return;
  const { bodyTimeoutMs } = edgeLimitsOf(request);
  request.bodyDeadline = Date.now() + bodyTimeoutMs;
  const raw = request.raw;
  const stop = () => {
    clearTimeout(timer);
    raw.off('end', stop);
    raw.off('close', stop);
  };
  const timer = setTimeout(() => {
    stop();
    if (raw.complete || reply.sent || request.isAnswering) return;
    request.bodyTimedOut = true;
    request.log.info({ timeoutMs: bodyTimeoutMs }, 'request body not received in time');
    // The answer goes out now; whoever still waits for the body sees the connection close after it.
    void reply.header('connection', 'close').send(bodyTimedOut(bodyTimeoutMs));
  }, bodyTimeoutMs);
  raw.once('end', stop);
  raw.once('close', stop);
}

/**
 * Before any answer goes out while the request's body is still arriving (refused for its size or
 * type, unknown route, early errors), the rest of the body is drained (bounded, and never past the
 * body's deadline) so the client can finish sending and read the answer; if a bound is hit the
 * connection is closed after the answer. A client that asked `Expect: 100-continue` and was not
 * told to continue sends no body: nothing to drain, and Node closes that connection itself.
 */
async function drainBeforeAnswer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  request.isAnswering = true;
  if (request.bodyTimedOut) {
    reply.header('connection', 'close');
    return;
  }
  if (request.raw.complete || (expectsContinue(request) && !request.continued)) return;
  const deadline = request.bodyDeadline ?? Date.now() + edgeLimitsOf(request).bodyTimeoutMs;
  const drained = await drainRequestBody(request.raw, deadline - Date.now());
  if (!drained) reply.header('connection', 'close');
}

/**
 * The request edge of every route: its limits from the route table (route-limits.ts, applied in
 * `onRoute`: `bodyLimit` and `config.edgeLimits`, read by the one JSON reader of
 * plugins/json-body.ts), the start refused while a registered route has no line there (a route
 * outside the API's own, such as a test's, may declare `config.edgeLimits` inline); the body's
 * time limit (see {@link startBodyClock}); `Expect: 100-continue` (a declared `Content-Length` over
 * the route's limit is refused before the client sends the body; within it the server asks for the
 * body just before reading it); and the drain of a refused body (see {@link drainBeforeAnswer}).
 * Register before the routes.
 */
export function registerBodyLimits(
  app: FastifyInstance,
  options: { submissionLimitBytes: number; partnerApi?: boolean },
): void {
  const table = routeTableOf({
    submissionLimitBytes: options.submissionLimitBytes,
    partnerApi: options.partnerApi ?? false,
  });
  const undeclared: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      // A route outside the API's table (a test's own route) may declare its limits inline.
      const declared = route.config?.edgeLimits;
      const edge = table.edgeOf(method, route.url) ?? (declared ? { limits: declared } : null);
      if (!edge) {
        undeclared.push(`${method} ${route.url}`);
        continue;
      }
      // The table is the one source: a route's own bodyLimit or limits are replaced by its line.
      route.bodyLimit = edge.limits.bodyBytes;
      route.config = {
        ...route.config,
        edgeLimits: edge.limits,
        textCheckedByRoute: edge.textCheckedByRoute ?? false,
        ...(edge.checkJsonBytes ? { checkJsonBytes: edge.checkJsonBytes } : {}),
      };
    }
  });
  app.addHook('onReady', async () => {
    // A route without a line would read bodies under nobody's limits: refuse to start, naming it.
    if (undeclared.length > 0)
      throw new Error(
        `routes without edge limits (add their line to apps/api/src/route-limits.ts): ${undeclared.join(', ')}`,
      );
  });

  // With a 'checkContinue' listener Node leaves `100 Continue` to us (its default sends it at once).
  app.server.on('checkContinue', (request, response) => app.server.emit('request', request, response));
  // Other expectations reach the routes too, to be refused as an ErrorResponse (not Node's bare 417).
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));

  app.addHook('onRequest', async (request, reply) => {
    const expect = request.headers.expect;
    if (expect !== undefined && !expectsContinue(request)) {
      throw new AppError(
        'INVALID_REQUEST',
        `Expect: ${String(expect).slice(0, 64)} is not supported; only 100-continue.`,
        {
          details: { reason: 'expectation_not_supported' },
        },
      );
    }
    // A client waiting for `100 Continue` sends nothing yet: its clock starts when it is asked.
    if (!expectsContinue(request)) startBodyClock(request, reply);
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!expectsContinue(request) || request.continued) return payload;
    const limit = request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
    if (Number(request.headers['content-length']) > limit) throw bodyTooLarge(limit);
    request.continued = true;
    reply.raw.writeContinue();
    startBodyClock(request, reply);
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    await drainBeforeAnswer(request, reply);
    return payload;
  });
}
