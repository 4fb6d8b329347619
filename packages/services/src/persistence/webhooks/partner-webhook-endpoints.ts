/**
 * What only Partner webhook endpoints (`system = 'partner'`, owned by a Partner, every environment)
 * have: creation replayed by URL and the listing of a Partner's endpoints. Everything else (update,
 * retire, rotate, a test, deliveries and their replay) is `webhook-endpoints.ts`' statements with a
 * Partner owner, on the same tables and engine (`webhooks.ts`: fan-out, claim, attempts, sweep).
 * Secrets arrive sealed and never leave.
 */
import { inSqlTransaction, sqlPoolOf, type TDatabase } from '@ecf/db';
import {
  ENDPOINT_COLUMNS as COLUMNS,
  type TPartnerWebhookEndpointRow,
  type TSealedSecret,
} from './webhook-endpoints.ts';

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
