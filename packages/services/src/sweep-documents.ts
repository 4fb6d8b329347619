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
 * - `sent`, untouched for `staleAfterSeconds` → `document.poll-status`.
 *
 * "No job is moving it" means no `created`, `retry` or `active` job of `document.sign`,
 * `document.transmit` or `document.poll-status` carries its id (checked in the same query). The
 * sweep runs in one transaction under an advisory lock, so two workers sweeping at once cannot both
 * enqueue; each job is sent on that transaction with a `sweep_requeued` event beside it.
 */
import type { DocumentStatus, Prisma, TDatabase, TJobName } from '@ecf/db';
import { executorOf, type TEnqueueJob } from './job-executor.ts';
import { contingencyWaitSeconds } from './transmission-rules.ts';

/** The event a sweep appends to each document it moves (support staff see it in the log). */
export const SWEEP_EVENT_TYPE = 'sweep_requeued';

/** Default age of the last change after which a document with no pending job is swept. */
export const DEFAULT_SWEEP_STALE_SECONDS = 120;

/** Queues whose pending jobs keep a document moving. */
const DOCUMENT_QUEUES: TJobName[] = ['document.sign', 'document.transmit', 'document.poll-status'];
/** Certificate problems a newly installed certificate solves. */
const CERTIFICATE_CODES = ['CERTIFICATE_NOT_ACTIVE', 'CERTIFICATE_EXPIRED', 'CERTIFICATE_NOT_YET_VALID'];
/** Serializes sweeps across workers (pg_advisory_xact_lock key). */
const SWEEP_LOCK_KEY = 0x5e_ec_f5_01;

export type TSweepReason = 'stale' | 'certificate_installed' | 'contingency_due';

export type TSweptDocument = {
  documentId: string;
  status: DocumentStatus;
  job: TJobName;
  reason: TSweepReason;
};

export type TSweepDocumentsOptions = {
  /** Enqueues on the sweep's transaction (the worker passes pg-boss `send` with `db`). */
  enqueue: TEnqueueJob;
  /** Clock; default the system clock. */
  now?: Date;
  /** Age of the last change before a document with no pending job counts as stuck; default 120 s. */
  staleAfterSeconds?: number;
  /** At most this many documents per sweep (the next sweep takes the rest); default 500. */
  limit?: number;
};

type TCandidate = {
  id: string;
  tenant_id: string;
  status: DocumentStatus;
  updated_at: Date;
  last_error: Prisma.JsonValue;
  last_deferred_at: Date | null;
  reason: TSweepReason;
};

const NEXT_JOB: Partial<Record<DocumentStatus, TJobName>> = {
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
  database: TDatabase,
  options: TSweepDocumentsOptions,
): Promise<{ requeued: TSweptDocument[] }> {
  const now = options.now ?? new Date();
  const staleBefore = new Date(
    now.getTime() - (options.staleAfterSeconds ?? DEFAULT_SWEEP_STALE_SECONDS) * 1000,
  );
  const limit = options.limit ?? 500;
  return database.$transaction(
    async (transaction) => {
      // Another worker sweeping right now: it covers the same documents; skip this round.
      const [lock] = await transaction.$queryRaw<
        { locked: boolean }[]
      >`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) AS locked`;
      if (!lock?.locked) return { requeued: [] };
      const candidates = await transaction.$queryRaw<TCandidate[]>`
        WITH moving AS (
          SELECT DISTINCT (data->>'documentId') AS document_id
          FROM pgboss.job
          WHERE name = ANY(${DOCUMENT_QUEUES}::text[])
            AND (state IN ('active') OR (state IN ('created', 'retry') AND start_after <= ${now}))
        ), waiting AS (
          SELECT DISTINCT (data->>'documentId') AS document_id
          FROM pgboss.job
          WHERE name = ANY(${DOCUMENT_QUEUES}::text[]) AND state IN ('created', 'retry') AND start_after > ${now}
        )
        SELECT d.id, d.tenant_id, d.status, d.updated_at, d.last_error, d.last_deferred_at,
               CASE
                 WHEN d.status = 'contingency' THEN 'contingency_due'
                 WHEN d.status = 'queued_for_signing' AND d.last_error->>'code' = ANY(${CERTIFICATE_CODES}::text[])
                      AND EXISTS (SELECT 1 FROM tenant_certificates c
                                  WHERE c.tenant_id = d.tenant_id AND c.active AND c.revoked_at IS NULL AND c.created_at > d.updated_at)
                   THEN 'certificate_installed'
                 ELSE 'stale'
               END AS reason
        FROM documents d
        WHERE d.status IN ('queued_for_signing', 'signed', 'sent', 'contingency')
          AND NOT EXISTS (SELECT 1 FROM moving m WHERE m.document_id = d.id::text)
          AND (
            -- a certificate installed after the deferral: sign now, even with a retry waiting
            (d.status = 'queued_for_signing' AND d.last_error->>'code' = ANY(${CERTIFICATE_CODES}::text[])
              AND EXISTS (SELECT 1 FROM tenant_certificates c
                          WHERE c.tenant_id = d.tenant_id AND c.active AND c.revoked_at IS NULL AND c.created_at > d.updated_at))
            OR (
              NOT EXISTS (SELECT 1 FROM waiting w WHERE w.document_id = d.id::text)
              AND (
                d.status = 'contingency'
                OR (d.updated_at < ${staleBefore}
                    AND NOT (d.status = 'queued_for_signing' AND COALESCE(d.last_error->>'retrying', 'true') = 'false'))
              )
            )
          )
        ORDER BY d.updated_at
        LIMIT ${limit}`;
      const requeued: TSweptDocument[] = [];
      const executor = executorOf(transaction);
      for (const candidate of candidates) {
        const job = NEXT_JOB[candidate.status];
        if (job === undefined) continue;
        if (candidate.reason === 'contingency_due') {
          const due = nextContingencyAttemptAt(candidate.last_error, candidate.last_deferred_at);
          if (due !== undefined && due.getTime() > now.getTime()) continue;
        }
        await options.enqueue(job, { documentId: candidate.id }, executor);
        await transaction.documentEvent.create({
          data: {
            documentId: candidate.id,
            tenantId: candidate.tenant_id,
            type: SWEEP_EVENT_TYPE,
            data: {
              job,
              reason: candidate.reason,
              status: candidate.status,
              lastChangeAt: candidate.updated_at.toISOString(),
            },
            createdAt: now,
          },
        });
        requeued.push({ documentId: candidate.id, status: candidate.status, job, reason: candidate.reason });
      }
      return { requeued };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
}
