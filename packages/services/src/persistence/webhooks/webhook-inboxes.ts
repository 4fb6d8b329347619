/**
 * TesteCF test inboxes (migration 0022): what arrives at `POST /webhook-inbox/{token}` is kept per
 * inbox, the newest 100 for 7 days. Recording is ONE statement (find the inbox by the SHA-256 of the
 * token, insert, trim what is past the count or the age), so a flood of requests to one inbox keeps
 * its size bounded without a job. An inbox's endpoint row is created with it
 * (`insertAuditedWebhookEndpoint`'s `inbox`).
 */
import { prepared, sqlPoolOf, type TDatabase } from '@ecf/db';

/** Requests kept per inbox (the newest). */
export const WEBHOOK_INBOX_KEEP_REQUESTS = 100;
/** Days a received request is kept. */
export const WEBHOOK_INBOX_KEEP_DAYS = 7;

/** An inbox with its endpoint's sealed secrets (the signature check opens them; never shown). */
export type TWebhookInboxRow = {
  id: string;
  endpointId: string;
  createdAt: Date;
  secret: { keyId: string; sealed: Buffer };
  previousSecret: { keyId: string; sealed: Buffer } | null;
};

export type TWebhookInboxRequestRow = {
  id: string;
  receivedAt: Date;
  headers: Record<string, string>;
  body: Buffer;
  bodyBytes: number;
};

/**
 * Records one request in the inbox whose token hashes to `tokenSha256` (its endpoint not retired)
 * and trims the inbox; null when there is no such inbox.
 */
export async function insertWebhookInboxRequest(
  database: TDatabase,
  input: {
    tokenSha256: Buffer;
    receivedAt: Date;
    headers: Record<string, string>;
    body: Buffer;
    bodyBytes: number;
  },
): Promise<{ id: string } | null> {
  const { rows } = await sqlPoolOf(database).query<{ id: string }>(
    prepared(
      `WITH inbox AS (
         SELECT i.id FROM webhook_inboxes i JOIN webhook_endpoints e ON e.id = i.endpoint_id
          WHERE i.token_sha256 = $1 AND e.status <> 'retired'
       ), inserted AS (
         INSERT INTO webhook_inbox_requests (inbox_id, received_at, headers, body, body_bytes)
         SELECT inbox.id, $2, $3::jsonb, $4, $5 FROM inbox
         RETURNING id
       ), trimmed AS (
         DELETE FROM webhook_inbox_requests r
          WHERE r.inbox_id = (SELECT id FROM inbox)
            AND (r.received_at < $2::timestamptz - make_interval(days => $6)
                 OR r.id IN (SELECT x.id FROM webhook_inbox_requests x WHERE x.inbox_id = (SELECT id FROM inbox)
                              ORDER BY x.received_at DESC, x.id DESC OFFSET $7))
       )
       SELECT id::text FROM inserted`,
      [
        input.tokenSha256,
        input.receivedAt,
        JSON.stringify(input.headers),
        input.body,
        input.bodyBytes,
        WEBHOOK_INBOX_KEEP_DAYS,
        // The statement's DELETE sees the rows before its INSERT: keep one fewer old ones.
        WEBHOOK_INBOX_KEEP_REQUESTS - 1,
      ],
    ),
  );
  const row = rows[0];
  return row === undefined ? null : { id: row.id };
}

/** The inbox of a direct endpoint of the tenant, or null (not an inbox, another tenant's). */
export async function findWebhookInboxOfEndpoint(
  database: TDatabase,
  input: { tenantId: string; endpointId: string },
): Promise<TWebhookInboxRow | null> {
  const { rows } = await sqlPoolOf(database).query<{
    id: string;
    endpoint_id: string;
    created_at: Date;
    secret_key_id: string;
    encrypted_secret: Buffer;
    previous_secret_key_id: string | null;
    previous_encrypted_secret: Buffer | null;
  }>(
    `SELECT i.id::text, i.endpoint_id::text, i.created_at, e.secret_key_id, e.encrypted_secret,
            e.previous_secret_key_id, e.previous_encrypted_secret
       FROM webhook_inboxes i JOIN webhook_endpoints e ON e.id = i.endpoint_id
      WHERE i.endpoint_id = $1::uuid AND e.tenant_id = $2::uuid AND e.system = 'direct'`,
    [input.endpointId, input.tenantId],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    createdAt: row.created_at,
    secret: { keyId: row.secret_key_id, sealed: row.encrypted_secret },
    previousSecret:
      row.previous_secret_key_id === null || row.previous_encrypted_secret === null
        ? null
        : { keyId: row.previous_secret_key_id, sealed: row.previous_encrypted_secret },
  };
}

/** The inbox's requests of the last 7 days, newest first (at most 100). */
export async function findWebhookInboxRequestRows(
  database: TDatabase,
  input: { inboxId: string; now: Date; limit: number },
): Promise<TWebhookInboxRequestRow[]> {
  const { rows } = await sqlPoolOf(database).query<{
    id: string;
    received_at: Date;
    headers: Record<string, string>;
    body: Buffer;
    body_bytes: number;
  }>(
    `SELECT id::text, received_at, headers, body, body_bytes FROM webhook_inbox_requests
      WHERE inbox_id = $1::uuid AND received_at >= $2::timestamptz - make_interval(days => $3)
      ORDER BY received_at DESC, id DESC LIMIT $4`,
    [input.inboxId, input.now, WEBHOOK_INBOX_KEEP_DAYS, Math.min(input.limit, WEBHOOK_INBOX_KEEP_REQUESTS)],
  );
  return rows.map((row) => ({
    id: row.id,
    receivedAt: row.received_at,
    headers: row.headers,
    body: row.body,
    bodyBytes: row.body_bytes,
  }));
}

/** Deletes the requests of every inbox received more than 7 days before `before` (the daily purge). */
export async function deleteExpiredWebhookInboxRequests(database: TDatabase, before: Date): Promise<number> {
  const { rowCount } = await sqlPoolOf(database).query(
    `DELETE FROM webhook_inbox_requests WHERE received_at < $1::timestamptz - make_interval(days => $2)`,
    [before, WEBHOOK_INBOX_KEEP_DAYS],
  );
  return rowCount ?? 0;
}
