import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
 * in its body, so support can find a request's logs from whatever the client kept.
 */
export function registerCorrelationId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-correlation-id', request.id);
  });
  app.addHook('preSerialization', async (request: FastifyRequest, _reply, payload) => {
    if (payload && typeof payload === 'object' && !Array.isArray(payload) && !Buffer.isBuffer(payload)) {
      return { ...(payload as Record<string, unknown>), correlationId: request.id };
    }
    return payload;
  });
}
