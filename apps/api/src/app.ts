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
import { registerReceiverDeliveryRoutes } from './routes/receiver-delivery.ts';
import { registerPrintedLinkRoutes } from './routes/printed-link.ts';
import { createDocumentWaiter } from './document-waiter.ts';
import { createJobQueue } from './job-queue.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { loadXsdValidators } from '@ecf/config';
import type { TXsdValidators } from '@ecf/fiscal-core';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests waiting on documents (`Prefer: wait`), over one shared LISTEN connection. */
    documentWaiter: ReturnType<typeof createDocumentWaiter>;
    /** Method and path of every registered route (the OpenAPI test compares them with the contract). */
    registeredRoutes: Array<{ method: string; url: string }>;
  }
}

/** Headers that carry credentials: never written to logs. */
export const REDACTED_HEADERS = ['x-api-key', 'x-partner-key', 'authorization'] as const;

export type TAppOptions = {
  env: TEnv;
  database: TDatabase;
  /** Where logs go (tests capture them); defaults to stdout. */
  logDestination?: DestinationStream;
  /** Compiled schemas to reuse (tests, benchmarks); loaded from XSD_DIRECTORY otherwise and disposed on close. */
  xsd?: TXsdValidators;
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
    // The buyer link's token may be up to 1,300 characters (spec Limits); Fastify's default is 100.
    // Longer paths still reach the route, whose answer for an overlong token is RI_LINK_INVALID.
    maxParamLength: 8192,
  });

  const registeredRoutes: Array<{ method: string; url: string }> = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });

  const readiness = createReadinessProbe(env.DATABASE_URL);
  const xsd = options.xsd ?? (await loadXsdValidators(env.XSD_DIRECTORY));
  const jobQueue = createJobQueue({ databaseUrl: env.DATABASE_URL, log: app.log });
  const waiter = createDocumentWaiter({ databaseUrl: env.DATABASE_URL, log: app.log });
  app.decorate('documentWaiter', waiter);
  app.addHook('onReady', async () => {
    // Warm the job queue; a database that is down now is retried at the first emission.
    jobQueue.start().catch((error: unknown) => app.log.warn({ err: error }, 'job queue not started yet'));
  });
  app.addHook('onClose', async () => {
    await waiter.close();
    await jobQueue.close();
    await readiness.close();
    if (!options.xsd) xsd.dispose();
  });
  const requestsPerMinute = (plan: string) => env.API_RATE_LIMIT_PLANS[plan] ?? env.API_RATE_LIMIT_PER_MINUTE;
  const authentication = { database, requestsPerMinute };

  registerCorrelationId(app);
  registerErrorHandler(app, { bodyLimitBytes: env.API_BODY_LIMIT_BYTES });
  registerJsonBody(app);
  const metrics = registerMetrics(app);

  registerOperationalRoutes(app, { readiness: readiness.check, metrics, startedAt: new Date() });
  const openApiDocument = buildOpenApiDocument();
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify(openApiDocument)),
  );
  registerContingencyRoutes(app, authentication);
  registerDocumentRoutes(app, {
    ...authentication,
    xsd,
    enqueue: jobQueue.enqueue,
    waiter,
    cursorSecret: env.API_CURSOR_SECRET,
  });
  registerReceiverDeliveryRoutes(app, { ...authentication, xsd });
  registerPrintedLinkRoutes(app, { database, linkSecret: env.RI_LINK_SECRET });
  return app;
}
