/**
 * What the sweep reads and writes: under an advisory lock (one sweeper at a time across workers),
 * the non-final documents no live job of the document queues carries, and their requeue (the job
 * and a `sweep_requeued` event) in the same transaction.
 *
 * A job is LIVE when it waits (`created`, `retry`) or runs in a process that is still alive. The
 * worker gives its queues a pg-boss heartbeat (`heartbeatSeconds`): pg-boss refreshes
 * `heartbeat_on` of the jobs a process is running while it runs them, so that column is the lease
 * of the process holding the job. An `active` job whose heartbeat is older than its
 * `heartbeat_seconds` is LOST: the process that took it died (SIGKILL, OOM, power) or has not run
 * for that long. A job without a heartbeat (sent before the queue had one) is lost once its
 * `expire_seconds` have passed since it started, as pg-boss itself sees it.
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
import { appendDocumentEvents } from '../documents/change-document.ts';
import type { TEventInput } from '../statements.ts';
import { findDeadWorkerInstances, markWorkerInstancesRecovered } from './worker-instances.ts';

/** Serializes sweeps across workers (pg_advisory_xact_lock key). */
const SWEEP_LOCK_KEY = 0x5e_ec_f5_01;

/** Why a document is swept. `job_lost`: its job is held by a process whose lease lapsed. */
export type TSweepReason = 'stale' | 'certificate_installed' | 'contingency_due' | 'job_lost';

/** SQL: the lease of an `active` job of table alias `j` is still running (the database's clock, which pg-boss writes with). */
const LEASE_RUNNING = `(CASE WHEN j.heartbeat_seconds IS NULL
      THEN j.started_on + j.expire_seconds * interval '1 second'
      ELSE j.heartbeat_on + j.heartbeat_seconds * interval '1 second' END) > now()`;

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
   * Non-final documents whose only job of `queues` is lost (active, lease lapsed) and that no
   * waiting or live job carries: their step died with its process. Found from the active jobs, so
   * the query costs what the running jobs are, not what the backlog is.
   */
  findLost(input: { queues: TJobName[]; limit: number }): Promise<TStalledDocument[]>;
  /**
   * Non-final documents that no live job of `queues` carries (a due `created` or `retry` job, or
   * an `active` one whose lease runs; a job waiting for a later start counts only for the stale
   * and contingency cases), oldest change first.
   */
  findStalled(input: {
    queues: TJobName[];
    certificateCodes: string[];
    now: Date;
    staleBefore: Date;
    limit: number;
  }): Promise<TStalledDocument[]>;
  /** The dead workers not looked after yet (under the sweep's lock: two workers never both take them). */
  findDeadWorkers(input: {
    deadAfterSeconds: number;
  }): Promise<Array<{ id: string; host: string; pid: number }>>;
  /** Marks them looked after, committed with the requeues. */
  markRecovered(ids: string[]): Promise<void>;
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
      findLost: (input) => findLost(sql, input),
      findDeadWorkers: (input) => findDeadWorkerInstances(sql, input),
      markRecovered: (ids) => markWorkerInstancesRecovered(sql, ids),
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
       SELECT DISTINCT (j.data->>'documentId') AS document_id
       FROM pgboss.job j
       WHERE j.name = ANY($1::text[])
         AND ((j.state = 'active' AND ${LEASE_RUNNING}) OR (j.state IN ('created', 'retry') AND j.start_after <= $2::timestamptz))
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

async function findLost(
  sql: TSql,
  input: { queues: TJobName[]; limit: number },
): Promise<TStalledDocument[]> {
  const { rows } = await sql.query<{
    id: string;
    tenant_id: string;
    status: DocumentStatus;
    updated_at: Date;
    last_error: Prisma.JsonValue;
    last_deferred_at: Date | null;
  }>(
    `WITH lost AS (
       SELECT DISTINCT (j.data->>'documentId') AS document_id
       FROM pgboss.job j
       WHERE j.name = ANY($1::text[]) AND j.state = 'active' AND NOT ${LEASE_RUNNING}
         AND (j.data->>'documentId') ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
     ), carried AS (
       SELECT DISTINCT (j.data->>'documentId') AS document_id
       FROM pgboss.job j
       WHERE j.name = ANY($1::text[]) AND (j.data->>'documentId') IN (SELECT document_id FROM lost)
         AND (j.state IN ('created', 'retry') OR (j.state = 'active' AND ${LEASE_RUNNING}))
     )
     SELECT d.id, d.tenant_id, d.status::text AS status, d.updated_at, d.last_error, d.last_deferred_at
     FROM documents d
     WHERE d.id IN (SELECT document_id::uuid FROM lost WHERE document_id NOT IN (SELECT document_id FROM carried))
       AND d.status IN ('queued_for_signing', 'signed', 'sent', 'contingency')
       -- failed for good: waits for an operator, whatever its job did
       AND NOT (d.status = 'queued_for_signing' AND COALESCE(d.last_error->>'retrying', 'true') = 'false')
     ORDER BY d.updated_at
     LIMIT $2::int`,
    [input.queues, input.limit],
  );
  return rows.map((row) => ({
    id: row.id,
    tenantId: row.tenant_id,
    status: row.status,
    updatedAt: row.updated_at,
    lastError: row.last_error,
    lastDeferredAt: row.last_deferred_at,
    reason: 'job_lost' as const,
  }));
}
