/**
 * What the sweep reads and writes: under an advisory lock (one sweeper at a time across workers),
 * the non-final documents no pending job of the document queues carries, and their requeue (the
 * job and a `sweep_requeued` event) in the same transaction.
 */
import {
  inSqlTransaction,
  jobExecutorOfSql,
  type DocumentStatus,
  type Prisma,
  type TAnyJobRequest,
  type TDatabase,
  type TEnqueue,
  type TJobName,
  type TSql,
} from '@ecf/db';
import { appendDocumentEvents } from './change-document.ts';
import type { TEventInput } from './statements.ts';

/** Serializes sweeps across workers (pg_advisory_xact_lock key). */
const SWEEP_LOCK_KEY = 0x5e_ec_f5_01;

/** Why a document is swept. */
export type TSweepReason = 'stale' | 'certificate_installed' | 'contingency_due';

export type TStalledDocument = {
  id: string;
  tenantId: string;
  status: DocumentStatus;
  updatedAt: Date;
  lastError: Prisma.JsonValue;
  lastDeferredAt: Date | null;
  reason: TSweepReason;
};

/** The sweep's transaction: its reads and its requeues commit together. */
export type TSweepTransaction = {
  /**
   * Non-final documents that no `created`, `retry` or `active` job of `queues` carries (a job
   * waiting for a later start counts only for the stale and contingency cases), oldest change first.
   */
  findStalled(input: {
    queues: TJobName[];
    certificateCodes: string[];
    now: Date;
    staleBefore: Date;
    limit: number;
  }): Promise<TStalledDocument[]>;
  /** Enqueues the document's job and appends its event, in the sweep's transaction. */
  requeue(input: {
    documentId: string;
    job: TAnyJobRequest;
    enqueue: TEnqueue;
    event: TEventInput;
  }): Promise<void>;
};

/**
 * Runs `work` in one transaction holding the sweep lock; `whenBusy` when another worker holds it
 * (it is sweeping the same documents right now).
 */
export async function inSweepTransaction<T>(
  database: TDatabase,
  work: (sweep: TSweepTransaction) => Promise<T>,
  whenBusy: T,
): Promise<T> {
  return inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
      SWEEP_LOCK_KEY,
    ]);
    if (!rows[0]?.locked) return whenBusy;
    return work({
      findStalled: (input) => findStalled(sql, input),
      requeue: async (input) => {
        await input.enqueue([input.job], { executor: jobExecutorOfSql(sql) });
        await appendDocumentEvents(sql, { documentId: input.documentId, events: [input.event] });
      },
    });
  });
}

async function findStalled(
  sql: TSql,
  input: { queues: TJobName[]; certificateCodes: string[]; now: Date; staleBefore: Date; limit: number },
): Promise<TStalledDocument[]> {
  const { rows } = await sql.query<{
    id: string;
    tenant_id: string;
    status: DocumentStatus;
    updated_at: Date;
    last_error: Prisma.JsonValue;
    last_deferred_at: Date | null;
    reason: TSweepReason;
  }>(
    `WITH moving AS (
       SELECT DISTINCT (data->>'documentId') AS document_id
       FROM pgboss.job
       WHERE name = ANY($1::text[])
         AND (state IN ('active') OR (state IN ('created', 'retry') AND start_after <= $2::timestamptz))
     ), waiting AS (
       SELECT DISTINCT (data->>'documentId') AS document_id
       FROM pgboss.job
       WHERE name = ANY($1::text[]) AND state IN ('created', 'retry') AND start_after > $2::timestamptz
     )
     SELECT d.id, d.tenant_id, d.status::text AS status, d.updated_at, d.last_error, d.last_deferred_at,
            CASE
              WHEN d.status = 'contingency' THEN 'contingency_due'
              WHEN d.status = 'queued_for_signing' AND d.last_error->>'code' = ANY($3::text[])
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
         (d.status = 'queued_for_signing' AND d.last_error->>'code' = ANY($3::text[])
           AND EXISTS (SELECT 1 FROM tenant_certificates c
                       WHERE c.tenant_id = d.tenant_id AND c.active AND c.revoked_at IS NULL AND c.created_at > d.updated_at))
         OR (
           NOT EXISTS (SELECT 1 FROM waiting w WHERE w.document_id = d.id::text)
           AND (
             d.status = 'contingency'
             OR (d.updated_at < $4::timestamptz
                 AND NOT (d.status = 'queued_for_signing' AND COALESCE(d.last_error->>'retrying', 'true') = 'false'))
           )
         )
       )
     ORDER BY d.updated_at
     LIMIT $5::int`,
    [input.queues, input.now, input.certificateCodes, input.staleBefore, input.limit],
  );
  return rows.map((row) => ({
    id: row.id,
    tenantId: row.tenant_id,
    status: row.status,
    updatedAt: row.updated_at,
    lastError: row.last_error,
    lastDeferredAt: row.last_deferred_at,
    reason: row.reason,
  }));
}
