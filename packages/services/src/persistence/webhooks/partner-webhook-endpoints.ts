/**
 * What only Partner webhook endpoints (`system = 'partner'`, owned by a Partner, every environment)
 * have: creation replayed by URL, the listing of a Partner's endpoints and the deliveries of all
 * its endpoints. Their changes (update, retire, rotate, a test) are the direct endpoints'
 * statements with a Partner owner (`webhook-endpoints.ts`), on the same tables and
 * engine (`webhooks.ts`: fan-out, claim, attempts, sweep). Secrets arrive sealed and never leave.
 */
import { inSqlTransaction, jobExecutorOfSql, sqlPoolOf, type TDatabase, type TEnqueue } from '@ecf/db';
import {
  ENDPOINT_COLUMNS as COLUMNS,
  type TPartnerWebhookEndpointRow,
  type TSealedSecret,
  type TWebhookDeliveryRow,
  type TWebhookDeliveryStatus,
} from './webhook-endpoints.ts';
import { webhookDeliveryJob } from './webhooks.ts';

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
