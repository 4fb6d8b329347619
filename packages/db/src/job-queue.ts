/**
 * Putting work on the queues declared in `jobs.ts`: ONE function, shared by the API, the worker
 * and the use-cases they call. With `executor` (a connection inside the caller's transaction) the
 * jobs commit with the caller's write or not at all; without it they are inserted at once, the
 * concurrent calls of a process going to PostgreSQL as one insert per queue (group commit, see
 * `createCoalescer`).
 *
 * Loaded through `@ecf/db/job-queue`, so that importing `@ecf/db` does not load pg-boss.
 */
import { randomUUID } from 'node:crypto';
import { PgBoss, type JobInsert } from 'pg-boss';
import { createCoalescer, type TCoalesced } from './coalesce.ts';
import { JOB_QUEUE_SCHEMA, type TJobName, type TJobPayload } from './jobs.ts';
import type { TJobExecutor } from './sql.ts';

/** One job: its queue, its payload (checked against the queue's contract by the worker) and when it may start. */
export type TJobRequest<TName extends TJobName = TJobName> = {
  name: TName;
  payload: TJobPayload<TName>;
  /** Not before this many seconds from now (a retry's or a poll's wait); default at once. */
  startAfterSeconds?: number;
};

/** A job of any queue, its payload typed by its name. */
export type TAnyJobRequest = { [TName in TJobName]: TJobRequest<TName> }[TJobName];

/**
 * Enqueues `jobs`. With `executor` they are written on the caller's connection (its transaction);
 * without it at once, and the call fails when a job was not inserted.
 */
export type TEnqueue = (
  jobs: readonly TAnyJobRequest[],
  options?: { executor?: TJobExecutor },
) => Promise<void>;

type TPending = { id: string; insert: JobInsert };

/**
 * The enqueue function of a process over its pg-boss instance (`bossOf` may start it lazily: the
 * API starts even while the database is down). Keep one per process: concurrent calls share it.
 */
export function createEnqueue(bossOf: () => PgBoss | Promise<PgBoss>): TEnqueue {
  const perQueue = new Map<string, TCoalesced<TPending, boolean>>();
  const coalescedInsert = (name: string): TCoalesced<TPending, boolean> => {
    let coalesced = perQueue.get(name);
    if (coalesced === undefined) {
      coalesced = createCoalescer(async (jobs) => {
        const boss = await bossOf();
        const inserted = new Set(
          (await boss.insert(
            name,
            jobs.map((job) => ({ ...job.insert, id: job.id })),
            { returnId: true },
          )) ?? [],
        );
        return jobs.map((job) => ({ status: 'fulfilled' as const, value: inserted.has(job.id) }));
      });
      perQueue.set(name, coalesced);
    }
    return coalesced;
  };

  return async (jobs, options = {}) => {
    const byQueue = new Map<string, JobInsert[]>();
    for (const job of jobs) {
      const insert: JobInsert = {
        data: job.payload,
        ...(job.startAfterSeconds === undefined ? {} : { startAfter: job.startAfterSeconds }),
      };
      byQueue.set(job.name, [...(byQueue.get(job.name) ?? []), insert]);
    }
    const { executor } = options;
    if (executor !== undefined) {
      const boss = await bossOf();
      for (const [name, inserts] of byQueue) await boss.insert(name, inserts, { db: executor });
      return;
    }
    const results = await Promise.all(
      [...byQueue].flatMap(([name, inserts]) =>
        inserts.map(async (insert) => ({
          name,
          data: insert.data,
          inserted: await coalescedInsert(name)({ id: randomUUID(), insert }),
        })),
      ),
    );
    const missing = results.find((result) => !result.inserted);
    if (missing !== undefined)
      throw new Error(`${missing.name} (${JSON.stringify(missing.data)}) was not enqueued`);
  };
}

/**
 * pg-boss as a producer only (no supervision, no schedules, no workers) behind `createEnqueue`, for
 * a process that puts jobs on `queues` but never works them (the portal's Try it). Started lazily
 * on the first enqueue (the process starts even while the database is down), retried on failure;
 * the queues are created if absent, as the worker does.
 */
export function createProducerQueue(options: {
  databaseUrl: string;
  queues: readonly TJobName[];
  onError: (error: unknown) => void;
  /** pg-boss's pool: this producer's share of the process's connection budget; default 2. */
  maxConnections?: number;
}): { enqueue: TEnqueue; close: () => Promise<void> } {
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
    max: options.maxConnections ?? 2,
  });
  boss.on('error', options.onError);
  let starting: Promise<PgBoss> | undefined;
  let closed = false;
  const started = (): Promise<PgBoss> => {
    starting ??= (async () => {
      await boss.start();
      for (const queue of options.queues) if (!(await boss.getQueue(queue))) await boss.createQueue(queue);
      return boss;
    })().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  };
  return {
    enqueue: createEnqueue(started),
    close: async () => {
      if (closed) return;
      closed = true;
      if (starting) await boss.stop({ graceful: false, close: true }).catch(() => undefined);
    },
  };
}
