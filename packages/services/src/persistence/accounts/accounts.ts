/**
 * Tenants and API keys: their rows, and the one statement every direct-account request runs (the
 * key with its tenant, and the request counted against the key's rate limit).
 */
import {
  isPrismaError,
  PRISMA_ERROR,
  seedApiKey,
  seedTenant,
  sqlPoolOf,
  type ApiKey,
  type Environment,
  type ProductionState,
  type TDatabase,
  type Tenant,
  type TScope,
} from '@ecf/db';
import { ordinalBatchStatement } from '../batched-lookup.ts';

/** A tenant's row by id or by RNC; null when absent. */
export async function findTenant(
  database: TDatabase,
  input: { id: string } | { rnc: string },
): Promise<Tenant | null> {
  return database.tenant.findFirst({ where: 'id' in input ? { id: input.id } : { rnc: input.rnc } });
}

/** Every tenant, oldest first. */
export async function findAllTenants(database: TDatabase): Promise<Tenant[]> {
  return database.tenant.findMany({ orderBy: { createdAt: 'asc' } });
}

/**
 * The condition of an account search on `tenants t` with its one parameter at `$position`: the
 * start of the RNC, or part of the legal or trade name in any letter case (the LIKE operand's
 * wildcards escaped by the caller). Tenants are few (a scan of them is a few milliseconds, measured
 * in bench/portal), so no index serves it.
 */
export function accountMatchOf(
  search: { rncPrefix: string } | { name: string },
  position: number,
): { sql: string; parameter: string } {
  return 'rncPrefix' in search
    ? { sql: `t.rnc LIKE $${position}::text || '%'`, parameter: search.rncPrefix }
    : {
        sql: `(t.legal_name ILIKE '%' || $${position}::text || '%' OR t.trade_name ILIKE '%' || $${position}::text || '%')`,
        parameter: search.name,
      };
}

/**
 * Support's tenant chooser: tenants matching the search (every tenant without one), by name
 * (trade name, else legal name) then RNC, `limit` from `offset`, with the total (at most `cap`).
 */
export async function searchTenantRows(
  database: TDatabase,
  input: {
    search: { rncPrefix: string } | { name: string } | null;
    limit: number;
    offset: number;
    cap: number;
  },
): Promise<{
  rows: Array<{ id: string; rnc: string; name: string }>;
  total: { count: number; capped: boolean };
}> {
  const pool = sqlPoolOf(database);
  const match = input.search === null ? null : accountMatchOf(input.search, 1);
  const where = match === null ? '' : `WHERE ${match.sql}`;
  const parameters = match === null ? [] : [match.parameter];
  const next = parameters.length + 1;
  const [page, total] = await Promise.all([
    pool.query<{ id: string; rnc: string; name: string }>(
      `SELECT t.id::text AS id, t.rnc, COALESCE(t.trade_name, t.legal_name) AS name FROM tenants t ${where}
        ORDER BY lower(COALESCE(t.trade_name, t.legal_name)), t.rnc LIMIT $${next}::int OFFSET $${next + 1}::int`,
      [...parameters, input.limit, input.offset],
    ),
    pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM (SELECT 1 FROM tenants t ${where} LIMIT $${next}::int) matched`,
      [...parameters, input.cap + 1],
    ),
  ]);
  const count = total.rows[0]?.count ?? 0;
  return {
    rows: page.rows,
    total: count > input.cap ? { count: input.cap, capped: true } : { count, capped: false },
  };
}

/** Creates a tenant; `rnc_taken` when the RNC already has one. */
export async function insertTenant(
  database: TDatabase,
  input: Parameters<typeof seedTenant>[1],
): Promise<{ created: true; tenant: Tenant } | { created: false; reason: 'rnc_taken' }> {
  try {
    return { created: true, tenant: await seedTenant(database, input) };
  } catch (error) {
    if (isPrismaError(error, PRISMA_ERROR.uniqueConstraintViolation))
      return { created: false, reason: 'rnc_taken' };
    throw error;
  }
}

/** Adds an environment to those where the tenant e-mails buyers (idempotent). */
export async function addBuyerEmailEnvironment(
  database: TDatabase,
  input: { tenantId: string; environment: Environment },
): Promise<Tenant> {
  const tenant = await database.tenant.findUniqueOrThrow({ where: { id: input.tenantId } });
  if (tenant.buyerEmailEnvironments.includes(input.environment)) return tenant;
  return database.tenant.update({
    where: { id: input.tenantId },
    data: { buyerEmailEnvironments: { push: input.environment } },
  });
}

/** Creates an API key; the clear key is returned once (only its SHA-256 is stored). */
export async function insertApiKey(
  database: TDatabase,
  input: { tenantId: string; environment: Environment; scopes: TScope[]; name?: string },
): Promise<{ key: string; record: ApiKey }> {
  return seedApiKey(database, input);
}

/** A tenant's key by id or visible prefix; null when the tenant has none such. */
export async function findTenantApiKey(
  database: TDatabase,
  input: { tenantId: string } & ({ id: string } | { prefix: string }),
): Promise<ApiKey | null> {
  return database.apiKey.findFirst({
    where: { tenantId: input.tenantId, ...('id' in input ? { id: input.id } : { prefix: input.prefix }) },
  });
}

/** Marks a key revoked now. */
export async function markApiKeyRevoked(database: TDatabase, apiKeyId: string): Promise<ApiKey> {
  return database.apiKey.update({ where: { id: apiKeyId }, data: { revokedAt: new Date() } });
}

/** A tenant's keys, newest first. */
export async function findTenantApiKeys(database: TDatabase, tenantId: string): Promise<ApiKey[]> {
  return database.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: 'desc' } });
}

/** What the look-up of a request's key returns: the key, its tenant, and the request's count. */
export type TKeyLookupRow = {
  id: string;
  tenant_id: string;
  environment: Environment;
  prefix: string;
  /** Spelled as in the specification (`ecf:read`): the database enum maps to those labels. */
  scopes: TScope[];
  revoked_at: Date | null;
  /** `last_used_at` is older than a minute (or never set). */
  stale: boolean;
  rnc: string;
  legal_name: string;
  trade_name: string | null;
  address: string | null;
  phones: string[];
  fiscal_email: string | null;
  deferred_send_authorized: boolean;
  payment_term_days: number | null;
  production_state: ProductionState;
  plan: string;
  /** The request's position in its key's window; null when it was not counted. */
  count: number | null;
};

export type TKeyLookup = {
  /** SHA-256 of the key. */
  hash: string;
  windowStart: Date;
  expiresAt: Date;
  /** Count the request (rate limiting on) when the key is valid for `environment` and `scopes`. */
  counting: boolean;
  environment: Environment;
  /** Comma-separated; empty: any scope. */
  scopes: string;
};

/**
 * Keys and counters of a batch of requests in one statement. Each request is counted only when
 * its key is valid for its environment and scopes; a key's requests of one window add to its
 * counter in one upsert, and each request's `count` is its own position in that sum (the first of
 * the batch the lowest), as if they had been counted one after the other. The counters are upserted
 * in key order (no deadlock between concurrent batches) and a conflict PostgreSQL still reports
 * (40P01, 40001: the statement rolled back, nothing counted) runs the statement again.
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
           t.rnc, t.legal_name, t.trade_name, t.address, t.phones, t.fiscal_email, t.deferred_send_authorized, t.payment_term_days, t.production_state::text AS production_state, t.plan
    FROM input i JOIN api_keys k ON k.hash = i.hash JOIN tenants t ON t.id = k.tenant_id
  ), counted AS (
    INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
    SELECT 'api-key:' || id, window_start, count(*), max(expires_at) FROM k WHERE eligible GROUP BY id, window_start
    ORDER BY 1, 2
    ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + excluded.count
    RETURNING bucket, window_start, count
  )
  SELECT k.ord, k.id, k.tenant_id, k.environment, k.prefix, k.scopes, k.revoked_at, k.stale, k.rnc, k.legal_name, k.trade_name,
         k.address, k.phones, k.fiscal_email, k.deferred_send_authorized, k.payment_term_days, k.production_state, k.plan,
         CASE WHEN k.eligible THEN c.count - (SELECT count(*) FROM k later WHERE later.eligible AND later.id = k.id AND later.window_start = k.window_start AND later.ord > k.ord) END::int AS count
  FROM k LEFT JOIN counted c ON c.bucket = 'api-key:' || k.id AND c.window_start = k.window_start`;

const lookupCoalesced = ordinalBatchStatement<TKeyLookup, TKeyLookupRow>(LOOKUP_AND_COUNT, (batch) => [
  batch.map((lookup) => lookup.hash),
  batch.map((lookup) => lookup.windowStart),
  batch.map((lookup) => lookup.expiresAt),
  batch.map((lookup) => lookup.counting),
  batch.map((lookup) => lookup.environment),
  batch.map((lookup) => lookup.scopes),
]);

/**
 * A request's key with its tenant, and the request counted (see {@link TKeyLookup}), in ONE round
 * trip; the requests arriving together share one statement and one upsert of their key's counter.
 * Undefined when no key has that hash.
 */
export async function lookUpAndCountApiKey(
  database: TDatabase,
  lookup: TKeyLookup,
): Promise<TKeyLookupRow | undefined> {
  return lookupCoalesced(sqlPoolOf(database))(lookup);
}

/** Records that a key was used now. */
export async function touchApiKey(database: TDatabase, apiKeyId: string): Promise<void> {
  await sqlPoolOf(database).query('UPDATE api_keys SET last_used_at = now() WHERE id = $1::uuid', [apiKeyId]);
}
