import { hashApiKey, prepared, sqlPoolOf, type Environment, type ProductionState, type TDatabase, type TScope } from '@ecf/db';
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
  // Plain SQL through the pool: this runs on every request, and a Prisma raw query costs several
  // times its CPU (the query compiler).
  const pool = sqlPoolOf(options.database);
  const { rows } = await pool.query<TRow>(
    prepared(
      `WITH k AS (
         SELECT k.id, k.tenant_id, k.environment::text AS environment, k.prefix, k.scopes::text[] AS scopes, k.revoked_at,
                (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale,
                t.rnc, t.legal_name, t.trade_name, t.address, t.phones, t.fiscal_email, t.production_state::text AS production_state, t.plan
         FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
         WHERE k.hash = $1
       ), counted AS (
         INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
         SELECT 'api-key:' || k.id, $2::timestamptz, 1, $3::timestamptz FROM k
         WHERE $4::boolean AND k.revoked_at IS NULL AND k.environment = $5::text
           AND (cardinality($6::text[]) = 0 OR k.scopes::text[] && $6::text[])
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
         RETURNING count
       )
       SELECT k.*, (SELECT count FROM counted) AS count FROM k`,
      [hashApiKey(options.key), windowStart, expiresAt, counting, options.environment, scopes],
    ),
  );
  const row = rows[0];
  if (!row || row.revoked_at) throw new AppError('API_KEY_INVALID', 'The API key is invalid or has been revoked.');
  if (row.environment !== options.environment) {
    throw new AppError('INSUFFICIENT_SCOPE', `This API key belongs to ${row.environment}, not ${options.environment}.`, {
      details: { reason: 'environment_mismatch', keyEnvironment: row.environment },
    });
  }
  const keyScopes = row.scopes;
  if (options.requiredScopes.length > 0 && !options.requiredScopes.some((scope) => keyScopes.includes(scope))) {
    throw new AppError('INSUFFICIENT_SCOPE', `This API key lacks the scope ${options.requiredScopes.join(' or ')}.`, {
      details: { reason: 'missing_scope', requiredScopes: options.requiredScopes },
    });
  }
  if (options.requestsPerMinute && row.count !== null) {
    const limit = options.requestsPerMinute(row.plan);
    if (row.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
      throw new AppError('RATE_LIMIT_EXCEEDED', `Rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s with backoff and jitter.`, {
        details: { limit, windowSeconds: RATE_LIMIT_WINDOW_SECONDS, retryAfterSeconds: retryAfter },
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }
  // Recorded at most once a minute per key so authentication does not become a write per request.
  if (row.stale) await pool.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1::uuid', [row.id]);
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
