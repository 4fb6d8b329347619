import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  hashApiKey,
  prepared,
  sqlPoolOf,
  type Environment,
  type ProductionState,
  type TDatabase,
  type TScope,
  type TSqlPool,
} from '@ecf/db';
import { AppError } from './errors.ts';
import type { TApiKeyPrincipal } from './authenticate-api-key.ts';

/** Rate-limit windows: fixed, one minute, counters in `rate_limit_counters` shared by every API instance. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The tenant data a direct-account request needs (validation account, production state). */
export type TTenantProfile = {
  id: string;
  rnc: string;
  legalName: string;
  tradeName: string | null;
  address: string | null;
  phones: string[];
  fiscalEmail: string | null;
  productionState: ProductionState;
  plan: string;
};

export type TApiRequestPrincipal = TApiKeyPrincipal & { tenant: TTenantProfile };

type TRow = {
  id: string;
  tenant_id: string;
  environment: Environment;
  prefix: string;
  /** Spelled as in the specification (`ecf:read`): the database enum maps to those labels. */
  scopes: TScope[];
  revoked_at: Date | null;
  stale: boolean;
  rnc: string;
  legal_name: string;
  trade_name: string | null;
  address: string | null;
  phones: string[];
  fiscal_email: string | null;
  production_state: ProductionState;
  plan: string;
  count: number | null;
};

type TLookup = {
  hash: string;
  windowStart: Date;
  expiresAt: Date;
  counting: boolean;
  environment: Environment;
  scopes: string;
};

/**
 * Keys and counters of a batch of requests in one statement. Each request is counted only when
 * its key is valid for its environment and scopes; a key's requests of one window add to its
 * counter in one upsert, and each request's `count` is its own position in that sum (the first of
 * the batch the lowest), as if they had been counted one after the other.
 */
const LOOKUP_AND_COUNT = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::boolean[], $5::text[], $6::text[]) WITH ORDINALITY
      AS i(hash, window_start, expires_at, counting, wanted_environment, wanted_scopes, ord)
  ), k AS (
    SELECT i.ord, i.window_start, i.expires_at,
           i.counting AND k.revoked_at IS NULL AND k.environment::text = i.wanted_environment
             AND (i.wanted_scopes = '' OR k.scopes::text[] && string_to_array(i.wanted_scopes, ',')) AS eligible,
           k.id, k.tenant_id, k.environment::text AS environment, k.prefix, k.scopes::text[] AS scopes, k.revoked_at,
           (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale,
           t.rnc, t.legal_name, t.trade_name, t.address, t.phones, t.fiscal_email, t.production_state::text AS production_state, t.plan
    FROM input i JOIN api_keys k ON k.hash = i.hash JOIN tenants t ON t.id = k.tenant_id
  ), counted AS (
    INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
    SELECT 'api-key:' || id, window_start, count(*), max(expires_at) FROM k WHERE eligible GROUP BY id, window_start
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + excluded.count
    RETURNING bucket, window_start, count
  )
  SELECT k.ord, k.id, k.tenant_id, k.environment, k.prefix, k.scopes, k.revoked_at, k.stale, k.rnc, k.legal_name, k.trade_name,
         k.address, k.phones, k.fiscal_email, k.production_state, k.plan,
         CASE WHEN k.eligible THEN c.count - (SELECT count(*) FROM k later WHERE later.eligible AND later.id = k.id AND later.window_start = k.window_start AND later.ord > k.ord) END::int AS count
  FROM k LEFT JOIN counted c ON c.bucket = 'api-key:' || k.id AND c.window_start = k.window_start`;

const lookupCoalesced = coalescerPerKey((pool: TSqlPool) =>
  createCoalescer(
    batchOrEach(async (batch: TLookup[]): Promise<Array<TRow | undefined>> => {
      const { rows } = await pool.query<TRow & { ord: string }>(
        prepared(LOOKUP_AND_COUNT, [
          batch.map((lookup) => lookup.hash),
          batch.map((lookup) => lookup.windowStart),
          batch.map((lookup) => lookup.expiresAt),
          batch.map((lookup) => lookup.counting),
          batch.map((lookup) => lookup.environment),
          batch.map((lookup) => lookup.scopes),
        ]),
      );
      const byOrdinal = new Map(rows.map((row) => [Number(row.ord), row]));
      return batch.map((_, index) => byOrdinal.get(index + 1));
    }),
  ),
);

/**
 * `authenticateApiKey` and the rate limit of the request in ONE database round trip (the hot path
 * of every direct-account request): the key is looked up by its SHA-256 with its tenant, and only
 * when it is valid for `environment` and one of `requiredScopes` is the request counted (one upsert
 * in the current fixed window of `rate_limit_counters`). Same checks, order and errors as
 * `authenticateApiKey`; over `requestsPerMinute(plan)` it is 429 `RATE_LIMIT_EXCEEDED` with `Retry-After`.
 */
export async function authenticateApiRequest(options: {
  database: TDatabase;
  key: string | undefined;
  environment: Environment;
  requiredScopes: readonly TScope[];
  /** Requests per minute of a plan; omitted: no rate limit. */
  requestsPerMinute?: ((plan: string) => number) | undefined;
  now?: Date;
}): Promise<TApiRequestPrincipal> {
  if (!options.key) throw new AppError('API_KEY_MISSING', 'The X-API-KEY header is required.');
  const now = options.now ?? new Date();
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const expiresAt = new Date(windowStart.getTime() + 2 * windowMs);
  const scopes = [...options.requiredScopes];
  const counting = options.requestsPerMinute !== undefined;
  // Plain SQL through the pool, coalesced: this runs on every request (a Prisma raw query costs
  // several times its CPU), and requests arriving together share one statement and one upsert of
  // their key's counter instead of queueing on that row one commit after another.
  const row = await lookupCoalesced(sqlPoolOf(options.database))({
    hash: hashApiKey(options.key),
    windowStart,
    expiresAt,
    counting,
    environment: options.environment,
    scopes: scopes.join(','),
  });
  if (!row || row.revoked_at)
    throw new AppError('API_KEY_INVALID', 'The API key is invalid or has been revoked.');
  if (row.environment !== options.environment) {
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `This API key belongs to ${row.environment}, not ${options.environment}.`,
      {
        details: { reason: 'environment_mismatch', keyEnvironment: row.environment },
      },
    );
  }
  const keyScopes = row.scopes;
  if (
    options.requiredScopes.length > 0 &&
    !options.requiredScopes.some((scope) => keyScopes.includes(scope))
  ) {
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `This API key lacks the scope ${options.requiredScopes.join(' or ')}.`,
      {
        details: { reason: 'missing_scope', requiredScopes: options.requiredScopes },
      },
    );
  }
  if (options.requestsPerMinute && row.count !== null) {
    const limit = options.requestsPerMinute(row.plan);
    if (row.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s with backoff and jitter.`,
        {
          details: { limit, windowSeconds: RATE_LIMIT_WINDOW_SECONDS, retryAfterSeconds: retryAfter },
          headers: { 'retry-after': String(retryAfter) },
        },
      );
    }
  }
  // Recorded at most once a minute per key so authentication does not become a write per request.
  if (row.stale)
    await sqlPoolOf(options.database).query('UPDATE api_keys SET last_used_at = now() WHERE id = $1::uuid', [
      row.id,
    ]);
  return {
    tenantId: row.tenant_id,
    apiKeyId: row.id,
    prefix: row.prefix,
    environment: row.environment,
    scopes: keyScopes,
    plan: row.plan,
    tenant: {
      id: row.tenant_id,
      rnc: row.rnc,
      legalName: row.legal_name,
      tradeName: row.trade_name,
      address: row.address,
      phones: row.phones,
      fiscalEmail: row.fiscal_email,
      productionState: row.production_state,
      plan: row.plan,
    },
  };
}
