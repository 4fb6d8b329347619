import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The tax authority simulator. This first version only answers its own health route: the
 * tax authority's services (seed, token, reception, status, RFCE, ANECF, ACECF, directory)
 * answer 501 until the simulator capability lands, so nothing pretends to have been accepted.
 */
export function buildSimulator(options: { logLevel: string }): FastifyInstance {
  const app = Fastify({ logger: { level: options.logLevel } });
  app.get('/_sim/health', async () => ({ ok: true, status: 'ok', service: 'taxauth-sim' }));
  app.setNotFoundHandler(async (request, reply) =>
    reply.code(501).send({
      ok: false,
      error: {
        code: 'NOT_IMPLEMENTED',
        message: `The simulator does not implement ${request.method} ${request.url.split('?')[0]} yet.`,
        details: {},
      },
    }),
  );
  return app;
}
