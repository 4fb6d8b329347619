/**
 * The webhook engine's statements: the outbox (`webhook_events`, written by the triggers of
 * migration 0012 in the statement of each change), the fan-out into `webhook_deliveries`, a
 * delivery's claim and outcome with its attempt log, and the sweep that puts back what a dead
 * worker held. Every state change of a delivery is guarded on the state it expects, and the jobs it
 * implies are enqueued on the same transaction, so a delivery is never left queued without a way
 * forward (the sweep is the safety net under that).
 *
 * The lifecycle of endpoints (create, pause, rotate, retire, replay) is in `webhook-endpoints.ts`.
 */
import { randomUUID } from 'node:crypto';
import {
  inSqlTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  prepared,
  type Environment,
  type TAnyJobRequest,
  type TDatabase,
  type TEnqueue,
  type TSql,
  type WebhookAttemptOutcome,
  type WebhookEndpointStatus,
  type WebhookSystem,
} from '@ecf/db';
import { ordinalBatchStatement } from '../batched-lookup.ts';
import { groupCommitted } from '../guarded-write.ts';

/** An outbox row as the fan-out reads it. */
export type TWebhookEventRow = {
  id: string;
  sequence: string;
  type: string;
  tenantId: string | null;
  environment: Environment;
  documentId: string | null;
  episodeId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
  /** The request whose change wrote the row (migration 0019), null for a job's or an outage's. */
  correlationId: string | null;
};

/** What the fan-out needs of a candidate endpoint. */
export type TWebhookFanOutEndpoint = {
  id: string;
  system: WebhookSystem;
  tenantId: string | null;
  /** A Partner endpoint's owner (its `environment` is null: it receives every environment's events). */
  partnerId: string | null;
  environment: Environment | null;
  eventTypes: string[];
  status: WebhookEndpointStatus;
};

/** A tenant managed by a Partner, as a Partner payload names it. */
export type TPartnerAccountLink = { fiscalAccountId: string; partnerId: string; externalTenantId: string };

/** The job of one attempt of a delivery, not before `startAfterSeconds`. */
export function webhookDeliveryJob(deliveryId: string, startAfterSeconds = 0): TAnyJobRequest {
  return {
    name: 'webhook.deliver',
    payload: { deliveryId },
    ...(startAfterSeconds > 0 ? { startAfterSeconds } : {}),
  };
}

function secondsUntil(at: Date, now: Date): number {
  return Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000));
}

type TEventDbRow = {
  id: string;
  sequence: string;
  type: string;
  tenant_id: string | null;
  environment: Environment;
  document_id: string | null;
  episode_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  correlation_id: string | null;
};

/**
 * Takes up to `limit` pending outbox rows (oldest first; rows another fan-out holds are skipped),
 * asks `route` which endpoints get each and with which body, inserts those deliveries (one per
 * event and endpoint: a second fan-out of the same event adds nothing), marks the events fanned
 * out and enqueues a `webhook.deliver` job for each delivery of an ACTIVE endpoint, all in one
 * transaction. Deliveries of paused endpoints wait queued (resume enqueues them).
 */
export async function fanOutPendingWebhookEvents(
  database: TDatabase,
  input: {
    limit: number;
    now: Date;
    enqueue: TEnqueue;
    route: (
      event: TWebhookEventRow,
      endpoints: readonly TWebhookFanOutEndpoint[],
      /** The Partner link of the event's tenant, when a Partner manages it. */
      account: TPartnerAccountLink | null,
    ) => Array<{ endpoint: TWebhookFanOutEndpoint; body: Buffer }>;
  },
): Promise<{ events: number; deliveries: number; jobs: number }> {
  return inSqlTransaction(database, async (sql) => {
    const pending = await sql.query<TEventDbRow>(
      prepared(
        `SELECT id, sequence::text AS sequence, type, tenant_id, environment, document_id, episode_id, data, created_at,
                correlation_id
         FROM webhook_events WHERE fanned_out_at IS NULL
         ORDER BY sequence LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [input.limit],
      ),
    );
    if (pending.rows.length === 0) return { events: 0, deliveries: 0, jobs: 0 };
    const events: TWebhookEventRow[] = pending.rows.map((row) => ({
      id: row.id,
      sequence: row.sequence,
      type: row.type,
      tenantId: row.tenant_id,
      environment: row.environment,
      documentId: row.document_id,
      episodeId: row.episode_id,
      data: row.data,
      createdAt: row.created_at,
      correlationId: row.correlation_id,
    }));
    const environments = [...new Set(events.map((event) => event.environment))];
    const candidates = await sql.query<{
      id: string;
      system: WebhookSystem;
      tenant_id: string | null;
      partner_id: string | null;
      environment: Environment | null;
      event_types: string[];
      status: WebhookEndpointStatus;
    }>(
      prepared(
        `SELECT id, system, tenant_id, partner_id::text AS partner_id, environment, event_types, status FROM webhook_endpoints
         WHERE (environment = ANY($1::"Environment"[]) OR system = 'partner') AND status IN ('active', 'paused')`,
        [environments],
      ),
    );
    const tenantIds = [
      ...new Set(events.flatMap((event) => (event.tenantId === null ? [] : [event.tenantId]))),
    ];
    const links = await sql.query<{ id: string; partner_id: string; external_tenant_id: string }>(
      prepared(
        `SELECT id::text AS id, partner_id::text AS partner_id, external_tenant_id FROM tenants
          WHERE id = ANY($1::uuid[]) AND partner_id IS NOT NULL`,
        [tenantIds],
      ),
    );
    const accounts = new Map<string, TPartnerAccountLink>(
      links.rows.map((row) => [
        row.id,
        { fiscalAccountId: row.id, partnerId: row.partner_id, externalTenantId: row.external_tenant_id },
      ]),
    );
    const endpoints: TWebhookFanOutEndpoint[] = candidates.rows.map((row) => ({
      id: row.id,
      system: row.system,
      tenantId: row.tenant_id,
      partnerId: row.partner_id,
      environment: row.environment,
      eventTypes: row.event_types,
      status: row.status,
    }));
    const rows: Array<{
      id: string;
      eventId: string;
      endpointId: string;
      tenantId: string | null;
      environment: Environment;
      eventType: string;
      body: Buffer;
      active: boolean;
    }> = [];
    for (const event of events) {
      const account = event.tenantId === null ? null : (accounts.get(event.tenantId) ?? null);
      for (const { endpoint, body } of input.route(event, endpoints, account)) {
        rows.push({
          id: randomUUID(),
          eventId: event.id,
          endpointId: endpoint.id,
          // A Partner delivery is about one account: its tenant.
          tenantId: endpoint.system === 'partner' ? event.tenantId : endpoint.tenantId,
          environment: event.environment,
          eventType: event.type,
          body,
          active: endpoint.status === 'active',
        });
      }
    }
    let inserted: string[] = [];
    if (rows.length > 0) {
      // bytea[] through unnest: each body stays its exact bytes.
      const result = await sql.query<{ id: string }>(
        `INSERT INTO webhook_deliveries
           (id, event_id, endpoint_id, tenant_id, environment, event_type, status, body, next_attempt_at, created_at, updated_at)
         SELECT d.id, d.event_id, d.endpoint_id, d.tenant_id, d.environment, d.event_type, 'queued', d.body, $8, $8, $8
         FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::"Environment"[], $6::text[], $7::bytea[])
           AS d(id, event_id, endpoint_id, tenant_id, environment, event_type, body)
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING id`,
        [
          rows.map((row) => row.id),
          rows.map((row) => row.eventId),
          rows.map((row) => row.endpointId),
          rows.map((row) => row.tenantId),
          rows.map((row) => row.environment),
          rows.map((row) => row.eventType),
          rows.map((row) => row.body),
          input.now,
        ],
      );
      inserted = result.rows.map((row) => row.id);
    }
    await sql.query(
      prepared(`UPDATE webhook_events SET fanned_out_at = $2 WHERE id = ANY($1::uuid[])`, [
        events.map((event) => event.id),
        input.now,
      ]),
    );
    const insertedIds = new Set(inserted);
    const jobs = rows
      .filter((row) => row.active && insertedIds.has(row.id))
      .map((row) => webhookDeliveryJob(row.id));
    if (jobs.length > 0) await input.enqueue(jobs, { executor: jobExecutorOfSql(sql) });
    return { events: events.length, deliveries: inserted.length, jobs: jobs.length };
  });
}

/** A delivery claimed for one attempt, with what sending it needs. */
export type TClaimedWebhookDelivery = {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  system: WebhookSystem;
  url: string;
  body: Buffer;
  /** The number of this attempt (1-based). */
  attempt: number;
  maxAttempts: number;
  secretKeyId: string;
  encryptedSecret: Buffer;
  previousSecret: { keyId: string; sealed: Buffer } | null;
};

/** Why a delivery could not be claimed (nothing was changed except where said). */
export type TWebhookClaimRefusal =
  | 'not_found'
  | 'not_queued'
  | 'not_due'
  | 'endpoint_paused'
  /** The endpoint is retired: the queued delivery was failed (`endpoint_retired`) by this call. */
  | 'endpoint_retired'
  /** No attempt left (should not happen: replay raises the budget): failed by this call. */
  | 'attempts_exhausted';

type TClaimRow = {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  system: WebhookSystem;
  url: string;
  body: Buffer;
  attempts: number;
  max_attempts: number;
  secret_key_id: string;
  encrypted_secret: Buffer;
  previous_secret_key_id: string | null;
  previous_encrypted_secret: Buffer | null;
  previous_secret_expires_at: Date | null;
};

type TClaimInput = { deliveryId: string; now: Date; leaseUntil: Date };

/**
 * The claims of concurrent jobs as ONE statement. The same delivery twice in a batch is updated
 * once: one caller gets the row, the other finds it no longer queued.
 *
 * Only the primary key drives the scan (`id = ANY($1)`): the guards are written as expressions no
 * index matches, and the endpoint is checked by `EXISTS` rather than joined. Otherwise, with the
 * statistics of a table that just filled (a burst of events), the planner took the endpoint's
 * queued deliveries through their index, estimated at one row, and compared each with every input:
 * 10 ms for 32 claims over a backlog of 700 (seen with auto_explain under `bench/webhooks`).
 */
const coalescedClaims = ordinalBatchStatement<TClaimInput, TClaimRow>(
  `WITH claimed AS (
     UPDATE webhook_deliveries d
     SET status = 'running', attempts = d.attempts + 1, lease_until = i.lease_until, last_attempt_at = i.now, updated_at = i.now
     FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS i(id, now, lease_until, ord)
     WHERE d.id = ANY($1::uuid[]) AND d.id = i.id AND (d.status = 'queued') IS TRUE
       AND d.attempts < d.max_attempts AND d.next_attempt_at <= i.now + interval '1 second'
       AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.status = 'active')
     RETURNING i.ord, d.id, d.event_id, d.event_type, d.endpoint_id, d.body, d.attempts, d.max_attempts
   )
   SELECT c.*, e.system, e.url, e.secret_key_id, e.encrypted_secret, e.previous_secret_key_id,
     e.previous_encrypted_secret, e.previous_secret_expires_at
   FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id`,
  (batch) => [
    batch.map((claim) => claim.deliveryId),
    batch.map((claim) => claim.now),
    batch.map((claim) => claim.leaseUntil),
  ],
);

/**
 * Starts an attempt: a QUEUED, due delivery of an ACTIVE endpoint becomes `running` with one more
 * attempt and a lease until `leaseUntil`. One guarded statement: two jobs of one delivery never both
 * claim it. A delivery of a retired endpoint is failed here; one of a paused endpoint stays queued.
 */
export async function claimWebhookDelivery(
  database: TDatabase,
  input: { deliveryId: string; now: Date; leaseUntil: Date },
): Promise<{ claimed: TClaimedWebhookDelivery } | { refused: TWebhookClaimRefusal }> {
  // The claim is one statement (autocommit on the pool: no BEGIN/COMMIT round trips on the hot path),
  // shared by the claims arriving together; only a refusal opens a transaction, to tell why and
  // fail a retired endpoint's delivery.
  const row = await coalescedClaims(sqlPoolOf(database))(input);
  if (row !== undefined) {
    const overlapping =
      row.previous_secret_key_id !== null &&
      row.previous_encrypted_secret !== null &&
      row.previous_secret_expires_at !== null &&
      row.previous_secret_expires_at.getTime() > input.now.getTime();
    return {
      claimed: {
        id: row.id,
        eventId: row.event_id,
        eventType: row.event_type,
        endpointId: row.endpoint_id,
        system: row.system,
        url: row.url,
        body: row.body,
        attempt: row.attempts,
        maxAttempts: row.max_attempts,
        secretKeyId: row.secret_key_id,
        encryptedSecret: row.encrypted_secret,
        previousSecret: overlapping
          ? { keyId: row.previous_secret_key_id!, sealed: row.previous_encrypted_secret! }
          : null,
      },
    };
  }
  return inSqlTransaction(database, async (sql) => {
    const current = await sql.query<{
      status: string;
      attempts: number;
      max_attempts: number;
      next_attempt_at: Date;
      endpoint_status: WebhookEndpointStatus;
    }>(
      prepared(
        `SELECT d.status, d.attempts, d.max_attempts, d.next_attempt_at, e.status AS endpoint_status
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.id = $1 FOR UPDATE OF d`,
        [input.deliveryId],
      ),
    );
    const state = current.rows[0];
    if (state === undefined) return { refused: 'not_found' };
    if (state.status !== 'queued') return { refused: 'not_queued' };
    if (state.endpoint_status === 'retired' || state.attempts >= state.max_attempts) {
      const reason = state.endpoint_status === 'retired' ? 'endpoint_retired' : 'attempts_exhausted';
      await sql.query(
        prepared(
          `UPDATE webhook_deliveries SET status = 'failed', failure_reason = $2, completed_at = $3, updated_at = $3
           WHERE id = $1 AND status = 'queued'`,
          [input.deliveryId, reason, input.now],
        ),
      );
      return { refused: reason };
    }
    if (state.endpoint_status === 'paused') return { refused: 'endpoint_paused' };
    return { refused: 'not_due' };
  });
}

/** The outcome of one attempt, as the transport classified it. */
export type TWebhookAttemptRecord = {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  outcome: WebhookAttemptOutcome;
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
  /** For `retry`: when the next attempt may start; null = no attempt left (the delivery fails). */
  nextAttemptAt: Date | null;
  /** For a failure: why (`attempts_exhausted` when retries ran out, else the transport's code). */
  failureReason: string | null;
  now: Date;
};

/**
 * Records an attempt (append-only log) and moves its delivery on, in one transaction: succeeded;
 * back to queued with the retry's job (not before `nextAttemptAt`); or failed. The delivery is
 * moved only if it is still this attempt's (`running` with this attempt number): when the sweep
 * took it back from a holder it thought dead, the late result is logged and the delivery left alone.
 */
export async function recordWebhookAttempt(
  database: TDatabase,
  input: TWebhookAttemptRecord & { enqueue: TEnqueue },
): Promise<{ status: 'succeeded' | 'queued' | 'failed' | 'superseded' }> {
  const { moved } = await groupCommittedRecord(sqlPoolOf(database), input);
  return { status: moved ? nextDeliveryStatus(input) : 'superseded' };
}

function nextDeliveryStatus(input: TWebhookAttemptRecord): 'succeeded' | 'queued' | 'failed' {
  if (input.outcome === 'succeeded') return 'succeeded';
  return input.outcome === 'retry' && input.nextAttemptAt !== null ? 'queued' : 'failed';
}

/**
 * The attempts of a batch, logged, and their deliveries moved: ONE statement over arrays (one
 * plan for any batch). Answers the ordinals of the deliveries that moved.
 */
const RECORD_WEBHOOK_ATTEMPTS = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::"WebhookAttemptOutcome"[], $6::int[],
      $7::text[], $8::text[], $9::"WebhookDeliveryStatus"[], $10::timestamptz[], $11::timestamptz[], $12::text[])
      WITH ORDINALITY AS i(delivery_id, attempt, started_at, duration_ms, outcome, response_status, response_excerpt,
        error, next_status, now, next_attempt_at, failure_reason, ord)
  ), logged AS (
    INSERT INTO webhook_delivery_attempts
      (delivery_id, attempt, started_at, duration_ms, outcome, response_status, response_excerpt, error)
    SELECT delivery_id, attempt, started_at, duration_ms, outcome, response_status, response_excerpt, error FROM input
    ON CONFLICT (delivery_id, attempt) DO NOTHING
  ), moved AS (
    UPDATE webhook_deliveries d
    SET status = i.next_status, lease_until = NULL, updated_at = i.now,
        next_attempt_at = COALESCE(i.next_attempt_at, d.next_attempt_at),
        failure_reason = i.failure_reason,
        completed_at = CASE WHEN i.next_status = 'queued' THEN NULL ELSE i.now END
    FROM input i
    WHERE d.id = i.delivery_id AND d.status = 'running' AND d.attempts = i.attempt
    RETURNING i.ord
  )
  SELECT ARRAY(SELECT ord FROM moved) AS moved`;

type TAttemptToRecord = TWebhookAttemptRecord & { enqueue: TEnqueue };

/** Whether each attempt's delivery moved (false: superseded, the late result only logged). */
async function recordAttempts(
  sql: TSql,
  attempts: readonly TAttemptToRecord[],
): Promise<Array<{ moved: boolean }>> {
  const column = <T>(pick: (attempt: TAttemptToRecord) => T) => attempts.map(pick);
  const { rows } = await sql.query<{ moved: string[] }>(
    prepared(RECORD_WEBHOOK_ATTEMPTS, [
      column((attempt) => attempt.deliveryId),
      column((attempt) => attempt.attempt),
      column((attempt) => attempt.startedAt),
      column((attempt) => Math.max(0, Math.round(attempt.durationMs))),
      column((attempt) => attempt.outcome),
      column((attempt) => attempt.responseStatus),
      column((attempt) => attempt.responseExcerpt),
      column((attempt) => (attempt.error === null ? null : attempt.error.slice(0, 200))),
      column(nextDeliveryStatus),
      column((attempt) => attempt.now),
      column((attempt) => (nextDeliveryStatus(attempt) === 'queued' ? attempt.nextAttemptAt : null)),
      column((attempt) =>
        nextDeliveryStatus(attempt) === 'failed' ? (attempt.failureReason ?? 'failed') : null,
      ),
    ]),
  );
  const moved = new Set((rows[0]?.moved ?? []).map(Number));
  return attempts.map((_, index) => ({ moved: moved.has(index + 1) }));
}

/**
 * Records on the pool: one statement (autocommit) for the attempts arriving together; when some
 * go back to the queue, in a transaction with their retry jobs (enqueued only for the deliveries
 * that moved). Retried whole on a deadlock; a failed batch is retried one attempt at a time.
 */
const groupCommittedRecord = groupCommitted({
  writeMany: recordAttempts,
  keyOf: (attempt: TAttemptToRecord) => attempt.deliveryId,
  followUpOf: (attempt) =>
    nextDeliveryStatus(attempt) === 'queued'
      ? {
          enqueue: attempt.enqueue,
          jobs: [webhookDeliveryJob(attempt.deliveryId, secondsUntil(attempt.nextAttemptAt!, attempt.now))],
        }
      : undefined,
  retryConflicts: true,
});

/**
 * The safety net (every minute, and every few seconds from the worker's recovery loop):
 * - a `running` delivery whose lease lapsed (its worker died mid-attempt) goes back to `queued`,
 *   due now, its lost attempt logged (`worker_lost`) and not counted against the budget (one more
 *   attempt allowed when it was the last), so it is delivered at least once and never lost;
 * - a queued, overdue delivery of an active endpoint gets a job again (a duplicate is a no-op:
 *   the claim is guarded). `overdueSeconds` keeps it away from deliveries whose job is merely late.
 */
export async function sweepWebhookDeliveryRows(
  database: TDatabase,
  input: { now: Date; overdueSeconds: number; limit: number; enqueue: TEnqueue },
): Promise<{ recovered: string[]; requeued: string[] }> {
  return inSqlTransaction(database, async (sql) => {
    const lapsed = await sql.query<{ id: string; attempts: number; last_attempt_at: Date | null }>(
      prepared(
        `UPDATE webhook_deliveries d
         SET status = 'queued', lease_until = NULL, next_attempt_at = $1, updated_at = $1,
             max_attempts = GREATEST(d.max_attempts, d.attempts + 1)
         FROM (SELECT id FROM webhook_deliveries WHERE status = 'running' AND lease_until < $1
               ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED) lost
         WHERE d.id = lost.id
         RETURNING d.id, d.attempts, d.last_attempt_at`,
        [input.now, input.limit],
      ),
    );
    if (lapsed.rows.length > 0) {
      await sql.query(
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, error)
         SELECT l.id, l.attempt, COALESCE(l.started_at, $4), GREATEST(0, (EXTRACT(EPOCH FROM ($4 - COALESCE(l.started_at, $4))) * 1000)::int),
                'retry', 'worker_lost'
         FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS l(id, attempt, started_at)
         ON CONFLICT (delivery_id, attempt) DO NOTHING`,
        [
          lapsed.rows.map((row) => row.id),
          lapsed.rows.map((row) => row.attempts),
          lapsed.rows.map((row) => row.last_attempt_at),
          input.now,
        ],
      );
    }
    const overdue = await sql.query<{ id: string }>(
      prepared(
        `SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.status = 'queued' AND e.status = 'active'
           AND d.next_attempt_at < $1::timestamptz - make_interval(secs => $2)
         ORDER BY d.next_attempt_at LIMIT $3`,
        [input.now, input.overdueSeconds, input.limit],
      ),
    );
    const recovered = lapsed.rows.map((row) => row.id);
    const requeued = [...new Set([...recovered, ...overdue.rows.map((row) => row.id)])];
    if (requeued.length > 0)
      await input.enqueue(
        requeued.map((id) => webhookDeliveryJob(id)),
        { executor: jobExecutorOfSql(sql) },
      );
    return { recovered, requeued };
  });
}

/**
 * Records a `webhook.test` event (already fanned out) and its queued delivery to one endpoint.
 * Call it inside the caller's transaction, then enqueue `webhookDeliveryJob(deliveryId)` with
 * `jobExecutorOfSql(sql)` when the endpoint is active.
 */
export async function insertWebhookTestEvent(
  sql: TSql,
  input: {
    eventId: string;
    deliveryId: string;
    endpointId: string;
    tenantId: string | null;
    environment: Environment;
    createdAt: Date;
    body: Buffer;
    /** The test request's correlation id (its body's `correlationId`). */
    correlationId: string | null;
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_events (id, type, tenant_id, environment, data, created_at, fanned_out_at, correlation_id)
     VALUES ($1, 'webhook.test', $2, $3::"Environment", jsonb_build_object('endpointId', $4::text), $5, $5, $6)`,
    [
      input.eventId,
      input.tenantId,
      input.environment,
      input.endpointId,
      input.createdAt,
      input.correlationId,
    ],
  );
  await sql.query(
    `INSERT INTO webhook_deliveries
       (id, event_id, endpoint_id, tenant_id, environment, event_type, status, body, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::"Environment", 'webhook.test', 'queued', $6, $7, $7, $7)`,
    [
      input.deliveryId,
      input.eventId,
      input.endpointId,
      input.tenantId,
      input.environment,
      input.body,
      input.createdAt,
    ],
  );
}

/**
 * The jobs that continue an endpoint's queued deliveries (on reactivation): one per delivery, not
 * before its `next_attempt_at`. Enqueue them with `jobExecutorOfSql(sql)` in the resume's transaction.
 */
export async function queuedWebhookDeliveryJobs(
  sql: TSql,
  input: { endpointId: string; now: Date },
): Promise<TAnyJobRequest[]> {
  const rows = await sql.query<{ id: string; next_attempt_at: Date }>(
    `SELECT id, next_attempt_at FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'queued'`,
    [input.endpointId],
  );
  return rows.rows.map((row) => webhookDeliveryJob(row.id, secondsUntil(row.next_attempt_at, input.now)));
}

/** On retirement: the endpoint's queued deliveries become `failed` (`endpoint_retired`). Returns how many. */
export async function failQueuedWebhookDeliveries(
  sql: TSql,
  input: { endpointId: string; now: Date },
): Promise<number> {
  const updated = await sql.query(
    `UPDATE webhook_deliveries SET status = 'failed', failure_reason = 'endpoint_retired', completed_at = $2, updated_at = $2
     WHERE endpoint_id = $1 AND status = 'queued'`,
    [input.endpointId, input.now],
  );
  return updated.rowCount ?? 0;
}
