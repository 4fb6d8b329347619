/**
 * Webhook endpoints and their changes, for both owners: a direct account (`system = 'direct'`, a
 * tenant and one environment; changed by a person in the portal, with an audit entry) and a Partner
 * (`system = 'partner'`, every environment of its accounts; `partner-webhook-endpoints.ts` adds its
 * creation, listing and deliveries). Each change is ONE transaction on the endpoint's row locked,
 * guarded on its state (`WHERE status <> 'retired'`, no rotation in progress, a delivery still
 * `failed`), so two concurrent changes never both pass a check the other invalidates; the same
 * statement serves both owners (`TWebhookEndpointOwner`). Secrets arrive here sealed (the
 * certificate keyring) and never leave: no row returned, no audit entry carries them.
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

/** A Partner's endpoint (no tenant, no environment: every environment of its accounts). */
export type TPartnerWebhookEndpointRow = Omit<TWebhookEndpointRow, 'tenantId' | 'environment'> & {
  partnerId: string;
};

/** Whose endpoint a statement may touch: a direct account's (its tenant) or a Partner's. */
export type TWebhookEndpointOwner = { tenantId: string } | { partnerId: string };

/** The row an owner's statements return. */
export type TEndpointRowOf<TOwner extends TWebhookEndpointOwner> = TOwner extends { partnerId: string }
  ? TPartnerWebhookEndpointRow
  : TWebhookEndpointRow;

/** The columns of an endpoint under its row types' names (a direct row's `partnerId` is null, and a Partner's tenant and environment). */
export const ENDPOINT_COLUMNS = `id::text AS "id", tenant_id::text AS "tenantId", partner_id::text AS "partnerId",
  environment, name, url, COALESCE(event_types, '{}') AS "eventTypes", status::text AS "status",
  previous_secret_expires_at AS "previousSecretExpiresAt", created_at AS "createdAt", updated_at AS "updatedAt",
  retired_at AS "retiredAt"`;
const COLUMNS = ENDPOINT_COLUMNS;

/**
 * The condition on `webhook_endpoints` (as `alias`) that keeps an owner to its endpoints, its id
 * the statement's parameter `$placeholder`.
 */
function ownerCondition(
  owner: TWebhookEndpointOwner,
  placeholder = 2,
  alias = '',
): { condition: string; ownerId: string } {
  return 'partnerId' in owner
    ? {
        condition: `${alias}partner_id = $${placeholder}::uuid AND ${alias}system = 'partner'`,
        ownerId: owner.partnerId,
      }
    : {
        condition: `${alias}tenant_id = $${placeholder}::uuid AND ${alias}system = 'direct'`,
        ownerId: owner.tenantId,
      };
}

export type TEndpointAuditEntry = Pick<TAuditEntryInput, 'actorUserId' | 'action' | 'ip'> & {
  data?: Record<string, unknown>;
};

async function audit(
  sql: TSql,
  entry: TEndpointAuditEntry,
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

/** One endpoint of the owner (another owner's is null), its row locked with `forUpdate`. */
export async function selectWebhookEndpoint<TOwner extends TWebhookEndpointOwner>(
  sql: TSql,
  input: { owner: TOwner; endpointId: string; forUpdate?: boolean },
): Promise<TEndpointRowOf<TOwner> | null> {
  const { condition, ownerId } = ownerCondition(input.owner);
  const { rows } = await sql.query<TEndpointRowOf<TOwner>>(
    `SELECT ${COLUMNS} FROM webhook_endpoints
      WHERE id = $1::uuid AND ${condition}${input.forUpdate === true ? ' FOR UPDATE' : ''}`,
    [input.endpointId, ownerId],
  );
  return rows[0] ?? null;
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
  entry: TEndpointAuditEntry,
): Promise<TWebhookEndpointRow> {
  return inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<TWebhookEndpointRow>(
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
    const row = rows[0];
    if (row === undefined) throw new Error('the webhook endpoint was not inserted');
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
  const { rows } = await sqlPoolOf(database).query<TWebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints
      WHERE tenant_id = $1::uuid AND environment = $2::"Environment" AND system = 'direct'
      ORDER BY (status = 'retired'), created_at DESC, id DESC`,
    [input.tenantId, input.environment],
  );
  return rows;
}

/** One endpoint of the owner, or null (another owner's included). */
export async function findWebhookEndpointRow<TOwner extends TWebhookEndpointOwner>(
  database: TDatabase,
  input: { owner: TOwner; endpointId: string },
): Promise<TEndpointRowOf<TOwner> | null> {
  return selectWebhookEndpoint(sqlPoolOf(database), input);
}

export type TEndpointChanges = {
  name?: string;
  url?: string;
  eventTypes?: string[];
  status?: 'active' | 'paused';
};

/**
 * What a change of an endpoint came to: `not_found` (no such endpoint for the owner), `retired`
 * (nothing changed), or the row after the change (unchanged fields write nothing).
 */
export type TEndpointChangeResult<TRow = TWebhookEndpointRow> =
  { kind: 'not_found' } | { kind: 'retired'; row: TRow } | { kind: 'changed'; row: TRow; changed: string[] };

/** The audit entry of a direct account's change (a Partner's changes are its API's requests). */
function auditOf(owner: TWebhookEndpointOwner, entry: TEndpointAuditEntry | undefined) {
  return 'tenantId' in owner ? entry : undefined;
}

/**
 * Changes an endpoint that is not retired (a direct account's with its audit entry,
 * `data.before`/`data.after`: only the changed fields). A resumed endpoint's waiting deliveries
 * continue: their `webhook.deliver` jobs (not before each one's `next_attempt_at`) are enqueued in
 * the same transaction.
 */
export async function updateWebhookEndpointRow<TOwner extends TWebhookEndpointOwner>(
  database: TDatabase,
  input: { owner: TOwner; endpointId: string; changes: TEndpointChanges; at: Date; enqueue: TEnqueue },
  entry?: TEndpointAuditEntry,
): Promise<TEndpointChangeResult<TEndpointRowOf<TOwner>>> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectWebhookEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'retired', row: before };
    const { changes } = input;
    const changed = (['name', 'url', 'eventTypes', 'status'] as const).filter(
      (field) =>
        changes[field] !== undefined && JSON.stringify(changes[field]) !== JSON.stringify(before[field]),
    );
    if (changed.length === 0) return { kind: 'changed', row: before, changed: [] };
    const { condition, ownerId } = ownerCondition(input.owner);
    const { rows } = await sql.query<TEndpointRowOf<TOwner>>(
      `UPDATE webhook_endpoints SET
         name = COALESCE($3, name), url = COALESCE($4, url), event_types = COALESCE($5::text[], event_types),
         status = COALESCE($6::"WebhookEndpointStatus", status), updated_at = $7
       WHERE id = $1::uuid AND ${condition} AND status <> 'retired'
       RETURNING ${COLUMNS}`,
      [
        input.endpointId,
        ownerId,
        changes.name ?? null,
        changes.url ?? null,
        changes.eventTypes ?? null,
        changes.status ?? null,
        input.at,
      ],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('the webhook endpoint was not updated');
    if (before.status === 'paused' && row.status === 'active') {
      const jobs = await queuedWebhookDeliveryJobs(sql, { endpointId: row.id, now: input.at });
      if (jobs.length > 0) await input.enqueue(jobs, { executor: jobExecutorOfSql(sql) });
    }
    const audited = auditOf(input.owner, entry);
    if (audited !== undefined && 'tenantId' in row) {
      const pick = (source: TEndpointRowOf<TOwner>) =>
        Object.fromEntries(changed.map((field) => [field, source[field]]));
      await audit(sql, audited, {
        tenantId: row.tenantId,
        targetId: row.id,
        at: input.at,
        data: { environment: row.environment, before: pick(before), after: pick(row) },
      });
    }
    return { kind: 'changed', row, changed };
  });
}

/**
 * Retires an endpoint (final; history kept) and fails its queued deliveries
 * (`failure_reason` `endpoint_retired`), with a direct account's audit entry. Retiring a retired
 * endpoint changes nothing and writes no entry; null when the owner has no such endpoint.
 */
export async function retireWebhookEndpointRow<TOwner extends TWebhookEndpointOwner>(
  database: TDatabase,
  input: { owner: TOwner; endpointId: string; at: Date },
  entry?: TEndpointAuditEntry,
): Promise<{ row: TEndpointRowOf<TOwner>; failedDeliveries: number } | null> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectWebhookEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return null;
    if (before.status === 'retired') return { row: before, failedDeliveries: 0 };
    const { condition, ownerId } = ownerCondition(input.owner);
    const { rows } = await sql.query<TEndpointRowOf<TOwner>>(
      `UPDATE webhook_endpoints SET status = 'retired', retired_at = $3, updated_at = $3
        WHERE id = $1::uuid AND ${condition} RETURNING ${COLUMNS}`,
      [input.endpointId, ownerId, input.at],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('the webhook endpoint was not retired');
    const failedDeliveries = await failQueuedWebhookDeliveries(sql, {
      endpointId: input.endpointId,
      now: input.at,
    });
    const audited = auditOf(input.owner, entry);
    if (audited !== undefined && 'tenantId' in row)
      await audit(sql, audited, {
        tenantId: row.tenantId,
        targetId: row.id,
        at: input.at,
        data: { environment: row.environment, name: row.name, url: row.url, failedDeliveries },
      });
    return { row, failedDeliveries };
  });
}

export type TRotationResult<TRow = TWebhookEndpointRow> =
  | { kind: 'not_found' }
  | { kind: 'retired'; row: TRow }
  | { kind: 'in_progress'; row: TRow }
  | { kind: 'rotated'; row: TRow };

/**
 * Installs a new secret; the current one becomes the previous secret, still signing until
 * `at + overlapSeconds`. Refused while a previous secret is still valid (a rotation in progress).
 */
export async function rotateWebhookSecretRow<TOwner extends TWebhookEndpointOwner>(
  database: TDatabase,
  input: { owner: TOwner; endpointId: string; secret: TSealedSecret; overlapSeconds: number; at: Date },
  entry?: TEndpointAuditEntry,
): Promise<TRotationResult<TEndpointRowOf<TOwner>>> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectWebhookEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'retired', row: before };
    if (before.previousSecretExpiresAt !== null && before.previousSecretExpiresAt > input.at)
      return { kind: 'in_progress', row: before };
    const expiresAt = new Date(input.at.getTime() + input.overlapSeconds * 1000);
    const { condition, ownerId } = ownerCondition(input.owner);
    const { rows } = await sql.query<TEndpointRowOf<TOwner>>(
      `UPDATE webhook_endpoints SET
         previous_secret_key_id = secret_key_id, previous_encrypted_secret = encrypted_secret,
         previous_secret_expires_at = $5, secret_key_id = $3, encrypted_secret = $4, updated_at = $6
        WHERE id = $1::uuid AND ${condition} RETURNING ${COLUMNS}`,
      [input.endpointId, ownerId, input.secret.keyId, Buffer.from(input.secret.sealed), expiresAt, input.at],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('the webhook secret was not rotated');
    const audited = auditOf(input.owner, entry);
    if (audited !== undefined && 'tenantId' in row)
      await audit(sql, audited, {
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

const DELIVERY_SELECT = `SELECT ${DELIVERY_COLUMNS}, ${ATTEMPT_LOG}
  FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id`;

/**
 * The owner's deliveries (of one endpoint, or of all its endpoints), newest first (keyset on
 * `(created_at, id)` after `after`, the last row of the previous page), each with its attempts;
 * callers read `limit` + 1 rows to know whether more exist.
 */
export async function findWebhookDeliveryRows(
  database: TDatabase,
  input: {
    owner: TWebhookEndpointOwner;
    endpointId?: string;
    status?: TWebhookDeliveryStatus;
    after?: { createdAt: Date; id: string };
    limit: number;
  },
): Promise<TWebhookDeliveryRow[]> {
  const { condition, ownerId } = ownerCondition(input.owner, 2, 'e.');
  const { rows } = await sqlPoolOf(database).query<TDeliveryRecord>(
    `${DELIVERY_SELECT}
      WHERE ($1::uuid IS NULL OR d.endpoint_id = $1::uuid) AND ${condition}
        AND ($3::"WebhookDeliveryStatus" IS NULL OR d.status = $3::"WebhookDeliveryStatus")
        AND ($4::timestamptz IS NULL OR (d.created_at, d.id) < ($4::timestamptz, $5::uuid))
      ORDER BY d.created_at DESC, d.id DESC LIMIT $6`,
    [
      input.endpointId ?? null,
      ownerId,
      input.status ?? null,
      input.after?.createdAt ?? null,
      input.after?.id ?? null,
      input.limit,
    ],
  );
  return rows.map(deliveryOf);
}

/** One delivery of the owner's endpoints, or null (another owner's included). */
export async function findWebhookDeliveryRow(
  database: TDatabase,
  input: { owner: TWebhookEndpointOwner; deliveryId: string },
): Promise<TWebhookDeliveryRow | null> {
  const { condition, ownerId } = ownerCondition(input.owner, 2, 'e.');
  const { rows } = await sqlPoolOf(database).query<TDeliveryRecord>(
    `${DELIVERY_SELECT} WHERE d.id = $1::uuid AND ${condition}`,
    [input.deliveryId, ownerId],
  );
  const row = rows[0];
  return row === undefined ? null : deliveryOf(row);
}

export type TReplayResult =
  | { kind: 'not_found' }
  | { kind: 'not_allowed'; status: TWebhookDeliveryStatus; endpointStatus: TWebhookEndpointStatus }
  | { kind: 'replayed'; row: TWebhookDeliveryRow };

/**
 * Puts a `failed` delivery of an ACTIVE endpoint of the owner back in the queue, due now, keeping
 * its event and attempt counter: attempts left stay as they were; when none is left, one more is
 * allowed (`max_attempts = attempts + 1`). Its `webhook.deliver` job is enqueued in the same
 * transaction, with a direct account's audit entry. Anything else is `not_allowed`.
 */
export async function replayWebhookDeliveryRow(
  database: TDatabase,
  input: { owner: TWebhookEndpointOwner; deliveryId: string; at: Date; enqueue: TEnqueue },
  entry?: TEndpointAuditEntry,
): Promise<TReplayResult> {
  return inSqlTransaction(database, async (sql) => {
    const { condition, ownerId } = ownerCondition(input.owner, 2, 'e.');
    const { rows: current } = await sql.query<{
      id: string;
      endpoint_id: string;
      status: TWebhookDeliveryStatus;
      endpoint_status: TWebhookEndpointStatus;
    }>(
      `SELECT d.id::text, d.endpoint_id::text, d.status, e.status AS endpoint_status
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = $1::uuid AND ${condition}
        FOR UPDATE OF d, e`,
      [input.deliveryId, ownerId],
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
    const audited = auditOf(input.owner, entry);
    const row = await enqueueRequeue(
      sql,
      {
        ...input,
        audit:
          audited === undefined || !('tenantId' in input.owner)
            ? undefined
            : { entry: audited, tenantId: input.owner.tenantId },
      },
      found.id,
      (replayed) => ({ maxAttempts: replayed.maxAttempts }),
    );
    return { kind: 'replayed', row };
  });
}

/**
 * The common end of a replay and a "retry now", inside their transaction: the delivery's
 * `webhook.deliver` job, the delivery read back and a direct account's audit entry (`more`: what
 * each adds to it).
 */
async function enqueueRequeue(
  sql: TSql,
  input: { at: Date; enqueue: TEnqueue; audit: { entry: TEndpointAuditEntry; tenantId: string } | undefined },
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
  if (input.audit !== undefined)
    await audit(sql, input.audit.entry, {
      tenantId: input.audit.tenantId,
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
  entry: TEndpointAuditEntry,
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
    const row = await enqueueRequeue(
      sql,
      { ...input, audit: { entry, tenantId: input.tenantId } },
      input.deliveryId,
      () => ({ retryNow: true }),
    );
    return { kind: 'retried', row };
  });
}

export type TTestResult<TRow = TWebhookEndpointRow> =
  | { kind: 'not_found' }
  | { kind: 'retired' }
  | { kind: 'queued'; endpoint: TRow; eventId: string; deliveryId: string };

/**
 * Queues a `webhook.test` event for ONE endpoint of the owner that is not retired: the event
 * (already fanned out) about `subjectOf(endpoint)` (a direct endpoint's own tenant and
 * environment; the Partner's account named in the request) and its queued delivery with the body
 * `bodyOf` builds, its `webhook.deliver` job and a direct account's audit entry, in one
 * transaction. A paused endpoint keeps it waiting like any delivery.
 */
export async function insertWebhookTest<TOwner extends TWebhookEndpointOwner>(
  database: TDatabase,
  input: {
    owner: TOwner;
    endpointId: string;
    eventId: string;
    deliveryId: string;
    at: Date;
    /** The test request's (the outbox row's). */
    correlationId: string | null;
    subjectOf: (endpoint: TEndpointRowOf<TOwner>) => { tenantId: string; environment: Environment };
    bodyOf: (endpoint: TEndpointRowOf<TOwner>) => Buffer;
    enqueue: TEnqueue;
  },
  entry?: TEndpointAuditEntry,
): Promise<TTestResult<TEndpointRowOf<TOwner>>> {
  return inSqlTransaction(database, async (sql) => {
    const endpoint = await selectWebhookEndpoint(sql, { ...input, forUpdate: true });
    if (endpoint === null) return { kind: 'not_found' };
    if (endpoint.status === 'retired') return { kind: 'retired' };
    const subject = input.subjectOf(endpoint);
    await insertWebhookTestEvent(sql, {
      eventId: input.eventId,
      deliveryId: input.deliveryId,
      endpointId: endpoint.id,
      tenantId: subject.tenantId,
      environment: subject.environment,
      createdAt: input.at,
      body: input.bodyOf(endpoint),
      correlationId: input.correlationId,
    });
    // A paused endpoint's test waits; its resume enqueues the job.
    if (endpoint.status === 'active')
      await input.enqueue([webhookDeliveryJob(input.deliveryId)], { executor: jobExecutorOfSql(sql) });
    const audited = auditOf(input.owner, entry);
    if (audited !== undefined)
      await audit(sql, audited, {
        tenantId: subject.tenantId,
        targetId: endpoint.id,
        at: input.at,
        data: { environment: subject.environment, eventId: input.eventId, deliveryId: input.deliveryId },
      });
    return { kind: 'queued', endpoint, eventId: input.eventId, deliveryId: input.deliveryId };
  });
}
