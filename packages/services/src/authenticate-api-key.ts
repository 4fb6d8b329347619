import { hashApiKey, scopeFromDatabase, type Environment, type TDatabase, type TScope } from '@ecf/db';
import { AppError } from './errors.ts';

export type TApiKeyPrincipal = {
  tenantId: string;
  apiKeyId: string;
  prefix: string;
  environment: Environment;
  scopes: TScope[];
  plan: string;
};

/**
 * Resolves an `X-API-KEY` for a request to `environment` that needs one of `requiredScopes`
 * (empty: any valid key). Order of checks: missing (401), unknown or revoked (401),
 * another environment (403, reason `environment_mismatch`), missing scope (403).
 */
export async function authenticateApiKey(options: {
  database: TDatabase;
  key: string | undefined;
  environment: Environment;
  requiredScopes: readonly TScope[];
}): Promise<TApiKeyPrincipal> {
  if (!options.key) {
    throw new AppError('API_KEY_MISSING', 'The X-API-KEY header is required.');
  }
  const record = await options.database.apiKey.findUnique({
    where: { hash: hashApiKey(options.key) },
    include: { tenant: { select: { plan: true } } },
  });
  if (!record || record.revokedAt) {
    throw new AppError('API_KEY_INVALID', 'The API key is invalid or has been revoked.');
  }
  if (record.environment !== options.environment) {
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `This API key belongs to ${record.environment}, not ${options.environment}.`,
      {
        details: { reason: 'environment_mismatch', keyEnvironment: record.environment },
      },
    );
  }
  const scopes = record.scopes.map(scopeFromDatabase);
  if (options.requiredScopes.length > 0 && !options.requiredScopes.some((scope) => scopes.includes(scope))) {
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `This API key lacks the scope ${options.requiredScopes.join(' or ')}.`,
      {
        details: { reason: 'missing_scope', requiredScopes: options.requiredScopes },
      },
    );
  }
  // Recorded at most once a minute per key so authentication does not become a write per request.
  await options.database.$executeRaw`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${record.id}::uuid AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  return {
    tenantId: record.tenantId,
    apiKeyId: record.id,
    prefix: record.prefix,
    environment: record.environment,
    scopes,
    plan: record.tenant.plan,
  };
}
