import http from 'node:http';
import { PgBoss, type JobResult } from 'pg-boss';
import type { Logger } from 'pino';
import { JOB_QUEUE_SCHEMA, type TDatabase } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import type { TCertificateKeyring } from '@ecf/services';
import type { TXsdValidators } from '@ecf/fiscal-core';
import type { TBuyerEmailSettings, TJobContext, TWebhookSettings } from './jobs/context.ts';
import { JOB_HEARTBEAT_SECONDS, JOB_REGISTRY, type TAnyJobDefinition } from './jobs/registry.ts';
import {
  deadAfterSecondsOf,
  startLostDocumentRecovery,
  type TLostDocumentRecovery,
} from './lost-document-recovery.ts';
import { startWebhookOutbox, type TWebhookOutbox } from './webhook-outbox.ts';
import {
  DEFAULT_TIMEOUT_MS as DEFAULT_TAXAUTH_TIMEOUT_MS,
  createTaxauthClients,
  type TTaxauthBaseUrls,
  type TTaxauthClient,
  type TTaxauthEnvironment,
} from '@ecf/taxauth-client';

export type TWorkerOptions = {
  databaseUrl: string;
  database: TDatabase;
  log: Logger;
  /** pg-boss's pool (WORKER_JOB_QUEUE_POOL_MAX); default pg-boss's 10. */
  jobQueueMaxConnections?: number;
  jobs?: TAnyJobDefinition[];
  now?: () => Date;
  shutdownTimeoutMs?: number;
  /** Needed by `document.sign`; without it signing jobs fail (and are retried). */
  certificateKeyring?: TCertificateKeyring;
  /** The tax authority's hosts and timeout; transmission jobs fail (and are retried) without them. */
  taxauth?: { baseUrls: TTaxauthBaseUrls; timeoutMs?: number };
  /** Overrides the clients built from `taxauth` (tests). */
  taxauthClientFor?: (environment: TTaxauthEnvironment) => TTaxauthClient;
  /** Official XSDs: signed documents are checked before they are stored. */
  xsdValidators?: TXsdValidators;
  /** Jobs per fetch of each on-demand queue (two fetches run at once, so up to twice this many jobs per queue); scheduled jobs run one at a time. Default 1. */
  concurrency?: number;
  /** Overrides the retry policy and lease of the on-demand queues (tests of crash recovery: a few seconds). */
  queueOverrides?: {
    expireInSeconds?: number;
    retryDelay?: number;
    retryBackoff?: boolean;
    /** The lease of a running job (pg-boss heartbeat, at least 10 s). */
    heartbeatSeconds?: number;
  };
  /**
   * How often this process looks for workers whose lease lapsed and gives the documents of the jobs
   * they held their next step (`WORKER_RECOVERY_INTERVAL_SECONDS`); default 5, 0 = never (the
   * process still registers and renews its own lease).
   */
  recoveryIntervalSeconds?: number;
  /** How often pg-boss fails expired jobs (and so retries those of a killed worker); default 60 s. */
  superviseIntervalSeconds?: number;
  /** Poll interval of the on-demand queues in seconds (default 0.5, pg-boss's minimum). */
  pollingIntervalSeconds?: number;
  /** Passed to the sweep (`WORKER_SWEEP_STALE_SECONDS`). */
  sweepStaleAfterSeconds?: number;
  /** Passed to transmission (`WORKER_TRANSMIT_IN_FLIGHT_MS`). */
  transmitInFlightMs?: number;
  /** SMTP and link settings of the buyer e-mail job; without them `document.email-buyer` jobs fail (and are retried). */
  buyerEmail?: TBuyerEmailSettings;
  /** Settings of `webhook.deliver` (default: private targets refused). */
  webhooks?: TWebhookSettings;
  /**
   * How often this process runs the webhook sweep (dead workers' deliveries back in the queue,
   * leftover outbox rows fanned out); default `recoveryIntervalSeconds`, 0 = only the minute schedule.
   */
  webhookSweepIntervalSeconds?: number;
};

/** Default of `recoveryIntervalSeconds`. */
const DEFAULT_RECOVERY_INTERVAL_SECONDS = 5;
/**
 * A running batch refreshes its jobs' heartbeat this many times per lease: a process whose event
 * loop is late by up to three quarters of the lease is not taken for dead.
 */
const HEARTBEATS_PER_LEASE = 4;

/** Fetch loops per on-demand queue (pg-boss `localConcurrency`), each taking up to `concurrency` jobs. */
const FETCHES_PER_QUEUE = 2;
/**
 * How often an idle on-demand queue looks for due jobs (pg-boss's minimum; its default is 2 s). A
 * result query scheduled 1 s after sending is then asked within 1.5 s, not 3 s; the cost is two
 * indexed fetches per second per queue while idle.
 */
const DEFAULT_POLLING_INTERVAL_SECONDS = 0.5;

/**
 * The background worker: pg-boss on the application database, one queue per registered job,
 * payloads parsed before handlers run, and a graceful stop that lets running jobs finish.
 */
export function createWorker(options: TWorkerOptions) {
  const jobs = options.jobs ?? JOB_REGISTRY;
  const now = options.now ?? (() => new Date());
  const supervise = options.superviseIntervalSeconds;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: JOB_QUEUE_SCHEMA,
    max: options.jobQueueMaxConnections ?? 10,
    // Expired jobs are failed (and retried) by the supervise pass, per queue at most every monitor interval.
    ...(supervise === undefined
      ? {}
      : { superviseIntervalSeconds: supervise, monitorIntervalSeconds: supervise }),
  });
  let state: 'starting' | 'running' | 'stopping' | 'stopped' = 'starting';
  let recovery: TLostDocumentRecovery | undefined;
  let workerLease: TJobContext['workerLease'];
  let webhookOutbox: TWebhookOutbox | undefined;
  const startedAt = new Date();
  const processed = new Map<string, { completed: number; failed: number }>();

  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  // The process's one enqueue function: in a use-case's transaction, or at once (a step's next
  // job; the follow-ups of concurrent handlers go in as one insert per queue).
  const enqueue = createEnqueue(() => boss);
  // One client per environment for the process: each holds its tenants' tokens until they expire.
  const taxauth = options.taxauth;
  const taxauthClientFor =
    options.taxauthClientFor ??
    (taxauth === undefined
      ? undefined
      : createTaxauthClients({
          baseUrls: taxauth.baseUrls,
          ...(taxauth.timeoutMs === undefined ? {} : { timeoutMs: taxauth.timeoutMs }),
        }));

  async function start(): Promise<void> {
    await boss.start();
    // The lease first: every job this process takes is covered by it.
    recovery = await startLostDocumentRecovery({
      database: options.database,
      enqueue,
      log: options.log.child({ task: 'worker-lease' }),
      now,
      heartbeatSeconds: options.queueOverrides?.heartbeatSeconds ?? JOB_HEARTBEAT_SECONDS,
      intervalSeconds: options.recoveryIntervalSeconds ?? DEFAULT_RECOVERY_INTERVAL_SECONDS,
    });
    const lease = recovery;
    const heartbeatSeconds = options.queueOverrides?.heartbeatSeconds ?? JOB_HEARTBEAT_SECONDS;
    workerLease = {
      instanceId: () => lease.instanceId(),
      deadAfterSeconds: deadAfterSecondsOf(heartbeatSeconds),
      // A dead process may have lived one renewal (a quarter of the heartbeat) after its last one;
      // a request it sent is answered within the client's timeout, or given up on.
      orphanSettleMs: (heartbeatSeconds * 1000) / 4 + (taxauth?.timeoutMs ?? DEFAULT_TAXAUTH_TIMEOUT_MS),
      // Others take this process for dead once its lease is deadAfterSeconds old and may then ask
      // the tax authority and resend: it sends nothing once its lease is half that old (a long
      // pause), and the attempt it committed is resolved by asking, like any other.
      leaseFresh: () => lease.leaseAgeMs() < (deadAfterSecondsOf(heartbeatSeconds) * 1000) / 2,
    };
    for (const job of jobs) {
      const onDemand = job.schedule === undefined;
      let queue =
        onDemand && options.queueOverrides ? { ...job.queue, ...options.queueOverrides } : job.queue;
      // pg-boss refuses a maximum delay without backoff.
      if (queue?.retryBackoff === false) {
        const { retryDelayMax: _ignored, ...fixed } = queue;
        queue = fixed;
      }
      await boss.createQueue(job.name, queue ?? {});
      // createQueue leaves an existing queue as it was: apply the current retry policy.
      if (queue) await boss.updateQueue(job.name, queue);
      processed.set(job.name, { completed: 0, failed: 0 });
      // One fetch takes up to `concurrency` jobs and runs them at once, each settled on its own
      // (perJobResults); while fetches come back full the worker fetches again at once (burst).
      // Their statements are coalesced (@ecf/db createCoalescer): a fetch's documents are read and
      // written in a few statements, not a few per document.
      const batchSize = onDemand ? (options.concurrency ?? 1) : 1;
      const workOptions = {
        batchSize,
        // Two fetch loops per queue: one batch's database and tax authority round trips overlap the next one's signing.
        ...(onDemand ? { localConcurrency: FETCHES_PER_QUEUE } : {}),
        perJobResults: true as const,
        ...(batchSize > 1 ? { burstWhenBatchFull: true } : {}),
        ...(onDemand
          ? { pollingIntervalSeconds: options.pollingIntervalSeconds ?? DEFAULT_POLLING_INTERVAL_SECONDS }
          : {}),
        // The lease: only a batch that runs longer than this writes (one UPDATE for the batch).
        ...(queue?.heartbeatSeconds === undefined
          ? {}
          : { heartbeatRefreshSeconds: queue.heartbeatSeconds / HEARTBEATS_PER_LEASE }),
      };
      const runOne = async (queued: { id: string; data: unknown }): Promise<void> => {
        const counts = processed.get(job.name) ?? { completed: 0, failed: 0 };
        const log = options.log.child({ job: job.name, jobId: queued.id });
        const parsed = job.schema.safeParse(queued.data ?? {});
        if (!parsed.success) {
          counts.failed += 1;
          // A payload that breaks its contract will never succeed: fail it loudly, do not retry blindly.
          throw new Error(
            `invalid payload for ${job.name}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
          );
        }
        try {
          // The payload was parsed by this job's own contract just above.
          const handle = job.handle as (payload: unknown, context: TJobContext) => Promise<void>;
          await handle(parsed.data, {
            database: options.database,
            log,
            now,
            ...(options.certificateKeyring ? { certificateKeyring: options.certificateKeyring } : {}),
            enqueue,
            ...(options.xsdValidators ? { xsdValidators: options.xsdValidators } : {}),
            ...(taxauthClientFor ? { taxauthClientFor } : {}),
            ...(options.sweepStaleAfterSeconds === undefined
              ? {}
              : { sweepStaleAfterSeconds: options.sweepStaleAfterSeconds }),
            ...(options.transmitInFlightMs === undefined
              ? {}
              : { transmitInFlightMs: options.transmitInFlightMs }),
            ...(workerLease === undefined ? {} : { workerLease }),
            ...(options.buyerEmail ? { buyerEmail: options.buyerEmail } : {}),
            ...(options.webhooks ? { webhooks: options.webhooks } : {}),
          });
          counts.completed += 1;
        } catch (error) {
          counts.failed += 1;
          log.error({ err: error }, 'job failed');
          throw error;
        }
      };
      await boss.work(job.name, workOptions, async (batch): Promise<JobResult[]> =>
        Promise.all(
          batch.map(async (queued): Promise<JobResult> => {
            try {
              await runOne(queued);
              return { id: queued.id, status: 'completed' };
            } catch (error) {
              // Kept on the job like pg-boss keeps a thrown error; the job is retried by its queue's policy.
              const output =
                error instanceof Error
                  ? { name: error.name, message: error.message, stack: error.stack }
                  : { message: String(error) };
              return { id: queued.id, status: 'failed', output };
            }
          }),
        ),
      );
      if (job.schedule) await boss.schedule(job.name, job.schedule, {});
    }
    // The outbox's listener once the webhook queues exist (its fan-out enqueues webhook.deliver).
    if (jobs.some((job) => job.name === 'webhook.deliver'))
      webhookOutbox = await startWebhookOutbox({
        databaseUrl: options.databaseUrl,
        database: options.database,
        enqueue,
        log: options.log.child({ task: 'webhook-outbox' }),
        now,
        sweepIntervalSeconds:
          options.webhookSweepIntervalSeconds ??
          options.recoveryIntervalSeconds ??
          DEFAULT_RECOVERY_INTERVAL_SECONDS,
      });
    state = 'running';
    options.log.info({ queues: jobs.map((job) => job.name) }, 'worker started');
  }

  async function stop(): Promise<void> {
    if (state === 'stopping' || state === 'stopped') return;
    state = 'stopping';
    await webhookOutbox?.stop();
    await boss.stop({ graceful: true, timeout: options.shutdownTimeoutMs ?? 30_000, close: true });
    // Renewed until the running jobs ended: a stop that gave up on some leaves a lapsing lease behind.
    await recovery?.stop();
    state = 'stopped';
    options.log.info('worker stopped');
  }

  function health() {
    return {
      ok: state === 'running',
      status: state,
      service: 'ecf-worker',
      startedAt: startedAt.toISOString(),
      queues: Object.fromEntries(processed),
    };
  }

  /** A small HTTP server answering GET /healthz (200 while running, 503 otherwise). */
  function createHealthServer(): http.Server {
    return http.createServer((request, response) => {
      const body = health();
      const status = request.url === '/healthz' ? (body.ok ? 200 : 503) : 404;
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(
        JSON.stringify(
          status === 404
            ? { ok: false, error: { code: 'ROUTE_NOT_FOUND', message: 'Only GET /healthz.', details: {} } }
            : body,
        ),
      );
    });
  }

  return { boss, start, stop, health, createHealthServer };
}
