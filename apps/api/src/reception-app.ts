/**
 * The public reception services (`/fe/...`, `/{env}/fe/...`; routes/reception.ts) as a process of
 * their own (src/reception-main.ts, `npm run start:reception`): the one surface anyone on the
 * internet reaches without a key, kept away from the documents API's event loop, memory and
 * database pool, so a flood of deliveries there never slows issuance (issue 25; ARCHITECTURE.md
 * "Processes"). The same edge as the API: correlation id, ErrorResponse for every refusal (errors,
 * Node's parser, the router), request guards, body limits and drains, metrics.
 *
 * Source addresses: the per-address limits use the client's address. A request forwarded by the
 * API (or by a load balancer configured alike) carries `X-Forwarded-For` and the shared
 * {@link RECEPTION_PROXY_SECRET_HEADER}; only then is the forwarded address believed. Anyone else's
 * `X-Forwarded-For` is dropped before anything reads it, so a sender cannot pick its own address.
 */
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TDatabase } from '@ecf/db';
import { loadXsdValidators } from '@ecf/config';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import { certificateSourceOf, loggingOf, registerRequestGuards, wireTimeoutsOf } from './app.ts';
import type { TEnv } from './env.ts';
import { createJobQueue } from './job-queue.ts';
import { DEFAULT_BODY_LIMIT_BYTES, registerBodyLimits } from './plugins/body-limits.ts';
import { answerClientError, answerConnect, answerFrameworkError } from './plugins/client-errors.ts';
import { registerCorrelationId } from './plugins/correlation-id.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { createReadinessProbe } from './readiness.ts';
import { RECEPTION_PROXY_SECRET_HEADER } from './reception-proxy.ts';
import { receptionOptionsOf, registerReceptionRoutes, rewriteReceptionUrl } from './routes/reception.ts';
import { registerOperationalRoutes } from './routes/operational.ts';

export type TReceptionAppOptions = {
  env: TEnv;
  database: TDatabase;
  /** Where logs go (tests capture them); defaults to stdout. */
  logDestination?: DestinationStream;
  /** Compiled schemas to reuse (tests); loaded from XSD_DIRECTORY otherwise and disposed on close. */
  xsd?: TXsdValidators;
  /** The signing certificate of a tenant (tests); the keyring of CERTIFICATE_MASTER_KEY otherwise. */
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
};

/** True when `presented` is the shared secret (constant time). */
function isProxySecret(presented: string | string[] | undefined, secret: Buffer): boolean {
  if (typeof presented !== 'string') return false;
  const bytes = Buffer.from(presented, 'utf8');
  return bytes.length === secret.length && timingSafeEqual(bytes, secret);
}

/** Builds the reception process's server without listening (tests `inject` or listen on port 0). */
export async function buildReceptionApp(options: TReceptionAppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const secret = Buffer.from(env.RECEPTION_PROXY_SECRET, 'utf8');
  const app = Fastify({
    ...loggingOf(env, options.logDestination),
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // The API's timeouts on the wire (README "Timeouts"): headers, whole request, idle keep-alive.
    ...wireTimeoutsOf(env),
    // The immediate peer only, and only once the hook below kept its X-Forwarded-For: the address
    // is then the last entry (the one our proxy wrote), never one the client put before it.
    trustProxy: (_address: string, hop: number) => hop === 0,
    rewriteUrl: (request) => rewriteReceptionUrl(request.url ?? '/', env.RECEPTION_DEFAULT_ENVIRONMENT),
  });
  app.server.on('connect', answerConnect.bind(app));

  // First of all hooks: forwarding headers are believed only from the API (the shared secret).
  app.addHook('onRequest', async (request) => {
    const headers = request.raw.headers;
    const trusted = isProxySecret(headers[RECEPTION_PROXY_SECRET_HEADER], secret);
    delete headers[RECEPTION_PROXY_SECRET_HEADER];
    delete headers['x-forwarded-host'];
    delete headers['x-forwarded-proto'];
    if (!trusted) delete headers['x-forwarded-for'];
  });

  const readiness = createReadinessProbe(env.DATABASE_URL, env.API_READINESS_POOL_MAX);
  const xsd = options.xsd ?? (await loadXsdValidators(env.XSD_DIRECTORY));
  const jobQueue = createJobQueue({
    databaseUrl: env.DATABASE_URL,
    log: app.log,
    maxConnections: env.API_JOB_QUEUE_POOL_MAX,
  });
  app.addHook('onReady', async () => {
    jobQueue.start().catch((error: unknown) => app.log.warn({ err: error }, 'job queue not started yet'));
  });
  app.addHook('onClose', async () => {
    await jobQueue.close();
    await readiness.close();
    if (!options.xsd) xsd.dispose();
  });

  registerCorrelationId(app);
  registerErrorHandler(app);
  registerRequestGuards(app);
  registerBodyLimits(app, { submissionLimitBytes: env.API_BODY_LIMIT_BYTES });
  registerJsonBody(app);
  const metrics = registerMetrics(app);

  registerOperationalRoutes(app, {
    readiness: readiness.check,
    metrics,
    startedAt: new Date(),
    service: 'ecf-reception',
  });

  const certificateSource = certificateSourceOf(env, options.loadCertificate);
  registerReceptionRoutes(app, {
    database,
    xsd,
    enqueue: jobQueue.enqueue,
    ...receptionOptionsOf(env),
    ...certificateSource,
  });
  return app;
}
