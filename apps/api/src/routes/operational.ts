import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { TReadiness } from '../readiness.ts';

export const SERVICE_VERSION = '0.2.0';

/** Public operational routes: liveness, readiness and Prometheus metrics. */
export function registerOperationalRoutes(
  app: FastifyInstance,
  options: {
    readiness: () => Promise<TReadiness>;
    metrics: Registry;
    startedAt: Date;
    /** The process named in `/healthz` (default `ecf-api`; the reception process is `ecf-reception`). */
    service?: string;
  },
): void {
  app.get('/healthz', async () => ({
    ok: true,
    status: 'ok',
    service: options.service ?? 'ecf-api',
    version: SERVICE_VERSION,
    uptimeSeconds: Math.round((Date.now() - options.startedAt.getTime()) / 1000),
  }));

  app.get('/readyz', async (_request, reply) => {
    const readiness = await options.readiness();
    if (readiness.ok) return { ok: true, status: 'ready', checks: readiness.checks };
    const failing = Object.entries(readiness.checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);
    // Shaped as both ReadinessResponse and ErrorResponse, so generic error handling works too.
    return reply.code(503).send({
      ok: false,
      status: 'not_ready',
      checks: readiness.checks,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: `Not ready: ${failing.map((name) => `${name} (${readiness.checks[name as keyof TReadiness['checks']].error})`).join(', ')}.`,
        details: { code: 'SERVICE_UNAVAILABLE', failing },
      },
    });
  });

  app.get('/metrics', async (_request, reply) => {
    reply.type(options.metrics.contentType);
    return options.metrics.metrics();
  });
}
