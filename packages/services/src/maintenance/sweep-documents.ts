/**
 * The safety net under pg-boss: finds documents that no job is moving and enqueues their next step.
 *
 * Every step already enqueues the next one (signing in its own transaction, transmission and
 * polling before their job completes), so a sweep finds something only after a bug, a job that ran
 * out of retries, a queue purged by hand, or a certificate installed while signing waits on its
 * backoff. A document is swept when it is not final and:
 * - `queued_for_signing`, untouched for `staleAfterSeconds` (and not failed for good:
 *   `lastError.retrying = false` waits for an operator) → `document.sign`;
 * - `queued_for_signing` deferred for a certificate problem while the tenant's active certificate
 *   was installed after that deferral → `document.sign` at once (the waiting retry may be 30 min
 *   away; signing is guarded by the status, so the extra run is harmless);
 * - `signed`, untouched for `staleAfterSeconds` → `document.transmit`;
 * - `contingency` whose next attempt (`lastError.nextAttemptAt`, else `lastDeferredAt` plus the
 *   contingency schedule) has passed → `document.transmit`;
 * - `sent`, untouched for `staleAfterSeconds` → `document.poll-status`;
 * - any of these whose job was LOST (its process died: the job is `active` but its pg-boss
 *   heartbeat, the holder's lease, lapsed) and no other job carries it → its next step at once,
 *   whatever its age (`job_lost`). `requeueLostDocuments` does only this, every few seconds.
 *
 * "No job is moving it" means no live job of `document.sign`, `document.transmit` or
 * `document.poll-status` carries its id: a due `created` or `retry` job, or an `active` one whose
 * lease runs (checked in the same query; see persistence/maintenance/sweep.ts). The sweep runs in one
 * transaction under an advisory lock, so two workers sweeping at once cannot both enqueue; each job
 * is sent on that transaction with a `sweep_requeued` event beside it. The lost job itself is left
 * to pg-boss (it fails it once its heartbeat is overdue and retries it; the step, guarded by the
 * document's status and attempts, then finds nothing to do).
 */
import type { DocumentStatus, Prisma, TDatabase, TEnqueue } from '@ecf/db';
import {
  inSweepTransaction,
  type TStalledDocument,
  type TSweepReason,
  type TSweepTransaction,
} from '../persistence/index.ts';
import { contingencyWaitSeconds } from '../transmission/index.ts';

/** The event a sweep appends to each document it moves (support staff see it in the log). */
export const SWEEP_EVENT_TYPE = 'sweep_requeued';

/** Default age of the last change after which a document with no pending job is swept. */
export const DEFAULT_SWEEP_STALE_SECONDS = 120;

/** Queues whose pending jobs keep a document moving. */
type TDocumentQueue = 'document.sign' | 'document.transmit' | 'document.poll-status';
export const DOCUMENT_QUEUES: TDocumentQueue[] = [
  'document.sign',
  'document.transmit',
  'document.poll-status',
];
/** Certificate problems a newly installed certificate solves. */
const CERTIFICATE_CODES = ['CERTIFICATE_NOT_ACTIVE', 'CERTIFICATE_EXPIRED', 'CERTIFICATE_NOT_YET_VALID'];
export type TSweptDocument = {
  documentId: string;
  status: DocumentStatus;
  job: TDocumentQueue;
  reason: TSweepReason;
};

export type TSweepDocumentsOptions = {
  database: TDatabase;
  /** Enqueues on the sweep's transaction (the worker's one enqueue function). */
  enqueue: TEnqueue;
  /** Clock; default the system clock. */
  now?: Date;
  /** Age of the last change before a document with no pending job counts as stuck; default 120 s. */
  staleAfterSeconds?: number;
  /** At most this many documents per sweep (the next sweep takes the rest); default 500. */
  limit?: number;
};

export type { TSweepReason };

const NEXT_JOB: Partial<Record<DocumentStatus, TDocumentQueue>> = {
  queued_for_signing: 'document.sign',
  signed: 'document.transmit',
  contingency: 'document.transmit',
  sent: 'document.poll-status',
};

/** When a document in contingency is due for its next attempt. */
export function nextContingencyAttemptAt(
  lastError: Prisma.JsonValue,
  lastDeferredAt: Date | null,
): Date | undefined {
  const error = (
    typeof lastError === 'object' && lastError !== null && !Array.isArray(lastError) ? lastError : {}
  ) as { nextAttemptAt?: unknown; failures?: unknown };
  if (typeof error.nextAttemptAt === 'string') {
    const at = new Date(error.nextAttemptAt);
    if (!Number.isNaN(at.getTime())) return at;
  }
  if (lastDeferredAt === null) return undefined;
  const failures = typeof error.failures === 'number' ? error.failures : 1;
  return new Date(lastDeferredAt.getTime() + contingencyWaitSeconds(failures) * 1000);
}

/** One sweep: enqueues the next step of every document no job is moving. Returns what it enqueued. */
export async function sweepDocuments(
  options: TSweepDocumentsOptions,
): Promise<{ requeued: TSweptDocument[] }> {
  const now = options.now ?? new Date();
  const staleBefore = new Date(
    now.getTime() - (options.staleAfterSeconds ?? DEFAULT_SWEEP_STALE_SECONDS) * 1000,
  );
  const limit = options.limit ?? 500;
  // Another worker sweeping right now covers the same documents: this round does nothing.
  return inSweepTransaction(
    options.database,
    async (sweep) => {
      // The lost first: their jobs, sent on this transaction, then count as moving for the second query.
      const lost = await requeueSwept(sweep, await sweep.findLost({ queues: DOCUMENT_QUEUES, limit }), {
        enqueue: options.enqueue,
        now,
      });
      const stalled = await sweep.findStalled({
        queues: DOCUMENT_QUEUES,
        certificateCodes: CERTIFICATE_CODES,
        now,
        staleBefore,
        limit,
      });
      const due = stalled.filter((candidate) => {
        if (candidate.reason !== 'contingency_due') return true;
        const at = nextContingencyAttemptAt(candidate.lastError, candidate.lastDeferredAt);
        return at === undefined || at.getTime() <= now.getTime();
      });
      return { requeued: [...lost, ...(await requeueSwept(sweep, due, { enqueue: options.enqueue, now }))] };
    },
    { requeued: [] },
  );
}

/** Enqueues each candidate's next step on the sweep's transaction, with its `sweep_requeued` event. */
export async function requeueSwept(
  sweep: TSweepTransaction,
  candidates: TStalledDocument[],
  options: { enqueue: TEnqueue; now: Date },
): Promise<TSweptDocument[]> {
  const requeued: TSweptDocument[] = [];
  for (const candidate of candidates) {
    const job = NEXT_JOB[candidate.status];
    if (job === undefined) continue;
    await sweep.requeue({
      documentId: candidate.id,
      job: { name: job, payload: { documentId: candidate.id } },
      enqueue: options.enqueue,
      event: {
        type: SWEEP_EVENT_TYPE,
        data: {
          job,
          reason: candidate.reason,
          status: candidate.status,
          lastChangeAt: candidate.updatedAt.toISOString(),
        },
        at: options.now,
      },
    });
    requeued.push({ documentId: candidate.id, status: candidate.status, job, reason: candidate.reason });
  }
  return requeued;
}
