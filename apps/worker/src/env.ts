import { z } from 'zod';
import { readEnvironment, resolveFromRepository, ZLogLevel } from '@ecf/config';

const ZEnv = z
  .object({
    DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
    WORKER_HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
    WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
    LOG_LEVEL: ZLogLevel,
    /** How long SIGTERM waits for running jobs before giving up on them (they are retried later). */
    WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
    /**
     * Master key (32 bytes, base64) that encrypts tenant certificates at rest. Without it the worker
     * runs but cannot sign. Production sets its own; scripts/up.sh generates a development one.
     */
    CERTIFICATE_MASTER_KEY: z.string().min(1).optional(),
    /** Earlier master keys, comma-separated, still able to decrypt certificates stored before a rotation. */
    CERTIFICATE_MASTER_KEYS: z.string().optional(),
    /** The tax authority's hosts (production: https://ecf.dgii.gov.do, https://fc.dgii.gov.do, https://statusecf.dgii.gov.do); default the local simulator. */
    TAXAUTH_ECF_BASE_URL: z.url().default('http://127.0.0.1:4000'),
    TAXAUTH_FC_BASE_URL: z.url().default('http://127.0.0.1:4000'),
    TAXAUTH_STATUS_BASE_URL: z.url().default('http://127.0.0.1:4000'),
    /**
     * Timeout of each HTTP exchange with the tax authority; no answer within it is a contingency.
     * 15 s (several times a normal answer): it also bounds how long a request of a worker that died
     * may still be settling at the tax authority, so the in-flight case recovers within 30 s of a
     * restart (README, "The in-flight case").
     */
    TAXAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    /** Official XSDs (relative paths from the repository root); signed XML is checked against them. */
    XSD_DIRECTORY: z.string().min(1).default('config/xsd').transform(resolveFromRepository),
    /** Jobs per fetch of each document queue (sign, transmit, poll); two fetches run at once, so up to twice this many per queue. Scheduled maintenance runs one at a time. */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(32),
    /**
     * Connection budget of one worker process (README "Database connections"): the application pool
     * (jobs hold a connection only per statement or short transaction: 20 serve 32 jobs per queue
     * without queueing much), pg-boss's own pool, plus the webhook outbox's one LISTEN connection.
     * The start is refused when the sum exceeds the server's max_connections minus its reserved
     * slots minus DB_CONNECTION_RESERVE.
     */
    WORKER_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(20),
    WORKER_JOB_QUEUE_POOL_MAX: z.coerce.number().int().min(2).max(100).default(10),
    /** How long a job's statement waits for a pooled connection before it fails (and its job is retried). */
    WORKER_DB_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Connections of the server left to operators and other clients beyond PostgreSQL's own reserved slots. */
    DB_CONNECTION_RESERVE: z.coerce.number().int().min(0).max(1000).default(10),
    /**
     * Overrides `expireInSeconds` of the document queues: how long an active job of a killed worker
     * stays active before pg-boss retries it (default: the registry's, 5 min for signing with its sending,
     * transmission and polling). Tests of crash recovery set a few seconds; it must stay above the longest run.
     */
    WORKER_JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).optional(),
    /**
     * Overrides the lease of a running job (pg-boss `heartbeatSeconds` of the on-demand queues;
     * default the registry's, 10 s, pg-boss's minimum). A job whose holder has not refreshed it for
     * this long is taken as held by a dead worker.
     */
    WORKER_JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).optional(),
    /**
     * How often each worker looks for workers whose lease lapsed (`worker_instances`, renewed every
     * quarter of the job heartbeat) and gives the documents of the jobs they held their next step;
     * 0 = never (the minute sweep still does).
     */
    WORKER_RECOVERY_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(600).default(5),
    /** A fixed retry delay, without backoff, for the document queues (default: the registry's, 30 s doubling). Tests only. */
    WORKER_JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).optional(),
    /** How often pg-boss looks for expired jobs and runs its schedules (default 60 s). */
    WORKER_SUPERVISE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
    /**
     * How long a transmission attempt without outcome may still be running in another process before
     * it is resolved by asking the tax authority. Must cover authentication plus the send (3 x TAXAUTH_TIMEOUT_MS).
     * An attempt whose worker process is known dead (its lease lapsed) does not wait for it.
     */
    WORKER_TRANSMIT_IN_FLIGHT_MS: z.coerce.number().int().min(1000).default(45_000),
    /** A non-final document untouched this long with no pending job is re-enqueued by maintenance.sweep-documents. */
    WORKER_SWEEP_STALE_SECONDS: z.coerce.number().int().min(1).default(120),
    /** SMTP server of the buyer e-mail (default: the local mail catcher of scripts/up.sh). */
    SMTP_HOST: z.string().min(1).default('127.0.0.1'),
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
    /** `true`: TLS from the first byte (port 465); `false`: plain, upgraded with STARTTLS when the server offers it. */
    SMTP_SECURE: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /** SMTP credentials (both or neither); never logged. */
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    /**
     * The whole SMTP exchange of one buyer e-mail attempt (connection, greeting, TLS, authentication,
     * the message) must end within this; the connection is closed when it passes.
     */
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    /**
     * How the worker asks the mail provider whether it accepted a message, before it resends a buyer
     * e-mail whose outcome it does not know (a crash between the SMTP answer and its record): a URL
     * with `{messageId}` (e.g. the local mail catcher's
     * `http://127.0.0.1:3003/api/messages/by-message-id/{messageId}`); 200 = accepted, 404 = not
     * there. Unset: such an e-mail is never resent (at most once), recorded `buyer_email_uncertain`
     * and an operator is notified.
     */
    SMTP_MESSAGE_LOOKUP_URL: z
      .url()
      .refine((url) => url.includes('{messageId}'), 'must contain {messageId}')
      .optional(),
    /**
     * How long a buyer e-mail attempt without outcome may still be running in another process before
     * it is looked up (or declared uncertain). Must cover a whole SMTP exchange (2 x SMTP_TIMEOUT_MS).
     */
    WORKER_EMAIL_IN_FLIGHT_MS: z.coerce.number().int().min(200).default(60_000),
    /** `From` of the buyer e-mail. */
    MAIL_FROM: z.string().min(3).default('Facturación electrónica <no-reply@ecf.localhost>'),
    /** The API's public base URL: buyers open `{PUBLIC_BASE_URL}/ri/{token}`; webhooks to `{PUBLIC_BASE_URL}/webhook-inbox/{token}` (TesteCF test inboxes) are always allowed. */
    PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
    /** HMAC key of the buyer links; the API must have the same. Set a long random value in production. */
    RI_LINK_SECRET: z.string().min(32).default('local-development-ri-link-secret-change-me-000'),
    /**
     * Development only: webhook deliveries may go to loopback and private addresses over plain HTTP
     * (local receivers). Off by default; production never sets it.
     */
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    /**
     * How long a webhook attempt may run before its worker is taken for dead and the delivery goes
     * back to the queue (it must cover the 10 s request and its records). Crash tests set a few seconds.
     */
    WORKER_WEBHOOK_LEASE_SECONDS: z.coerce.number().int().min(1).default(60),
  })
  .refine((env) => (env.SMTP_USER === undefined) === (env.SMTP_PASSWORD === undefined), {
    path: ['SMTP_PASSWORD'],
    message: 'SMTP_USER and SMTP_PASSWORD go together (both or neither)',
  })
  .refine((env) => env.WORKER_EMAIL_IN_FLIGHT_MS >= 2 * env.SMTP_TIMEOUT_MS, {
    path: ['WORKER_EMAIL_IN_FLIGHT_MS'],
    message: 'must be at least 2 x SMTP_TIMEOUT_MS (the SMTP exchange of a run still going)',
  })
  .refine((env) => env.WORKER_TRANSMIT_IN_FLIGHT_MS >= 3 * env.TAXAUTH_TIMEOUT_MS, {
    path: ['WORKER_TRANSMIT_IN_FLIGHT_MS'],
    message: 'must be at least 3 x TAXAUTH_TIMEOUT_MS (authentication and the send of a run still going)',
  });

export type TEnv = z.infer<typeof ZEnv>;

/** Reads and validates the worker's environment once. A failure names the variable, never its value. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return readEnvironment(ZEnv, source);
}
