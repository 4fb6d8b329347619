/**
 * The worker process's lease and the recovery of what dead workers left (thin: the use-cases of
 * `@ecf/services` find and write).
 *
 * The process registers itself in `worker_instances` before it takes any job and renews its lease
 * every quarter of the jobs' heartbeat; every few seconds it asks whether a worker's lease lapsed
 * (one indexed read of a tiny table) and only then looks for the documents whose job that worker
 * held (`requeueLostDocuments`). Not a pg-boss schedule: those run at most once a minute, and a
 * restarted worker should not leave a document stalled that long. Every worker process runs it;
 * the sweep's advisory lock makes one of them do the work.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { TDatabase, TEnqueue } from '@ecf/db';
import {
  recoverAnnulments,
  registerWorkerInstance,
  renewWorkerInstance,
  requeueLostDocuments,
} from '@ecf/services';

export type TLostDocumentRecovery = {
  instanceId: () => string;
  /** Milliseconds since this process's lease was last registered or renewed (monotonic clock). */
  leaseAgeMs: () => number;
  stop: () => Promise<void>;
};

/**
 * A worker is dead once its lease is this many times the jobs' heartbeat old: by then every job it
 * held has missed its own heartbeat (refreshed every quarter of it) and counts as lost.
 */
const DEAD_AFTER_HEARTBEATS = 1.5;

/** The age of a lease after which its worker is dead (also what transmission uses to skip the in-flight wait). */
export function deadAfterSecondsOf(heartbeatSeconds: number): number {
  return Math.ceil(heartbeatSeconds * DEAD_AFTER_HEARTBEATS);
}

/** Registers the process, then renews its lease and recovers lost documents until `stop`. */
export async function startLostDocumentRecovery(options: {
  database: TDatabase;
  enqueue: TEnqueue;
  log: Logger;
  now: () => Date;
  /** The jobs' lease (pg-boss heartbeat) in seconds. */
  heartbeatSeconds: number;
  /** How often to look for dead workers; 0 = never (this process still holds a lease). */
  intervalSeconds: number;
}): Promise<TLostDocumentRecovery> {
  const { database, log } = options;
  const register = async () => {
    const instance = { id: randomUUID(), host: os.hostname(), pid: process.pid };
    await registerWorkerInstance({ database, instance });
    return instance.id;
  };
  let instanceId = await register();
  let renewedAt = performance.now();
  log.info({ instanceId }, 'worker lease registered');
  const pending = new Set<Promise<void>>();
  let stopped = false;
  /** Runs `task` unless stopped or already running (a slow database does not pile rounds up). */
  const every = (seconds: number, name: string, task: () => Promise<void>) => {
    let running = false;
    const tick = () => {
      if (stopped || running) return;
      running = true;
      const round = task()
        .catch((error: unknown) => {
          // The next round retries; a database outage must not stop the worker.
          log.error({ err: error }, `${name} failed`);
        })
        .finally(() => {
          running = false;
          pending.delete(round);
        });
      pending.add(round);
    };
    tick();
    const timer = setInterval(tick, seconds * 1000);
    timer.unref();
    return timer;
  };

  const timers = [
    every(options.heartbeatSeconds / 4, 'worker lease renewal', async () => {
      const attemptedAt = performance.now();
      if (await renewWorkerInstance({ database, id: instanceId })) {
        renewedAt = attemptedAt;
        return;
      }
      // Taken for dead (a long pause): alive after all, with a fresh lease; its jobs' own leases decide.
      instanceId = await register();
      renewedAt = attemptedAt;
      log.warn({ instanceId }, 'the worker lease had lapsed; registered again');
    }),
  ];
  if (options.intervalSeconds > 0)
    timers.push(
      every(options.intervalSeconds, 'lost document recovery', async () => {
        const { requeued, deadWorkers } = await requeueLostDocuments({
          database,
          enqueue: options.enqueue,
          deadAfterSeconds: deadAfterSecondsOf(options.heartbeatSeconds),
          now: options.now(),
        });
        if (deadWorkers.length > 0)
          log.warn(
            {
              deadWorkers,
              requeued: requeued.length,
              documentIds: requeued.slice(0, 20).map((document) => document.documentId),
            },
            'dead workers found: the documents of the jobs they held got their next step',
          );
      }),
    );
  if (options.intervalSeconds > 0)
    timers.push(
      // Annulments a crash interrupted: an acceptance whose covered documents are not cancelled
      // yet is finished; an ANECF left `sending` becomes `uncertain` (never resent); one left
      // `built` for 24 h (never reached the tax authority) becomes `failed` and frees its ranges.
      every(options.intervalSeconds, 'annulment recovery', async () => {
        const { settled, madeUncertain, failed } = await recoverAnnulments({ database, now: options.now() });
        if (settled > 0 || madeUncertain > 0 || failed > 0)
          log.warn({ settled, madeUncertain, failed }, 'interrupted or abandoned annulments recovered');
      }),
    );
  return {
    instanceId: () => instanceId,
    leaseAgeMs: () => performance.now() - renewedAt,
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all([...pending]);
    },
  };
}
