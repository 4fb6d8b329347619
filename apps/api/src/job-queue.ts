import { PgBoss } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { JOB_QUEUE_SCHEMA } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';

/** Queues the API sends to (created if absent, as the worker does). */
const API_QUEUES = [
  'document.sign',
  'inbound.check-validity',
  'commercial-approval.dispatch',
  // Certification (issue 19): runs, approval sends, the sync after an attestation, and a resend's
  // transmission or status query.
  'certification.advance',
  'certification.send-approvals',
  'certification.sync',
  'document.transmit',
  'document.poll-status',
  // The Partner webhook routes (test, resume, replay) queue deliveries.
  'webhook.deliver',
] as const;

/**
 * pg-boss as a producer only (no supervision, no schedules, no workers), behind the shared enqueue
 * function of `@ecf/db/job-queue`: jobs are inserted on the caller's transaction, so a job exists
 * exactly when its write commits. Started lazily (the API starts even while the database is down)
 * and retried on failure.
 */
export function createJobQueue(options: {
  databaseUrl: string;
  log: FastifyBaseLogger;
  /** pg-boss's pool (API_JOB_QUEUE_POOL_MAX); default 2. */
  maxConnections?: number;
}) {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
    max: options.maxConnections ?? 2,
  });
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  let starting: Promise<PgBoss> | undefined;
  let closed = false;

  function started(): Promise<PgBoss> {
    starting ??= (async () => {
      await boss.start();
      for (const queue of API_QUEUES) {
        if (!(await boss.getQueue(queue))) await boss.createQueue(queue);
      }
      return boss;
    })().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  }

  return {
    enqueue: createEnqueue(started),
    start: started,
    close: async () => {
      if (closed) return;
      closed = true;
      if (starting) await boss.stop({ graceful: false, close: true }).catch(() => {});
    },
  };
}
