/**
 * Transport-level fault injection, applied before any tax-authority route runs (FACTS-independent:
 * these imitate what a client sees when the service misbehaves). Verdict faults (`reject`,
 * `accept_conditional`, `not_delegated`) are taken by the routes they concern.
 */
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { targetOf } from './http.ts';
import type { TFaultKind, TStore } from './store.ts';

const SERVICE_UNAVAILABLE_PAGE =
  '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN""http://www.w3.org/TR/html4/strict.dtd">' +
  '<HTML><HEAD><TITLE>Service Unavailable</TITLE><META HTTP-EQUIV="Content-Type" Content="text/html; charset=us-ascii"></HEAD>' +
  '<BODY><h2>Service Unavailable</h2><hr><p>HTTP Error 503. The service is unavailable.</p></BODY></HTML>';

const DEFAULT_SLOW_MS = 1000;

/** The environment a fault must name to hit the status host (no environment in its path): only `*`. */
const NO_ENVIRONMENT = '-';

export function registerFaults(app: FastifyInstance, store: TStore): void {
  const hungSockets = new Set<Socket>();
  const losing = new WeakSet<FastifyRequest>();

  app.addHook('onRequest', async (request, reply) => {
    const target = targetOf(request.url);
    if (target === undefined) return;
    if (!(await store.hasActiveFaults())) return;
    const environment = target.environment === '' ? NO_ENVIRONMENT : target.environment;
    const blocking: TFaultKind[] = ['connection_reset', 'http_503', 'timeout'];
    if (target.service === 'autenticacion') blocking.push('auth_down');
    const kinds: TFaultKind[] = [...blocking, 'slow'];
    if (request.method === 'POST') kinds.push('lose_answer');
    const matching = await store.matchingFaults(environment, target.service, kinds);
    if (matching.length === 0) return;

    if (matching.some((fault) => fault.fault === 'slow')) {
      const slow = await store.takeFault(environment, target.service, ['slow']);
      if (slow !== undefined) await sleep(slow.delayMs ?? DEFAULT_SLOW_MS);
    }
    const fault = matching.some((candidate) => blocking.includes(candidate.fault))
      ? await store.takeFault(environment, target.service, blocking)
      : undefined;
    const socket = request.raw.socket;
    switch (fault?.fault) {
      case 'connection_reset':
        reply.hijack();
        socket.resetAndDestroy();
        return reply;
      case 'timeout':
        // Never answer; the socket stays open until the client gives up (or the simulator closes).
        reply.hijack();
        hungSockets.add(socket);
        socket.once('close', () => hungSockets.delete(socket));
        return reply;
      case 'http_503':
        return reply.code(503).type('text/html; charset=us-ascii').send(SERVICE_UNAVAILABLE_PAGE);
      case 'auth_down':
        if (request.method === 'GET')
          return reply.code(503).type('text/html; charset=us-ascii').send(SERVICE_UNAVAILABLE_PAGE);
        return reply
          .code(500)
          .type('application/problem+json; charset=utf-8')
          .send({ title: 'An error occurred while processing your request.', status: 500 });
      default:
        break;
    }
    if (matching.some((candidate) => candidate.fault === 'lose_answer')) {
      const lose = await store.takeFault(environment, target.service, ['lose_answer']);
      if (lose !== undefined) losing.add(request);
    }
    return undefined;
  });

  // The route ran and recorded everything; the client just never hears back.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (losing.has(request)) request.raw.socket.resetAndDestroy();
    return payload;
  });

  app.addHook('preClose', async () => {
    for (const socket of hungSockets) socket.destroy();
    hungSockets.clear();
  });
}
