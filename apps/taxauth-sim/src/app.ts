/**
 * The tax authority (DGII) simulator: every host's routes in one Fastify app, matched
 * case-insensitively, persisting in its own PostgreSQL schema.
 */
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { loadXsdValidators } from '@ecf/config';
import { DATABASE_BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from '@ecf/db';
import { createCertificationPortal } from './certification/portal.ts';
import type { TSimContext } from './context.ts';
import { registerFaults } from './faults.ts';
import {
  DEFAULT_PROCESSING_DELAY_MS,
  DEFAULT_SCHEMA,
  DEFAULT_TOKEN_SECRET,
  DEFAULT_TOKEN_TTL_SECONDS,
  type TSimulatorOptions,
} from './options.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAuthenticationRoutes } from './routes/authentication.ts';
import { registerCertificationRoutes } from './routes/certification.ts';
import { registerDirectoryAndStatusRoutes } from './routes/directory-and-status.ts';
import { registerDocumentRoutes } from './routes/documents.ts';
import { registerQueryRoutes } from './routes/queries.ts';
import { registerReceptionRoutes } from './routes/reception.ts';
import { openStore } from './store.ts';

/** Largest accepted upload: a 10,000-line e-CF 33/34 stays well below it. */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/** Builds the simulator (schema created, XSDs compiled), ready to listen. */
export async function buildSimulator(options: TSimulatorOptions): Promise<FastifyInstance> {
  const directory =
    options.xsdDirectory instanceof URL ? fileURLToPath(options.xsdDirectory) : options.xsdDirectory;
  const validators = await loadXsdValidators(directory);
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore({
      databaseUrl: options.databaseUrl,
      schema: options.schema ?? DEFAULT_SCHEMA,
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.poolTimeoutMs === undefined ? {} : { poolTimeoutMs: options.poolTimeoutMs }),
    });
  } catch (error) {
    validators.dispose();
    throw error;
  }
  const now = options.now ?? (() => new Date());
  const context: TSimContext = {
    store,
    validators,
    tokenSecret: options.tokenSecret ?? DEFAULT_TOKEN_SECRET,
    tokenTtlSeconds: options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS,
    processingDelayMs: options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS,
    loadTest: options.loadTest ?? false,
    directory: options.directory ?? [],
    now,
    certification: createCertificationPortal({ store, now }),
  };

  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: MAX_UPLOAD_BYTES,
    return503OnClosing: true,
  });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 5, fields: 20, parts: 25 } });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // No database connection to be had (pool full past its timeout, server out of slots): 503 with
    // Retry-After, as the real service answers when overloaded; never a 500 (issue 25 item 8).
    if (isDatabaseBusy(error)) {
      request.log.warn({ err: error }, 'no database connection free: answered 503');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_BUSY_RETRY_AFTER_SECONDS))
        .type('application/problem+json; charset=utf-8')
        .send({ title: 'Service Unavailable', status: 503 });
    }
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected simulator error');
    else request.log.info({ code: error.code }, error.message);
    // Client errors keep their status with ASP.NET's problem shape; nothing internal leaks.
    return reply
      .code(status)
      .type('application/problem+json; charset=utf-8')
      .send({
        title: status === 500 ? 'An error occurred while processing your request.' : error.message,
        status,
      });
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).type('application/problem+json; charset=utf-8').send({ title: 'Not Found', status: 404 }),
  );

  registerFaults(app, store);
  registerAdminRoutes(app, context);
  await app.register(async (scope) => registerCertificationRoutes(scope, context));
  registerAuthenticationRoutes(app, context);
  registerReceptionRoutes(app, context);
  registerQueryRoutes(app, context);
  registerDocumentRoutes(app, context);
  registerDirectoryAndStatusRoutes(app, context);

  app.addHook('onClose', async () => {
    validators.dispose();
    await store.close();
  });
  await app.ready();
  return app;
}

/** Builds and listens; port 0 picks a free port. `baseUrl` has no trailing slash. */
export async function startSimulator(
  options: TSimulatorOptions & { host?: string; port?: number },
): Promise<{ baseUrl: string; app: FastifyInstance; close(): Promise<void> }> {
  const app = await buildSimulator(options);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : (options.port ?? 0);
  const hostPart = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { baseUrl: `http://${hostPart}:${port}`, app, close: () => app.close() };
}
