/**
 * The fast half of the sweep: documents whose step died with its process get their next step
 * within seconds, instead of waiting for pg-boss to expire the dead process's job (5 minutes, then
 * its supervise pass) while the sweep counted that `active` job as moving.
 *
 * Two leases make it cheap. Each worker process renews its row in `worker_instances` every few
 * seconds: finding a row whose lease lapsed (`deadAfterSeconds`) and that nobody looked after yet
 * is one indexed read of a tiny table, made every few seconds by every worker. Only then is the job
 * table read: the documents of `active` jobs whose own lease lapsed (the pg-boss heartbeat of the
 * job, which the dead process can no longer refresh; see persistence/maintenance/sweep.ts) get their next
 * step, in the sweep's transaction and under its advisory lock (workers never requeue a document
 * twice), and the dead workers are marked looked after in the same transaction.
 */
import { sqlPoolOf, type TDatabase, type TEnqueue } from '@ecf/db';
import { findDeadWorkerInstances, inSweepTransaction } from '../persistence/index.ts';
import { DOCUMENT_QUEUES, requeueSwept, type TSweptDocument } from './sweep-documents.ts';

export type TRequeueLostDocumentsOptions = {
  database: TDatabase;
  /** Enqueues on the sweep's transaction (the worker's one enqueue function). */
  enqueue: TEnqueue;
  /**
   * A worker whose lease was not renewed for this long is dead. It must exceed the jobs' lease
   * (their heartbeat) plus its refresh interval, so that every job the dead worker held has lapsed
   * by then: the worker passes 1.5 x the heartbeat.
   */
  deadAfterSeconds: number;
  /** Clock of the events; the leases are read with the database's clock (pg-boss writes them with it). */
  now?: Date;
  /** At most this many documents per round (the next round takes the rest); default 500. */
  limit?: number;
};

/** Requeues the documents whose job's holder died; returns what it enqueued (reason `job_lost`) and for which dead workers. */
export async function requeueLostDocuments(
  options: TRequeueLostDocumentsOptions,
): Promise<{ requeued: TSweptDocument[]; deadWorkers: Array<{ id: string; host: string; pid: number }> }> {
  const idle = { requeued: [], deadWorkers: [] };
  const { deadAfterSeconds } = options;
  // The cheap check, every round: nothing died, nothing to look for.
  if ((await findDeadWorkerInstances(sqlPoolOf(options.database), { deadAfterSeconds })).length === 0)
    return idle;
  const now = options.now ?? new Date();
  const limit = options.limit ?? 500;
  return inSweepTransaction(
    options.database,
    async (sweep) => {
      const deadWorkers = await sweep.findDeadWorkers({ deadAfterSeconds });
      if (deadWorkers.length === 0) return idle;
      const lost = await sweep.findLost({ queues: DOCUMENT_QUEUES, limit });
      const requeued = await requeueSwept(sweep, lost, { enqueue: options.enqueue, now });
      // A full round may have left some: the next round looks again before they are marked.
      if (lost.length < limit) await sweep.markRecovered(deadWorkers.map((worker) => worker.id));
      return { requeued, deadWorkers };
    },
    idle,
  );
}
