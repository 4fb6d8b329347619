import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { runWithCorrelationId } from '@ecf/db';

/** An incoming `x-correlation-id` is kept when it is a sane token; anything else is replaced. */
const VALID_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/** Fastify `genReqId`: the request id is the correlation id. */
export function correlationIdFor(request: {
  headers: Record<string, string | string[] | undefined>;
}): string {
  const incoming = request.headers['x-correlation-id'];
  return typeof incoming === 'string' && VALID_CORRELATION_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Every answer carries `x-correlation-id`, and every JSON object answer carries `correlationId`
 * in its body, so support can find a request's logs from whatever the client kept. The request's
 * hooks and handler run with its id (`runWithCorrelationId`): the database connections they use
 * carry it, so the webhook events their changes write name the request (migration 0019). The body
 * is read between the two hooks, on the socket's events, hence the second entry.
 */
export function registerCorrelationId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-correlation-id', request.id);
    runWithCorrelationId(request.id, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    runWithCorrelationId(request.id, done);
  });
  app.addHook('preSerialization', async (request: FastifyRequest, _reply, payload) => {
    if (payload && typeof payload === 'object' && !Array.isArray(payload) && !Buffer.isBuffer(payload)) {
      return { ...(payload as Record<string, unknown>), correlationId: request.id };
    }
    return payload;
  });
}
