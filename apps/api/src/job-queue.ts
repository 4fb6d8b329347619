import { PgBoss } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { JOB_QUEUE_SCHEMA } from '@ecf/db';
import type { TEnqueueJob, TEnqueueJobs } from '@ecf/services';

/** Queues the API sends to (created if absent, as the worker does). */
const API_QUEUES = ['document.sign'] as const;

/**
 * pg-boss as a producer only (no supervision, no schedules, no workers): jobs are inserted with
 * `send(..., { db })` on the caller's transaction, so a job exists exactly when its write commits.
 * Started lazily (the API starts even while the database is down) and retried on failure.
 */
export function createJobQueue(options: { databaseUrl: string; log: FastifyBaseLogger }) {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
    max: 2,
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

  const enqueue: TEnqueueJob = async (name, payload, executor) => {
    const queue = await started();
    await queue.send(name, payload, { db: executor });
  };

  const enqueueJobs: TEnqueueJobs = async (name, payloads, executor) => {
    const queue = await started();
    await queue.insert(
      name,
      payloads.map((data) => ({ data })),
      { db: executor },
    );
  };

  return {
    enqueue,
    enqueueJobs,
    start: started,
    close: async () => {
      if (closed) return;
      closed = true;
      if (starting) await boss.stop({ graceful: false, close: true }).catch(() => {});
    },
  };
}
