import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TDatabase } from '@ecf/db';
import type { TEnv } from './env.ts';
import { DEFAULT_BODY_LIMIT_BYTES, registerBodyLimits } from './plugins/body-limits.ts';
import { answerClientError, answerConnect, answerFrameworkError } from './plugins/client-errors.ts';
import { correlationIdFor, registerCorrelationId } from './plugins/correlation-id.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { REDACTED, REDACTED_HEADERS, serializeRequest } from './plugins/log-redaction.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { createReadinessProbe } from './readiness.ts';
import { registerOperationalRoutes, SERVICE_VERSION } from './routes/operational.ts';
import { registerContingencyRoutes } from './routes/contingency.ts';
import { registerDocumentRoutes } from './routes/documents.ts';
import { registerReceiverDeliveryRoutes } from './routes/receiver-delivery.ts';
import { registerPrintedLinkRoutes } from './routes/printed-link.ts';
import { registerWebhookInboxRoutes } from './routes/webhook-inbox.ts';
import { registerAnnulmentRoutes } from './routes/annulments.ts';
import { registerCertificationRoutes } from './routes/certification.ts';
import { registerCommercialApprovalRoutes } from './routes/commercial-approvals.ts';
import { registerInboundRoutes } from './routes/inbound.ts';
import { receptionOptionsOf, registerReceptionRoutes, rewriteReceptionUrl } from './routes/reception.ts';
import { registerReceptionProxy } from './reception-proxy.ts';
import { registerApiReference } from './routes/api-reference.ts';
import { createDocumentWaiter } from './document-waiter.ts';
import { createJobQueue } from './job-queue.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { registerPartnerApi } from './partner/register-partner-api.ts';
import { loadXsdValidators } from '@ecf/config';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import { AppError, createCertificateKeyring, type TCertificateKeyring } from '@ecf/services';
import { createTaxauthClients, type TTaxauthClient } from '@ecf/taxauth-client';
import type { Environment } from '@ecf/db';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests waiting on documents (`Prefer: wait`), over one shared LISTEN connection. */
    documentWaiter: ReturnType<typeof createDocumentWaiter>;
    /** Method and path of every registered route (the OpenAPI test compares them with the contract). */
    registeredRoutes: Array<{ method: string; url: string }>;
  }
}

export { REDACTED_HEADERS };

export type TAppOptions = {
  env: TEnv;
  database: TDatabase;
  /** Where logs go (tests capture them); defaults to stdout. */
  logDestination?: DestinationStream;
  /** Compiled schemas to reuse (tests, benchmarks); loaded from XSD_DIRECTORY otherwise and disposed on close. */
  xsd?: TXsdValidators;
  /** The tax authority client of an environment (tests); built from TAXAUTH_* otherwise. */
  taxauthClientFor?: (environment: Environment) => TTaxauthClient;
  /** The signing certificate of a tenant (tests); the keyring of CERTIFICATE_MASTER_KEY otherwise. */
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
  /** The commercial approval request's own dispatch attempt, per exchange with the issuer (tests); default 30 s. */
  commercialApprovalDispatchTimeoutMs?: number;
};

/**
 * Logging and correlation ids of every API process (the API, the reception process): the
 * serializer already replaces credential headers, the paths catch a header object logged any other
 * way, and the URL loses the buyer link's token or credential-like query values (plugins/log-redaction.ts).
 */
export function loggingOf(env: TEnv, destination: DestinationStream | undefined) {
  return {
    logger: {
      level: env.LOG_LEVEL,
      redact: { paths: REDACTED_HEADERS.map((header) => `req.headers["${header}"]`), censor: REDACTED },
      serializers: { req: serializeRequest },
      ...(destination ? { stream: destination } : {}),
    },
    genReqId: correlationIdFor,
    logController: new LogController({ requestIdLogLabel: 'correlationId' }),
  };
}

/**
 * Where tenants' signing certificates come from, for every route that signs: the tests' loader,
 * else the keyring of CERTIFICATE_MASTER_KEY, else none (signing routes then answer
 * CERTIFICATE_NOT_ACTIVE).
 */
export function certificateSourceOf(
  env: TEnv,
  loadCertificate: ((tenantId: string) => Promise<TSigningCertificate>) | undefined,
): { loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>; keyring?: TCertificateKeyring } {
  if (loadCertificate) return { loadCertificate };
  if (!env.CERTIFICATE_MASTER_KEY) return {};
  return {
    keyring: createCertificateKeyring({
      currentKey: env.CERTIFICATE_MASTER_KEY,
      previousKeys: env.CERTIFICATE_MASTER_KEYS,
    }),
  };
}

/** Builds the API without listening, so tests can `inject` or listen on an ephemeral port. */
export async function buildApp(options: TAppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const app = Fastify({
    ...loggingOf(env, options.logDestination),
    // Routes with a body have their own limits (plugins/body-limits.ts); everything else reads none.
    bodyLimit: Math.min(DEFAULT_BODY_LIMIT_BYTES, env.API_BODY_LIMIT_BYTES),
    // Refused below with an ErrorResponse 503 (Fastify's own 503 body is not one).
    return503OnClosing: false,
    // The buyer link's token may be up to 1,300 characters (spec Limits); Fastify's default is 100.
    // Longer paths still reach the route, whose answer for an overlong token is RI_LINK_INVALID;
    // beyond 8192 the router refuses (answerFrameworkError: 400, or RI_LINK_INVALID on /ri).
    routerOptions: { maxParamLength: 8192 },
    // Every answer is an ErrorResponse: Node's parser errors, the router's refusals.
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
    // Timeouts on the wire (README "Timeouts"; each route's body has its own in route-limits.ts).
    ...wireTimeoutsOf(env),
    // The public reception services' paths are case-insensitive (FACTS §2; routes/reception.ts).
    rewriteUrl: (request) => rewriteReceptionUrl(request.url ?? '/', env.RECEPTION_DEFAULT_ENVIRONMENT),
  });

  // Without a listener Node closes a CONNECT without a word.
  app.server.on('connect', answerConnect.bind(app));

  const registeredRoutes: Array<{ method: string; url: string }> = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });

  const readiness = createReadinessProbe(env.DATABASE_URL, env.API_READINESS_POOL_MAX);
  const xsd = options.xsd ?? (await loadXsdValidators(env.XSD_DIRECTORY));
  const jobQueue = createJobQueue({
    databaseUrl: env.DATABASE_URL,
    log: app.log,
    maxConnections: env.API_JOB_QUEUE_POOL_MAX,
  });
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
  registerErrorHandler(app);
  registerRequestGuards(app);
  registerBodyLimits(app, {
    submissionLimitBytes: env.API_BODY_LIMIT_BYTES,
    partnerApi: env.PSFE_PARTNER_API_ENABLED,
  });
  registerJsonBody(app);
  const metrics = registerMetrics(app);

  registerOperationalRoutes(app, { readiness: readiness.check, metrics, startedAt: new Date() });
  const openApiDocument = buildOpenApiDocument({ partnerApi: env.PSFE_PARTNER_API_ENABLED });
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify(openApiDocument)),
  );
  // One tax authority client per environment for the process (each caches its tokens), and one
  // source of tenants' certificates, shared by every route that signs or calls the tax authority.
  const clientFor =
    options.taxauthClientFor ??
    createTaxauthClients({
      baseUrls: {
        ecf: env.TAXAUTH_ECF_BASE_URL,
        fc: env.TAXAUTH_FC_BASE_URL,
        status: env.TAXAUTH_STATUS_BASE_URL,
      },
      timeoutMs: env.TAXAUTH_TIMEOUT_MS,
    });
  const certificateSource = certificateSourceOf(env, options.loadCertificate);
  // The plans of Partner-managed accounts: every eCF emission meets them, direct route or Partner API.
  const partnerPlans = { quotas: env.PARTNER_PLAN_QUOTAS, graceDays: env.PARTNER_PAYMENT_GRACE_DAYS };
  registerContingencyRoutes(app, authentication);
  registerDocumentRoutes(app, {
    ...authentication,
    xsd,
    enqueue: jobQueue.enqueue,
    waiter,
    cursorSecret: env.API_CURSOR_SECRET,
    plans: partnerPlans,
  });
  registerReceiverDeliveryRoutes(app, { ...authentication, xsd });
  registerPrintedLinkRoutes(app, { database, linkSecret: env.RI_LINK_SECRET });
  registerWebhookInboxRoutes(app, { database });
  registerAnnulmentRoutes(app, {
    ...authentication,
    xsd,
    clientFor,
    ...certificateSource,
  });
  registerInboundRoutes(app, { ...authentication, cursorSecret: env.API_CURSOR_SECRET });
  // The public reception routes: forwarded, unread, to the reception process when it runs apart
  // (RECEPTION_URL; src/reception-app.ts), else served here (tests, a single-process setup).
  if (env.RECEPTION_URL !== undefined) {
    registerReceptionProxy(app, {
      receptionUrl: env.RECEPTION_URL,
      secret: env.RECEPTION_PROXY_SECRET,
      timeoutMs: env.RECEPTION_PROXY_TIMEOUT_MS,
    });
  } else {
    registerReceptionRoutes(app, {
      database,
      xsd,
      enqueue: jobQueue.enqueue,
      ...receptionOptionsOf(env),
      ...certificateSource,
    });
  }
  // Issue 18, task C: sending a commercial approval (ACECF) for a received e-CF.
  registerCommercialApprovalRoutes(app, {
    ...authentication,
    xsd,
    enqueue: jobQueue.enqueue,
    clientFor,
    ...certificateSource,
    ...(options.commercialApprovalDispatchTimeoutMs === undefined
      ? {}
      : { dispatchTimeoutMs: options.commercialApprovalDispatchTimeoutMs }),
  });
  registerCertificationRoutes(app, {
    ...authentication,
    xsd,
    enqueue: jobQueue.enqueue,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    ...certificateSource,
  });
  // The Partner API (issue 20) exists only when enabled: otherwise none of its routes is
  // registered and every /partner/v1 path answers 404 ROUTE_NOT_FOUND.
  if (env.PSFE_PARTNER_API_ENABLED) {
    registerPartnerApi(app, {
      database,
      limits: env.PARTNER_RATE_LIMITS,
      plans: partnerPlans,
      xsd,
      enqueue: jobQueue.enqueue,
      waiter,
      cursorSecret: env.API_CURSOR_SECRET,
      allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
      publicBaseUrl: env.PUBLIC_BASE_URL,
      portalBaseUrl: env.PORTAL_BASE_URL,
      embedSecret: env.CERTIFICATION_EMBED_SECRET,
      software: { name: 'ecf-platform', version: SERVICE_VERSION, provider: env.SOFTWARE_PROVIDER_NAME },
      clientFor,
      ...certificateSource,
    });
  }
  registerApiReference(app);
  return app;
}

/**
 * The HTTP server's timeouts (Fastify options): the request line and headers within
 * `API_HEADERS_TIMEOUT_MS` (also a connection that sends nothing), the whole request within
 * `API_REQUEST_TIMEOUT_MS`, both checked every `API_CONNECTIONS_CHECK_INTERVAL_MS` (Node's default
 * of 30 s let incomplete headers hold a connection ~89 s); an idle keep-alive connection closed after
 * `API_KEEP_ALIVE_TIMEOUT_MS`. Node reports the first two as 'clientError' ERR_HTTP_REQUEST_TIMEOUT,
 * answered 400 `REQUEST_TIMEOUT` (plugins/client-errors.ts) while no answer has begun.
 */
export function wireTimeoutsOf(env: TEnv) {
  return {
    http: {
      // A request without Host reaches the hooks and is refused as an ErrorResponse, not Node's bare 400.
      requireHostHeader: false,
      headersTimeout: env.API_HEADERS_TIMEOUT_MS,
      requestTimeout: Math.max(env.API_REQUEST_TIMEOUT_MS, env.API_HEADERS_TIMEOUT_MS),
      connectionsCheckingInterval: env.API_CONNECTIONS_CHECK_INTERVAL_MS,
    },
    requestTimeout: Math.max(env.API_REQUEST_TIMEOUT_MS, env.API_HEADERS_TIMEOUT_MS),
    keepAliveTimeout: env.API_KEEP_ALIVE_TIMEOUT_MS,
  };
}

/**
 * Refusals every request goes through before its route: HTTP/1.1 without `Host` (RFC 9112 §3.2:
 * 400), and any request once the server is closing (503 ErrorResponse with `connection: close`,
 * where Fastify's `return503OnClosing` answers a body of its own).
 */
export function registerRequestGuards(app: FastifyInstance): void {
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (isClosing) {
      reply.header('connection', 'close');
      throw new AppError('SERVICE_UNAVAILABLE', 'The service is shutting down; retry on another instance.', {
        details: { reason: 'shutting_down' },
      });
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      throw new AppError('INVALID_REQUEST', 'An HTTP/1.1 request needs a Host header.', {
        details: { reason: 'host_header_missing' },
      });
    }
  });
}
