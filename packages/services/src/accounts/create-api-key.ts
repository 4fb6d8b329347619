import { ALL_SCOPES, ENVIRONMENTS, type Environment, type TDatabase, type TScope } from '@ecf/db';
import { findTenant, insertApiKey } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** Creates an API key for one environment; the clear key is returned once and never stored. */
export async function createApiKey(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  scopes: TScope[];
  name?: string;
}) {
  if (!ENVIRONMENTS.includes(options.environment)) {
    throw new AppError('INVALID_REQUEST', `Unknown environment ${String(options.environment)}.`);
  }
  const unknown = options.scopes.filter((scope) => !ALL_SCOPES.includes(scope));
  if (unknown.length > 0 || options.scopes.length === 0) {
    throw new AppError('INVALID_REQUEST', `Scopes must be a non-empty subset of ${ALL_SCOPES.join(', ')}.`, {
      details: { unknownScopes: unknown },
    });
  }
  const tenant = await findTenant(options.database, { id: options.tenantId });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
  const { key, record } = await insertApiKey(options.database, {
    tenantId: tenant.id,
    environment: options.environment,
    scopes: options.scopes,
    ...(options.name ? { name: options.name } : {}),
  });
  return {
    key,
    apiKey: { id: record.id, prefix: record.prefix, environment: record.environment, scopes: options.scopes },
  };
}
