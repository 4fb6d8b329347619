import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TDatabase } from '@ecf/db';
import type { TEnv } from './env.ts';
import { correlationIdFor, registerCorrelationId } from './plugins/correlation-id.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { createReadinessProbe } from './readiness.ts';
import { registerOperationalRoutes } from './routes/operational.ts';
import { registerContingencyRoutes } from './routes/contingency.ts';
import { registerDocumentRoutes } from './routes/documents.ts';

/** Headers that carry credentials: never written to logs. */
export const REDACTED_HEADERS = ['x-api-key', 'x-partner-key', 'authorization'] as const;

export type TAppOptions = {
  env: TEnv;
  database: TDatabase;
  /** Where logs go (tests capture them); defaults to stdout. */
  logDestination?: DestinationStream;
};

/** Builds the API without listening, so tests can `inject` or listen on an ephemeral port. */
export async function buildApp(options: TAppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const app = Fastify({
    logger: {
      level: env.LOG_LEVEL,
      redact: {
        paths: REDACTED_HEADERS.map((header) => `req.headers["${header}"]`),
        censor: '[REDACTED]',
      },
      serializers: {
        req: (request: { method: string; url: string; headers: Record<string, unknown> }) => ({
          method: request.method,
          url: request.url,
          headers: request.headers,
        }),
      },
      ...(options.logDestination ? { stream: options.logDestination } : {}),
    },
    genReqId: correlationIdFor,
    requestIdLogLabel: 'correlationId',
    bodyLimit: env.API_BODY_LIMIT_BYTES,
    return503OnClosing: true,
  });

  const readiness = createReadinessProbe(env.DATABASE_URL);
  app.addHook('onClose', async () => {
    await readiness.close();
  });

  registerCorrelationId(app);
  registerErrorHandler(app, { bodyLimitBytes: env.API_BODY_LIMIT_BYTES });
  registerJsonBody(app);
  const metrics = registerMetrics(app);

  registerOperationalRoutes(app, { readiness: readiness.check, metrics, startedAt: new Date() });
  registerContingencyRoutes(app, { database });
  registerDocumentRoutes(app, { database });
  return app;
}
