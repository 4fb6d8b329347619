/**
 * The API's `/fe/...` and `/{env}/fe/...` when the reception process runs apart (`RECEPTION_URL`
 * set; src/reception-app.ts): clients and directories that know only the API's address keep
 * working, while the API never reads a reception body. Each request is streamed to the reception
 * process as it arrives (no content parser, no buffer: a chunk in, a chunk out), its answer streamed
 * back; the API adds `X-Forwarded-For` (the address it sees, replacing any the client sent) and the
 * shared secret that makes the reception process believe it, and keeps the correlation id.
 *
 * Bounded: the whole exchange within `RECEPTION_PROXY_TIMEOUT_MS`; the reception process
 * unreachable, dead or too slow before it answers is 503 `SERVICE_UNAVAILABLE` with `Retry-After`
 * (never a 500); a failure after the answer began closes the connection (the client sees a cut
 * answer, as it would from the reception process itself). In production the load balancer sends
 * `/fe` straight to the reception processes (ARCHITECTURE.md "Processes"); this path is for
 * compatibility and the development stack.
 */
import { Agent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@ecf/services';
import { RECEPTION_PATHS } from './routes/reception.ts';

/** The header carrying the secret shared by the API and the reception process (RECEPTION_PROXY_SECRET). */
export const RECEPTION_PROXY_SECRET_HEADER = 'x-reception-proxy-secret';

/** Seconds a client is told to wait when the reception process cannot be reached. */
export const RECEPTION_RETRY_AFTER_SECONDS = 5;

/** Headers of one hop (RFC 9110 §7.6.1) and those the proxy writes itself: never copied across. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'expect',
  'host',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-correlation-id',
  RECEPTION_PROXY_SECRET_HEADER,
]);

export type TReceptionProxyOptions = {
  /** The reception process, e.g. `http://127.0.0.1:3004`. */
  receptionUrl: string;
  secret: string;
  timeoutMs: number;
};

function unavailable(reason: 'reception_unavailable' | 'reception_timeout'): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    reason === 'reception_timeout'
      ? 'The reception service did not answer in time; retry later.'
      : 'The reception service is unavailable; retry later.',
    {
      details: { reason, retryAfterSeconds: RECEPTION_RETRY_AFTER_SECONDS },
      headers: { 'retry-after': String(RECEPTION_RETRY_AFTER_SECONDS) },
    },
  );
}

/**
 * Registers the four reception routes (the same methods and paths as routes/reception.ts, so the
 * route table does not change) as a streaming forward to `receptionUrl`.
 */
export function registerReceptionProxy(app: FastifyInstance, options: TReceptionProxyOptions): void {
  const target = new URL(options.receptionUrl);
  const isHttps = target.protocol === 'https:';
  const agentOptions = { keepAlive: true, maxSockets: 256, maxFreeSockets: 32 };
  const agent = isHttps ? new HttpsAgent(agentOptions) : new Agent(agentOptions);
  const send = isHttps ? httpsRequest : httpRequest;
  const basePath = target.pathname.replace(/\/$/, '');
  app.addHook('onClose', async () => agent.destroy());

  function forward(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !NOT_FORWARDED.has(name)) headers[name] = value;
    headers.host = target.host;
    headers['x-forwarded-for'] = request.ip;
    headers['x-correlation-id'] = request.id;
    headers[RECEPTION_PROXY_SECRET_HEADER] = options.secret;
    const body = request.body as Readable | undefined;

    return new Promise<FastifyReply>((resolve, reject) => {
      let answered = false;
      const upstream = send({
        agent,
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: request.method,
        // As the client wrote it (letter case, bare /fe): the reception process routes it itself.
        path: `${basePath}${request.originalUrl}`,
        headers,
      });
      const timer = setTimeout(() => {
        const error = new Error('reception timeout') as NodeJS.ErrnoException;
        error.code = 'RECEPTION_TIMEOUT';
        upstream.destroy(error);
      }, options.timeoutMs);
      timer.unref();

      upstream.once('response', (response: IncomingMessage) => {
        answered = true;
        response.once('close', () => clearTimeout(timer));
        reply.code(response.statusCode ?? 502);
        for (const [name, value] of Object.entries(response.headers))
          if (value !== undefined && !NOT_FORWARDED.has(name)) reply.header(name, value);
        resolve(reply.send(response));
      });
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        body?.unpipe(upstream);
        if (answered) return; // the answer's stream fails too; Fastify closes the connection
        request.log.warn({ err: error }, 'reception process not reached');
        reject(
          unavailable(error.code === 'RECEPTION_TIMEOUT' ? 'reception_timeout' : 'reception_unavailable'),
        );
      });
      // The client gone: stop the exchange (the reception process sees an aborted request).
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) upstream.destroy();
      });

      if (body === undefined || typeof body.pipe !== 'function') upstream.end();
      else {
        body.once('error', () => upstream.destroy());
        body.pipe(upstream);
      }
    });
  }

  void app.register(async (scope) => {
    // No parser reads the body: the raw stream is handed to the handler, which pipes it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // Their limits are the reception lines of the route table (route-limits.ts), as when served here:
    // a declared length over 2 MiB is refused before the body is sent (100-continue), and the body's
    // clock runs while it is forwarded.
    scope.get(`/:environment${RECEPTION_PATHS.seed}`, forward);
    scope.post(`/:environment${RECEPTION_PATHS.certificateValidation}`, forward);
    scope.post(`/:environment${RECEPTION_PATHS.ecf}`, forward);
    scope.post(`/:environment${RECEPTION_PATHS.commercialApproval}`, forward);
  });
}
