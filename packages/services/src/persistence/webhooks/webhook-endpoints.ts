/**
 * Direct-account webhook endpoints changed by a person (the portal): each change and its audit
 * entry in ONE transaction, guarded on the row's state (`WHERE status <> 'retired'`, no rotation in
 * progress, a delivery still `failed`), so two concurrent changes never both pass a check the other
 * invalidates. Secrets arrive here sealed (the certificate keyring) and never leave this file: no
 * row returned, no audit entry carries them.
 */
import {
  inSqlTransaction,
  jobExecutorOfSql,
  sqlPoolOf,
  type Environment,
  type TDatabase,
  type TEnqueue,
  type TSql,
} from '@ecf/db';
import { insertAuditEntry, type TAuditEntryInput } from '../audit/portal-audit.ts';
import {
  failQueuedWebhookDeliveries,
  insertWebhookTestEvent,
  queuedWebhookDeliveryJobs,
  webhookDeliveryJob,
} from './webhooks.ts';

export type TWebhookEndpointStatus = 'active' | 'paused' | 'retired';
export type TWebhookDeliveryStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** An endpoint as its owners may see it (never a secret). */
export type TWebhookEndpointRow = {
  id: string;
  tenantId: string;
  environment: Environment;
  name: string;
  url: string;
  eventTypes: string[];
  status: TWebhookEndpointStatus;
  /** While a rotation's overlap lasts, the previous secret still signs (a second `v1`) until then. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  retiredAt: Date | null;
};

/** A secret sealed with the certificate keyring (associated data `webhook-secret:<endpoint id>`). */
export type TSealedSecret = { keyId: string; sealed: Uint8Array };

type TEndpointRecord = {
  id: string;
  tenant_id: string;
  environment: Environment;
  name: string;
  url: string;
  event_types: string[] | null;
  status: TWebhookEndpointStatus;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  retired_at: Date | null;
};

const COLUMNS = `id::text, tenant_id::text, environment, name, url, event_types, status, previous_secret_expires_at,
  created_at, updated_at, retired_at`;

function endpointOf(record: TEndpointRecord): TWebhookEndpointRow {
  return {
    id: record.id,
    tenantId: record.tenant_id,
    environment: record.environment,
    name: record.name,
    url: record.url,
    eventTypes: record.event_types ?? [],
    status: record.status,
    previousSecretExpiresAt: record.previous_secret_expires_at,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    retiredAt: record.retired_at,
  };
}

type TEndpointAudit = Pick<TAuditEntryInput, 'actorUserId' | 'action' | 'ip'> & {
  data?: Record<string, unknown>;
};

async function audit(
  sql: TSql,
  entry: TEndpointAudit,
  input: { tenantId: string; targetType?: string; targetId: string; at: Date; data: Record<string, unknown> },
): Promise<void> {
  await insertAuditEntry(sql, {
    actorUserId: entry.actorUserId,
    action: entry.action,
    ip: entry.ip ?? null,
    tenantId: input.tenantId,
    targetType: input.targetType ?? 'webhook_endpoint',
    targetId: input.targetId,
    data: { ...entry.data, ...input.data },
    at: input.at,
  });
}

async function selectEndpoint(
  sql: TSql,
  input: { tenantId: string; endpointId: string; forUpdate?: boolean },
): Promise<TWebhookEndpointRow | null> {
  const { rows } = await sql.query<TEndpointRecord>(
    `SELECT ${COLUMNS} FROM webhook_endpoints
      WHERE id = $1::uuid AND tenant_id = $2::uuid AND system = 'direct'${input.forUpdate === true ? ' FOR UPDATE' : ''}`,
    [input.endpointId, input.tenantId],
  );
  const found = rows[0];
  return found === undefined ? null : endpointOf(found);
}

/** Inserts a direct endpoint (its id chosen by the caller: the sealed secret is bound to it) with its audit entry. */
export async function insertAuditedWebhookEndpoint(
  database: TDatabase,
  input: {
    id: string;
    tenantId: string;
    environment: Environment;
    name: string;
    url: string;
    eventTypes: string[];
    secret: TSealedSecret;
    at: Date;
    /** A TesteCF test inbox: its row (the SHA-256 of the URL's token) commits with the endpoint. */
    inbox?: { id: string; tokenSha256: Buffer };
  },
  entry: TEndpointAudit,
): Promise<TWebhookEndpointRow> {
  return inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<TEndpointRecord>(
      `INSERT INTO webhook_endpoints (id, system, tenant_id, environment, name, url, event_types, status,
         secret_key_id, encrypted_secret, created_at, updated_at)
       VALUES ($1::uuid, 'direct', $2::uuid, $3::"Environment", $4, $5, $6::text[], 'active', $7, $8, $9, $9)
       RETURNING ${COLUMNS}`,
      [
        input.id,
        input.tenantId,
        input.environment,
        input.name,
        input.url,
        input.eventTypes,
        input.secret.keyId,
        Buffer.from(input.secret.sealed),
        input.at,
      ],
    );
    const inserted = rows[0];
    if (inserted === undefined) throw new Error('the webhook endpoint was not inserted');
    const row = endpointOf(inserted);
    if (input.inbox !== undefined)
      await sql.query(
        `INSERT INTO webhook_inboxes (id, endpoint_id, tenant_id, token_sha256, created_at)
         VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5)`,
        [input.inbox.id, row.id, row.tenantId, input.inbox.tokenSha256, input.at],
      );
    await audit(sql, entry, {
      tenantId: row.tenantId,
      targetId: row.id,
      at: input.at,
      data: {
        environment: row.environment,
        name: row.name,
        url: row.url,
        eventTypes: row.eventTypes,
        ...(input.inbox === undefined ? {} : { testInbox: true }),
      },
    });
    return row;
  });
}

/** A tenant's direct endpoints of one environment (retired ones included, last), newest first. */
export async function findWebhookEndpointRows(
  database: TDatabase,
  input: { tenantId: string; environment: Environment },
): Promise<TWebhookEndpointRow[]> {
  const { rows } = await sqlPoolOf(database).query<TEndpointRecord>(
    `SELECT ${COLUMNS} FROM webhook_endpoints
      WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND system = 'direct'
      ORDER BY (status = 'retired'), created_at DESC, id DESC`,
    [input.tenantId, input.environment],
  );
  return rows.map(endpointOf);
}

/** One direct endpoint of the tenant, or null (another tenant's included). */
export async function findWebhookEndpointRow(
  database: TDatabase,
  input: { tenantId: string; endpointId: string },
): Promise<TWebhookEndpointRow | null> {
  return selectEndpoint(sqlPoolOf(database), input);
}

export type TEndpointChanges = {
  name?: string;
  url?: string;
  eventTypes?: string[];
  status?: 'active' | 'paused';
};

/**
 * What a change of an endpoint came to: `not_found` (no such endpoint for the tenant), `retired`
 * (nothing changed), or the row after the change (unchanged fields write no audit entry).
 */
export type TEndpointChangeResult =
  | { kind: 'not_found' }
  | { kind: 'retired'; row: TWebhookEndpointRow }
  | { kind: 'changed'; row: TWebhookEndpointRow; changed: string[] };

/**
 * Changes an endpoint that is not retired, with its audit entry (`data.before`/`data.after`: only
 * the changed fields). A resumed endpoint's waiting deliveries continue: their `webhook.deliver`
 * jobs (not before each one's `next_attempt_at`) are enqueued in the same transaction.
 */
export async function updateAuditedWebhookEndpoint(
  database: TDatabase,
  input: {
    tenantId: string;
    endpointId: string;
    changes: TEndpointChanges;
    at: Date;
    enqueue: TEnqueue;
  },
  entry: TEndpointAudit,
): Promise<TEndpointChangeResult> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'retired', row: before };
    const { changes } = input;
    const changed = (['name', 'url', 'eventTypes', 'status'] as const).filter(
      (field) =>
        changes[field] !== undefined && JSON.stringify(changes[field]) !== JSON.stringify(before[field]),
    );
    if (changed.length === 0) return { kind: 'changed', row: before, changed: [] };
    const { rows } = await sql.query<TEndpointRecord>(
      `UPDATE webhook_endpoints SET
         name = COALESCE($3, name), url = COALESCE($4, url), event_types = COALESCE($5::text[], event_types),
         status = COALESCE($6::"WebhookEndpointStatus", status), updated_at = $7
       WHERE id = $1::uuid AND tenant_id = $2::uuid AND status <> 'retired'
       RETURNING ${COLUMNS}`,
      [
        input.endpointId,
        input.tenantId,
        changes.name ?? null,
        changes.url ?? null,
        changes.eventTypes ?? null,
        changes.status ?? null,
        input.at,
      ],
    );
    const updated = rows[0];
    if (updated === undefined) throw new Error('the webhook endpoint was not updated');
    const row = endpointOf(updated);
    if (before.status === 'paused' && row.status === 'active') {
      const jobs = await queuedWebhookDeliveryJobs(sql, { endpointId: row.id, now: input.at });
      if (jobs.length > 0) await input.enqueue(jobs, { executor: jobExecutorOfSql(sql) });
    }
    const pick = (source: TWebhookEndpointRow) =>
      Object.fromEntries(changed.map((field) => [field, source[field]]));
    await audit(sql, entry, {
      tenantId: row.tenantId,
      targetId: row.id,
      at: input.at,
      data: { environment: row.environment, before: pick(before), after: pick(row) },
    });
    return { kind: 'changed', row, changed };
  });
}

/**
 * Retires an endpoint (final; history kept) and fails its queued deliveries
 * (`failure_reason` `endpoint_retired`), with the audit entry. Retiring a retired endpoint changes
 * nothing and writes no entry.
 */
export async function retireAuditedWebhookEndpoint(
  database: TDatabase,
  input: { tenantId: string; endpointId: string; at: Date },
  entry: TEndpointAudit,
): Promise<{ row: TWebhookEndpointRow; failedDeliveries: number } | null> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return null;
    if (before.status === 'retired') return { row: before, failedDeliveries: 0 };
    const { rows } = await sql.query<TEndpointRecord>(
      `UPDATE webhook_endpoints SET status = 'retired', retired_at = $3, updated_at = $3
        WHERE id = $1::uuid AND tenant_id = $2::uuid RETURNING ${COLUMNS}`,
      [input.endpointId, input.tenantId, input.at],
    );
    const retired = rows[0];
    if (retired === undefined) throw new Error('the webhook endpoint was not retired');
    const failedDeliveries = await failQueuedWebhookDeliveries(sql, {
      endpointId: input.endpointId,
      now: input.at,
    });
    const row = endpointOf(retired);
    await audit(sql, entry, {
      tenantId: row.tenantId,
      targetId: row.id,
      at: input.at,
      data: { environment: row.environment, name: row.name, url: row.url, failedDeliveries },
    });
    return { row, failedDeliveries };
  });
}

export type TRotationResult =
  | { kind: 'not_found' }
  | { kind: 'retired'; row: TWebhookEndpointRow }
  | { kind: 'in_progress'; row: TWebhookEndpointRow }
  | { kind: 'rotated'; row: TWebhookEndpointRow };

/**
 * Installs a new secret; the current one becomes the previous secret, still signing until
 * `at + overlapSeconds`. Refused while a previous secret is still valid (a rotation in progress).
 */
export async function rotateAuditedWebhookSecret(
  database: TDatabase,
  input: { tenantId: string; endpointId: string; secret: TSealedSecret; overlapSeconds: number; at: Date },
  entry: TEndpointAudit,
): Promise<TRotationResult> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'retired', row: before };
    if (before.previousSecretExpiresAt !== null && before.previousSecretExpiresAt > input.at)
      return { kind: 'in_progress', row: before };
    const expiresAt = new Date(input.at.getTime() + input.overlapSeconds * 1000);
    const { rows } = await sql.query<TEndpointRecord>(
      `UPDATE webhook_endpoints SET
         previous_secret_key_id = secret_key_id, previous_encrypted_secret = encrypted_secret,
         previous_secret_expires_at = $5, secret_key_id = $3, encrypted_secret = $4, updated_at = $6
        WHERE id = $1::uuid AND tenant_id = $2::uuid RETURNING ${COLUMNS}`,
      [
        input.endpointId,
        input.tenantId,
        input.secret.keyId,
        Buffer.from(input.secret.sealed),
        expiresAt,
        input.at,
      ],
    );
    const rotated = rows[0];
    if (rotated === undefined) throw new Error('the webhook secret was not rotated');
    const row = endpointOf(rotated);
    await audit(sql, entry, {
      tenantId: row.tenantId,
      targetId: row.id,
      at: input.at,
      data: {
        environment: row.environment,
        overlapSeconds: input.overlapSeconds,
        previousSecretExpiresAt: expiresAt.toISOString(),
      },
    });
    return { kind: 'rotated', row };
  });
}

/** One attempt of a delivery, as the log shows it. */
export type TWebhookAttemptRow = {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  outcome: 'succeeded' | 'retry' | 'failed';
  responseStatus: number | null;
  responseExcerpt: string | null;
  error: string | null;
};

/** A delivery with its attempts (never its body's secrets: the body is the payload, not shown here). */
export type TWebhookDeliveryRow = {
  id: string;
  eventId: string;
  endpointId: string;
  eventType: string;
  status: TWebhookDeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: Date;
  lastAttemptAt: Date | null;
  failureReason: string | null;
  replayCount: number;
  createdAt: Date;
  completedAt: Date | null;
  attemptLog: TWebhookAttemptRow[];
};

type TDeliveryRecord = {
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  status: TWebhookDeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  failure_reason: string | null;
  replay_count: number;
  created_at: Date;
  completed_at: Date | null;
  attempt_log: Array<{
    attempt: number;
    started_at: string;
    duration_ms: number;
    outcome: TWebhookAttemptRow['outcome'];
    response_status: number | null;
    response_excerpt: string | null;
    error: string | null;
  }> | null;
};

const DELIVERY_COLUMNS = `d.id::text, d.event_id::text, d.endpoint_id::text, d.event_type, d.status, d.attempts,
  d.max_attempts, d.next_attempt_at, d.last_attempt_at, d.failure_reason, d.replay_count, d.created_at, d.completed_at`;

const ATTEMPT_LOG = `(SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at,
    'duration_ms', a.duration_ms, 'outcome', a.outcome, 'response_status', a.response_status,
    'response_excerpt', a.response_excerpt, 'error', a.error) ORDER BY a.attempt)
   FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS attempt_log`;

function deliveryOf(record: TDeliveryRecord): TWebhookDeliveryRow {
  return {
    id: record.id,
    eventId: record.event_id,
    endpointId: record.endpoint_id,
    eventType: record.event_type,
    status: record.status,
    attempts: record.attempts,
    maxAttempts: record.max_attempts,
    nextAttemptAt: record.next_attempt_at,
    lastAttemptAt: record.last_attempt_at,
    failureReason: record.failure_reason,
    replayCount: record.replay_count,
    createdAt: record.created_at,
    completedAt: record.completed_at,
    attemptLog: (record.attempt_log ?? []).map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: new Date(attempt.started_at),
      durationMs: attempt.duration_ms,
      outcome: attempt.outcome,
      responseStatus: attempt.response_status,
      responseExcerpt: attempt.response_excerpt,
      error: attempt.error,
    })),
  };
}

/**
 * An endpoint's deliveries, newest first (keyset on `(created_at, id)` after `after`, the last row of
 * the previous page), each with its attempts; `limit` + 1 rows are read so the caller knows whether
 * more exist.
 */
export async function findWebhookDeliveryRows(
  database: TDatabase,
  input: {
    tenantId: string;
    endpointId: string;
    status?: TWebhookDeliveryStatus;
    after?: { createdAt: Date; id: string };
    limit: number;
  },
): Promise<TWebhookDeliveryRow[]> {
  const { rows } = await sqlPoolOf(database).query<TDeliveryRecord>(
    `SELECT ${DELIVERY_COLUMNS}, ${ATTEMPT_LOG}
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.endpoint_id = $1::uuid AND e.tenant_id = $2::uuid AND e.system = 'direct'
        AND ($3::"WebhookDeliveryStatus" IS NULL OR d.status = $3::"WebhookDeliveryStatus")
        AND ($4::timestamptz IS NULL OR (d.created_at, d.id) < ($4::timestamptz, $5::uuid))
      ORDER BY d.created_at DESC, d.id DESC LIMIT $6`,
    [
      input.endpointId,
      input.tenantId,
      input.status ?? null,
      input.after?.createdAt ?? null,
      input.after?.id ?? null,
      input.limit,
    ],
  );
  return rows.map(deliveryOf);
}

export type TReplayResult =
  | { kind: 'not_found' }
  | { kind: 'not_allowed'; status: TWebhookDeliveryStatus; endpointStatus: TWebhookEndpointStatus }
  | { kind: 'replayed'; row: TWebhookDeliveryRow };

/**
 * Puts a `failed` delivery of an ACTIVE endpoint back in the queue, due now, keeping its event and
 * attempt counter: attempts left stay as they were; when none is left, one more is allowed
 * (`max_attempts = attempts + 1`). Its `webhook.deliver` job is enqueued in the same transaction,
 * with the audit entry. Anything else is `not_allowed`.
 */
export async function replayAuditedWebhookDelivery(
  database: TDatabase,
  input: {
    tenantId: string;
    deliveryId: string;
    at: Date;
    enqueue: TEnqueue;
  },
  entry: TEndpointAudit,
): Promise<TReplayResult> {
  return inSqlTransaction(database, async (sql) => {
    const { rows: current } = await sql.query<{
      id: string;
      endpoint_id: string;
      status: TWebhookDeliveryStatus;
      endpoint_status: TWebhookEndpointStatus;
    }>(
      `SELECT d.id::text, d.endpoint_id::text, d.status, e.status AS endpoint_status
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = $1::uuid AND e.tenant_id = $2::uuid AND e.system = 'direct'
        FOR UPDATE OF d, e`,
      [input.deliveryId, input.tenantId],
    );
    const found = current[0];
    if (found === undefined) return { kind: 'not_found' };
    if (found.status !== 'failed' || found.endpoint_status !== 'active')
      return { kind: 'not_allowed', status: found.status, endpointStatus: found.endpoint_status };
    await sql.query(
      `UPDATE webhook_deliveries SET status = 'queued', max_attempts = GREATEST(max_attempts, attempts + 1),
         next_attempt_at = $2, failure_reason = NULL, completed_at = NULL, lease_until = NULL,
         replay_count = replay_count + 1, updated_at = $2
        WHERE id = $1::uuid AND status = 'failed'`,
      [found.id, input.at],
    );
    const row = await enqueueAuditedRequeue(sql, input, entry, found.id, (replayed) => ({
      maxAttempts: replayed.maxAttempts,
    }));
    return { kind: 'replayed', row };
  });
}

/**
 * The common end of a replay and a "retry now", inside their transaction: the delivery's
 * `webhook.deliver` job, the delivery read back and the audit entry (`more`: what each adds to it).
 */
async function enqueueAuditedRequeue(
  sql: TSql,
  input: { tenantId: string; at: Date; enqueue: TEnqueue },
  entry: TEndpointAudit,
  deliveryId: string,
  more: (row: TWebhookDeliveryRow) => Record<string, unknown>,
): Promise<TWebhookDeliveryRow> {
  await input.enqueue([webhookDeliveryJob(deliveryId)], { executor: jobExecutorOfSql(sql) });
  const { rows } = await sql.query<TDeliveryRecord>(
    `SELECT ${DELIVERY_COLUMNS}, ${ATTEMPT_LOG} FROM webhook_deliveries d WHERE d.id = $1::uuid`,
    [deliveryId],
  );
  const requeued = rows[0];
  if (requeued === undefined) throw new Error('the requeued delivery vanished');
  const row = deliveryOf(requeued);
  await audit(sql, entry, {
    tenantId: input.tenantId,
    targetType: 'webhook_delivery',
    targetId: row.id,
    at: input.at,
    data: {
      endpointId: row.endpointId,
      eventId: row.eventId,
      eventType: row.eventType,
      attempts: row.attempts,
      ...more(row),
    },
  });
  return row;
}

export type TRetryNowResult =
  | { kind: 'not_found' }
  | { kind: 'not_allowed'; status: TWebhookDeliveryStatus; endpointStatus: TWebhookEndpointStatus }
  | { kind: 'retried'; row: TWebhookDeliveryRow };

/**
 * "Reintentar ahora": a `queued` delivery of an ACTIVE endpoint waiting for its next attempt becomes
 * due now, with a `webhook.deliver` job and the audit entry in the same transaction. The change is
 * ONE conditional update (`WHERE status = 'queued'`): a delivery a worker has claimed meanwhile
 * (`running`) is not touched, and the job it adds can only claim the delivery while it is still
 * queued and due (the claim is guarded the same way), so an attempt in flight is never doubled. The
 * job the backoff scheduled stays: when it fires the delivery is no longer due, or already done.
 */
export async function retryAuditedWebhookDeliveryNow(
  database: TDatabase,
  input: { tenantId: string; deliveryId: string; at: Date; enqueue: TEnqueue },
  entry: TEndpointAudit,
): Promise<TRetryNowResult> {
  return inSqlTransaction(database, async (sql) => {
    const { rows: changed } = await sql.query<{ id: string }>(
      `UPDATE webhook_deliveries d SET next_attempt_at = $3, updated_at = $3
         FROM webhook_endpoints e
        WHERE d.id = $1::uuid AND e.id = d.endpoint_id AND e.tenant_id = $2::uuid AND e.system = 'direct'
          AND d.status = 'queued' AND e.status = 'active' AND d.attempts < d.max_attempts
        RETURNING d.id::text`,
      [input.deliveryId, input.tenantId, input.at],
    );
    if (changed[0] === undefined) {
      const { rows: current } = await sql.query<{
        status: TWebhookDeliveryStatus;
        endpoint_status: TWebhookEndpointStatus;
      }>(
        `SELECT d.status, e.status AS endpoint_status
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.id = $1::uuid AND e.tenant_id = $2::uuid AND e.system = 'direct'`,
        [input.deliveryId, input.tenantId],
      );
      const found = current[0];
      if (found === undefined) return { kind: 'not_found' };
      return { kind: 'not_allowed', status: found.status, endpointStatus: found.endpoint_status };
    }
    const row = await enqueueAuditedRequeue(sql, input, entry, input.deliveryId, () => ({ retryNow: true }));
    return { kind: 'retried', row };
  });
}

export type TTestResult =
  | { kind: 'not_found' }
  | { kind: 'retired' }
  | { kind: 'queued'; endpoint: TWebhookEndpointRow; eventId: string; deliveryId: string };

/**
 * Queues a `webhook.test` event for ONE endpoint that is not retired: the event (already fanned
 * out) and its queued delivery with the body `bodyOf` builds, its `webhook.deliver` job and the
 * audit entry, in one transaction. A paused endpoint keeps it waiting like any delivery.
 */
export async function insertAuditedWebhookTest(
  database: TDatabase,
  input: {
    tenantId: string;
    endpointId: string;
    eventId: string;
    deliveryId: string;
    at: Date;
    /** The test request's (the outbox row's). */
    correlationId: string | null;
    bodyOf: (endpoint: TWebhookEndpointRow) => Buffer;
    enqueue: TEnqueue;
  },
  entry: TEndpointAudit,
): Promise<TTestResult> {
  return inSqlTransaction(database, async (sql) => {
    const endpoint = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (endpoint === null) return { kind: 'not_found' };
    if (endpoint.status === 'retired') return { kind: 'retired' };
    await insertWebhookTestEvent(sql, {
      eventId: input.eventId,
      deliveryId: input.deliveryId,
      endpointId: endpoint.id,
      tenantId: endpoint.tenantId,
      environment: endpoint.environment,
      createdAt: input.at,
      body: input.bodyOf(endpoint),
      correlationId: input.correlationId,
    });
    // A paused endpoint's test waits; its resume enqueues the job.
    if (endpoint.status === 'active')
      await input.enqueue([webhookDeliveryJob(input.deliveryId)], { executor: jobExecutorOfSql(sql) });
    await audit(sql, entry, {
      tenantId: endpoint.tenantId,
      targetId: endpoint.id,
      at: input.at,
      data: { environment: endpoint.environment, eventId: input.eventId, deliveryId: input.deliveryId },
    });
    return { kind: 'queued', endpoint, eventId: input.eventId, deliveryId: input.deliveryId };
  });
}
