import { hashApiKey, type Environment, type ProductionState, type TDatabase, type TScope } from '@ecf/db';
import { lookUpAndCountApiKey, touchApiKey } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** Who is calling: the API key, its environment and scopes, and its tenant's plan. */
export type TApiKeyPrincipal = {
  tenantId: string;
  apiKeyId: string;
  prefix: string;
  environment: Environment;
  scopes: TScope[];
  plan: string;
};

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
  /** Rule 13's deferred-send authorization and the payment term of `{{FECHA_LIMITE_PAGO}}` (account data). */
  deferredSendAuthorized: boolean;
  paymentTermDays: number | null;
  productionState: ProductionState;
  plan: string;
};

export type TApiRequestPrincipal = TApiKeyPrincipal & { tenant: TTenantProfile };

/**
 * The `X-API-KEY` of a request and its rate limit of the request in ONE database round trip (the hot path
 * of every direct-account request): the key is looked up by its SHA-256 with its tenant, and only
 * when it is valid for `environment` and one of `requiredScopes` is the request counted (one upsert
 * in the current fixed window of `rate_limit_counters`). Checks in this order: missing (401
 * `API_KEY_MISSING`), unknown or revoked (401 `API_KEY_INVALID`), another environment (403
 * `INSUFFICIENT_SCOPE`, reason `environment_mismatch`), none of the scopes (403, `missing_scope`);
 * over `requestsPerMinute(plan)` it is 429 `RATE_LIMIT_EXCEEDED` with `Retry-After`.
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
  // One coalesced plain-SQL statement: this runs on every request, and requests arriving together
  // share one statement and one upsert of their key's counter instead of queueing on that row.
  const row = await lookUpAndCountApiKey(options.database, {
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
  if (row.stale) await touchApiKey(options.database, row.id);
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
      deferredSendAuthorized: row.deferred_send_authorized,
      paymentTermDays: row.payment_term_days,
      productionState: row.production_state,
      plan: row.plan,
    },
  };
}
