/**
 * Partner webhook endpoints (`system = 'partner'`, owned by a Partner, every environment): their
 * lifecycle through the Partner API, on the same tables and engine as the direct endpoints
 * (`webhook-endpoints.ts`, `webhooks.ts`: fan-out, claim, attempts, sweep). Each change is one
 * transaction on the endpoint's row locked; secrets arrive sealed and never leave this file.
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
import type {
  TEndpointChanges,
  TSealedSecret,
  TWebhookDeliveryRow,
  TWebhookDeliveryStatus,
} from './webhook-endpoints.ts';
import {
  failQueuedWebhookDeliveries,
  insertWebhookTestEvent,
  queuedWebhookDeliveryJobs,
  webhookDeliveryJob,
} from './webhooks.ts';

export type TPartnerWebhookEndpointRow = {
  id: string;
  partnerId: string;
  name: string;
  url: string;
  eventTypes: string[];
  status: 'active' | 'paused' | 'retired';
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  retiredAt: Date | null;
};

const COLUMNS = `id::text AS "id", partner_id::text AS "partnerId", name, url, COALESCE(event_types, '{}') AS "eventTypes",
  status::text AS "status", previous_secret_expires_at AS "previousSecretExpiresAt", created_at AS "createdAt",
  updated_at AS "updatedAt", retired_at AS "retiredAt"`;

async function selectEndpoint(
  sql: TSql,
  input: { partnerId: string; endpointId: string; forUpdate?: boolean },
): Promise<TPartnerWebhookEndpointRow | null> {
  const { rows } = await sql.query<TPartnerWebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1::uuid AND partner_id = $2::uuid AND system = 'partner'
     ${input.forUpdate === true ? 'FOR UPDATE' : ''}`,
    [input.endpointId, input.partnerId],
  );
  return rows[0] ?? null;
}

/**
 * Creates a Partner endpoint, or returns the one of the same URL that is not retired
 * (`replayed: true`, the secret is not shown again): under an advisory lock per Partner and URL,
 * two concurrent creations make one endpoint.
 */
export async function insertPartnerWebhookEndpoint(
  database: TDatabase,
  input: {
    id: string;
    partnerId: string;
    name: string;
    url: string;
    eventTypes: string[];
    secret: TSealedSecret;
    at: Date;
  },
): Promise<{ replayed: boolean; row: TPartnerWebhookEndpointRow }> {
  return inSqlTransaction(database, async (sql) => {
    await sql.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('partner-webhook:' || $1 || ':' || $2, 0))`,
      [input.partnerId, input.url],
    );
    const existing = await sql.query<TPartnerWebhookEndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints
        WHERE partner_id = $1::uuid AND system = 'partner' AND url = $2 AND status <> 'retired'
        ORDER BY created_at LIMIT 1`,
      [input.partnerId, input.url],
    );
    const found = existing.rows[0];
    if (found !== undefined) return { replayed: true, row: found };
    const { rows } = await sql.query<TPartnerWebhookEndpointRow>(
      `INSERT INTO webhook_endpoints (id, system, partner_id, environment, name, url, event_types, status,
         secret_key_id, encrypted_secret, created_at, updated_at)
       VALUES ($1::uuid, 'partner', $2::uuid, NULL, $3, $4, $5::text[], 'active', $6, $7, $8, $8)
       RETURNING ${COLUMNS}`,
      [
        input.id,
        input.partnerId,
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
    return { replayed: false, row };
  });
}

/** A Partner's endpoints (retired last), newest first. */
export async function findPartnerWebhookEndpointRows(
  database: TDatabase,
  partnerId: string,
): Promise<TPartnerWebhookEndpointRow[]> {
  const { rows } = await sqlPoolOf(database).query<TPartnerWebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE partner_id = $1::uuid AND system = 'partner'
      ORDER BY (status = 'retired'), created_at DESC, id DESC`,
    [partnerId],
  );
  return rows;
}

/** One endpoint of the Partner, or null (another Partner's included). */
export async function findPartnerWebhookEndpointRow(
  database: TDatabase,
  input: { partnerId: string; endpointId: string },
): Promise<TPartnerWebhookEndpointRow | null> {
  return selectEndpoint(sqlPoolOf(database), input);
}

export type TPartnerEndpointResult =
  | { kind: 'not_found' }
  | { kind: 'retired'; row: TPartnerWebhookEndpointRow }
  | { kind: 'in_progress'; row: TPartnerWebhookEndpointRow }
  | { kind: 'done'; row: TPartnerWebhookEndpointRow };

/** Changes an endpoint that is not retired; a resumed endpoint's waiting deliveries get their jobs. */
export async function updatePartnerWebhookEndpointRow(
  database: TDatabase,
  input: { partnerId: string; endpointId: string; changes: TEndpointChanges; at: Date; enqueue: TEnqueue },
): Promise<TPartnerEndpointResult> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'retired', row: before };
    const { changes } = input;
    const { rows } = await sql.query<TPartnerWebhookEndpointRow>(
      `UPDATE webhook_endpoints SET
         name = COALESCE($3, name), url = COALESCE($4, url), event_types = COALESCE($5::text[], event_types),
         status = COALESCE($6::"WebhookEndpointStatus", status), updated_at = $7
       WHERE id = $1::uuid AND partner_id = $2::uuid AND status <> 'retired' RETURNING ${COLUMNS}`,
      [
        input.endpointId,
        input.partnerId,
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
    return { kind: 'done', row };
  });
}

/** Retires an endpoint (final) and fails its queued deliveries; a retired one is returned as it is. */
export async function retirePartnerWebhookEndpointRow(
  database: TDatabase,
  input: { partnerId: string; endpointId: string; at: Date },
): Promise<TPartnerEndpointResult> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'done', row: before };
    const { rows } = await sql.query<TPartnerWebhookEndpointRow>(
      `UPDATE webhook_endpoints SET status = 'retired', retired_at = $3, updated_at = $3
        WHERE id = $1::uuid AND partner_id = $2::uuid RETURNING ${COLUMNS}`,
      [input.endpointId, input.partnerId, input.at],
    );
    await failQueuedWebhookDeliveries(sql, { endpointId: input.endpointId, now: input.at });
    const row = rows[0];
    if (row === undefined) throw new Error('the webhook endpoint was not retired');
    return { kind: 'done', row };
  });
}

/** A new secret; the current one signs too until `at + overlapSeconds`. Refused while a rotation is open. */
export async function rotatePartnerWebhookSecretRow(
  database: TDatabase,
  input: { partnerId: string; endpointId: string; secret: TSealedSecret; overlapSeconds: number; at: Date },
): Promise<TPartnerEndpointResult> {
  return inSqlTransaction(database, async (sql) => {
    const before = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (before === null) return { kind: 'not_found' };
    if (before.status === 'retired') return { kind: 'retired', row: before };
    if (before.previousSecretExpiresAt !== null && before.previousSecretExpiresAt > input.at)
      return { kind: 'in_progress', row: before };
    const { rows } = await sql.query<TPartnerWebhookEndpointRow>(
      `UPDATE webhook_endpoints SET previous_secret_key_id = secret_key_id, previous_encrypted_secret = encrypted_secret,
         previous_secret_expires_at = $5, secret_key_id = $3, encrypted_secret = $4, updated_at = $6
        WHERE id = $1::uuid AND partner_id = $2::uuid RETURNING ${COLUMNS}`,
      [
        input.endpointId,
        input.partnerId,
        input.secret.keyId,
        Buffer.from(input.secret.sealed),
        new Date(input.at.getTime() + input.overlapSeconds * 1000),
        input.at,
      ],
    );
    const row = rows[0];
    if (row === undefined) throw new Error('the webhook secret was not rotated');
    return { kind: 'done', row };
  });
}

/** Queues a `webhook.test` for one endpoint that is not retired, about one account and environment. */
export async function insertPartnerWebhookTest(
  database: TDatabase,
  input: {
    partnerId: string;
    endpointId: string;
    tenantId: string;
    environment: Environment;
    eventId: string;
    deliveryId: string;
    at: Date;
    body: Buffer;
    /** The test request's (the outbox row's). */
    correlationId: string | null;
    enqueue: TEnqueue;
  },
): Promise<{ kind: 'not_found' } | { kind: 'retired' } | { kind: 'queued' }> {
  return inSqlTransaction(database, async (sql) => {
    const endpoint = await selectEndpoint(sql, { ...input, forUpdate: true });
    if (endpoint === null) return { kind: 'not_found' };
    if (endpoint.status === 'retired') return { kind: 'retired' };
    await insertWebhookTestEvent(sql, {
      eventId: input.eventId,
      deliveryId: input.deliveryId,
      endpointId: endpoint.id,
      tenantId: input.tenantId,
      environment: input.environment,
      createdAt: input.at,
      body: input.body,
      correlationId: input.correlationId,
    });
    if (endpoint.status === 'active')
      await input.enqueue([webhookDeliveryJob(input.deliveryId)], { executor: jobExecutorOfSql(sql) });
    return { kind: 'queued' };
  });
}

type TDeliveryRecord = Omit<TWebhookDeliveryRow, 'attemptLog'> & {
  attemptLog: Array<Record<string, unknown>> | null;
};

const DELIVERY_SELECT = `SELECT d.id::text AS "id", d.event_id::text AS "eventId", d.endpoint_id::text AS "endpointId",
  d.event_type AS "eventType", d.status::text AS "status", d.attempts, d.max_attempts AS "maxAttempts",
  d.next_attempt_at AS "nextAttemptAt", d.last_attempt_at AS "lastAttemptAt", d.failure_reason AS "failureReason",
  d.replay_count AS "replayCount", d.created_at AS "createdAt", d.completed_at AS "completedAt",
  (SELECT json_agg(json_build_object('attempt', a.attempt, 'startedAt', a.started_at, 'durationMs', a.duration_ms,
     'outcome', a.outcome, 'responseStatus', a.response_status, 'responseExcerpt', a.response_excerpt, 'error', a.error)
     ORDER BY a.attempt) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.id) AS "attemptLog"
  FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id`;

function deliveryOf(record: TDeliveryRecord): TWebhookDeliveryRow {
  return {
    ...record,
    attemptLog: (record.attemptLog ?? []).map((attempt) => ({
      attempt: Number(attempt['attempt']),
      startedAt: new Date(String(attempt['startedAt'])),
      durationMs: Number(attempt['durationMs']),
      outcome: attempt['outcome'] as 'succeeded' | 'retry' | 'failed',
      responseStatus: (attempt['responseStatus'] as number | null) ?? null,
      responseExcerpt: (attempt['responseExcerpt'] as string | null) ?? null,
      error: (attempt['error'] as string | null) ?? null,
    })),
  };
}

/** The deliveries of all the Partner's endpoints, newest first, keyset after `after`; `limit` rows. */
export async function findPartnerWebhookDeliveryRows(
  database: TDatabase,
  input: {
    partnerId: string;
    status?: TWebhookDeliveryStatus;
    after?: { createdAt: Date; id: string };
    limit: number;
  },
): Promise<TWebhookDeliveryRow[]> {
  const { rows } = await sqlPoolOf(database).query<TDeliveryRecord>(
    `${DELIVERY_SELECT}
      WHERE e.partner_id = $1::uuid AND e.system = 'partner'
        AND ($2::"WebhookDeliveryStatus" IS NULL OR d.status = $2::"WebhookDeliveryStatus")
        AND ($3::timestamptz IS NULL OR (d.created_at, d.id) < ($3::timestamptz, $4::uuid))
      ORDER BY d.created_at DESC, d.id DESC LIMIT $5`,
    [
      input.partnerId,
      input.status ?? null,
      input.after?.createdAt ?? null,
      input.after?.id ?? null,
      input.limit,
    ],
  );
  return rows.map(deliveryOf);
}

/** One delivery of the Partner's endpoints, or null. */
export async function findPartnerWebhookDeliveryRow(
  database: TDatabase,
  input: { partnerId: string; deliveryId: string },
): Promise<TWebhookDeliveryRow | null> {
  const { rows } = await sqlPoolOf(database).query<TDeliveryRecord>(
    `${DELIVERY_SELECT} WHERE d.id = $2::uuid AND e.partner_id = $1::uuid AND e.system = 'partner'`,
    [input.partnerId, input.deliveryId],
  );
  const row = rows[0];
  return row === undefined ? null : deliveryOf(row);
}

/** Re-queues a failed delivery of an ACTIVE endpoint of the Partner (as the direct replay does). */
export async function replayPartnerWebhookDeliveryRow(
  database: TDatabase,
  input: { partnerId: string; deliveryId: string; at: Date; enqueue: TEnqueue },
): Promise<
  | { kind: 'not_found' }
  | { kind: 'not_allowed'; status: TWebhookDeliveryStatus; endpointStatus: string }
  | { kind: 'replayed'; row: TWebhookDeliveryRow }
> {
  const result = await inSqlTransaction(database, async (sql) => {
    const { rows } = await sql.query<{ id: string; status: TWebhookDeliveryStatus; endpoint_status: string }>(
      `SELECT d.id::text, d.status::text AS status, e.status::text AS endpoint_status
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = $1::uuid AND e.partner_id = $2::uuid AND e.system = 'partner' FOR UPDATE OF d, e`,
      [input.deliveryId, input.partnerId],
    );
    const found = rows[0];
    if (found === undefined) return { kind: 'not_found' as const };
    if (found.status !== 'failed' || found.endpoint_status !== 'active')
      return { kind: 'not_allowed' as const, status: found.status, endpointStatus: found.endpoint_status };
    await sql.query(
      `UPDATE webhook_deliveries SET status = 'queued', max_attempts = GREATEST(max_attempts, attempts + 1),
         next_attempt_at = $2, failure_reason = NULL, completed_at = NULL, lease_until = NULL,
         replay_count = replay_count + 1, updated_at = $2
        WHERE id = $1::uuid AND status = 'failed'`,
      [found.id, input.at],
    );
    await input.enqueue([webhookDeliveryJob(found.id)], { executor: jobExecutorOfSql(sql) });
    return { kind: 'replayed' as const };
  });
  if (result.kind !== 'replayed') return result;
  const row = await findPartnerWebhookDeliveryRow(database, input);
  if (row === null) throw new Error('the replayed delivery vanished');
  return { kind: 'replayed', row };
}
