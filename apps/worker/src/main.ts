import { pino } from 'pino';
import { createDatabaseClient, enforceConnectionBudget } from '@ecf/db';
import { loadXsdValidators } from '@ecf/config';
import { closeWebhookConnections, createCertificateKeyring, createHttpMessageLookup } from '@ecf/services';
import { workerConnectionBudget } from './connection-budget.ts';
import { readEnv } from './env.ts';
import { createWorker } from './worker.ts';

const env = readEnv();
const log = pino({ level: env.LOG_LEVEL, base: { service: 'ecf-worker' } });
// A malformed key stops the start (the message names the variable, never the value).
const certificateKeyring = env.CERTIFICATE_MASTER_KEY
  ? createCertificateKeyring({
      currentKey: env.CERTIFICATE_MASTER_KEY,
      previousKeys: env.CERTIFICATE_MASTER_KEYS,
    })
  : undefined;
if (!certificateKeyring)
  log.warn('CERTIFICATE_MASTER_KEY is not set: document.sign jobs fail until it is configured');
const xsdValidators = await loadXsdValidators(env.XSD_DIRECTORY);
// A budget the server cannot hold stops the start here (exit code 1, the sums on stderr).
await enforceConnectionBudget({
  databaseUrl: env.DATABASE_URL,
  budget: workerConnectionBudget(env),
  reserve: env.DB_CONNECTION_RESERVE,
  log,
});
const database = createDatabaseClient({
  databaseUrl: env.DATABASE_URL,
  maxConnections: env.WORKER_DB_POOL_MAX,
  poolTimeoutMs: env.WORKER_DB_POOL_TIMEOUT_MS,
});
const worker = createWorker({
  databaseUrl: env.DATABASE_URL,
  database,
  jobQueueMaxConnections: env.WORKER_JOB_QUEUE_POOL_MAX,
  log,
  shutdownTimeoutMs: env.WORKER_SHUTDOWN_TIMEOUT_MS,
  concurrency: env.WORKER_CONCURRENCY,
  superviseIntervalSeconds: env.WORKER_SUPERVISE_INTERVAL_SECONDS,
  sweepStaleAfterSeconds: env.WORKER_SWEEP_STALE_SECONDS,
  transmitInFlightMs: env.WORKER_TRANSMIT_IN_FLIGHT_MS,
  recoveryIntervalSeconds: env.WORKER_RECOVERY_INTERVAL_SECONDS,
  ...(env.WORKER_JOB_EXPIRE_SECONDS === undefined &&
  env.WORKER_JOB_RETRY_DELAY_SECONDS === undefined &&
  env.WORKER_JOB_HEARTBEAT_SECONDS === undefined
    ? {}
    : {
        queueOverrides: {
          ...(env.WORKER_JOB_EXPIRE_SECONDS === undefined
            ? {}
            : { expireInSeconds: env.WORKER_JOB_EXPIRE_SECONDS }),
          ...(env.WORKER_JOB_HEARTBEAT_SECONDS === undefined
            ? {}
            : { heartbeatSeconds: env.WORKER_JOB_HEARTBEAT_SECONDS }),
          ...(env.WORKER_JOB_RETRY_DELAY_SECONDS === undefined
            ? {}
            : { retryDelay: env.WORKER_JOB_RETRY_DELAY_SECONDS, retryBackoff: false }),
        },
      }),
  ...(certificateKeyring ? { certificateKeyring } : {}),
  xsdValidators,
  taxauth: {
    baseUrls: {
      ecf: env.TAXAUTH_ECF_BASE_URL,
      fc: env.TAXAUTH_FC_BASE_URL,
      status: env.TAXAUTH_STATUS_BASE_URL,
    },
    timeoutMs: env.TAXAUTH_TIMEOUT_MS,
  },
  webhooks: {
    allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    inboxBaseUrl: env.PUBLIC_BASE_URL,
    leaseMs: env.WORKER_WEBHOOK_LEASE_SECONDS * 1000,
  },
  buyerEmail: {
    transport: {
      host: env.SMTP_HOST,
      port: env.SMTP_PORT,
      secure: env.SMTP_SECURE,
      ...(env.SMTP_USER && env.SMTP_PASSWORD
        ? { auth: { user: env.SMTP_USER, pass: env.SMTP_PASSWORD } }
        : {}),
    },
    from: env.MAIL_FROM,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    linkSecret: env.RI_LINK_SECRET,
    smtpTimeoutMs: env.SMTP_TIMEOUT_MS,
    inFlightMs: env.WORKER_EMAIL_IN_FLIGHT_MS,
    ...(env.SMTP_MESSAGE_LOOKUP_URL === undefined
      ? {}
      : { lookupMessage: createHttpMessageLookup({ urlTemplate: env.SMTP_MESSAGE_LOOKUP_URL }) }),
  },
});
const healthServer = worker.createHealthServer();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping: waiting for running jobs');
  await worker.stop();
  await closeWebhookConnections();
  await new Promise<void>((resolve) => healthServer.close(() => resolve()));
  await database.$disconnect();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    shutdown(signal).catch((error: unknown) => {
      log.error({ err: error }, 'unclean stop');
      process.exitCode = 1;
    });
  });
}

await worker.start();
// A port that cannot be bound (taken, refused) stops the worker with exit code 1 and says why,
// instead of an unhandled 'error' event. WORKER_HEALTH_PORT=0 takes a free port; the log names it.
healthServer.once('error', (error) => {
  log.fatal({ err: error, port: env.WORKER_HEALTH_PORT }, 'the health server could not listen');
  process.exitCode = 1;
  shutdown('health server error').catch((stopError: unknown) => {
    log.error({ err: stopError }, 'unclean stop');
  });
});
healthServer.listen(env.WORKER_HEALTH_PORT, env.WORKER_HEALTH_HOST, () => {
  const address = healthServer.address();
  const port = typeof address === 'object' && address !== null ? address.port : env.WORKER_HEALTH_PORT;
  log.info({ port }, 'worker health on /healthz');
});
