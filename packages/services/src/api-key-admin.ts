import {
  ENVIRONMENTS,
  ALL_SCOPES,
  seedApiKey,
  scopeFromDatabase,
  type TDatabase,
  type TScope,
  type Environment,
} from '@ecf/db';
import { AppError } from './errors.ts';
import { isUuid } from './references.ts';

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
  const tenant = await options.database.tenant.findUnique({ where: { id: options.tenantId } });
  if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
  const { key, record } = await seedApiKey(options.database, {
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

/** Revokes a key (by id or visible prefix) of a tenant. Revoking twice is harmless. */
export async function revokeApiKey(options: { database: TDatabase; tenantId: string; reference: string }) {
  const key = await options.database.apiKey.findFirst({
    where: {
      tenantId: options.tenantId,
      ...(isUuid(options.reference) ? { id: options.reference } : { prefix: options.reference }),
    },
  });
  if (!key) throw new AppError('NOT_FOUND', 'API key not found for this tenant.');
  if (key.revokedAt) return key;
  return options.database.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
}

/** Lists a tenant's keys, newest first, without anything secret. */
export async function findApiKeys(options: { database: TDatabase; tenantId: string }) {
  const keys = await options.database.apiKey.findMany({
    where: { tenantId: options.tenantId },
    orderBy: { createdAt: 'desc' },
  });
  return keys.map((key) => ({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    environment: key.environment,
    scopes: key.scopes.map(scopeFromDatabase),
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
  }));
}

/** Lists tenants, oldest first. */
export async function findTenants(options: { database: TDatabase }) {
  return options.database.tenant.findMany({ orderBy: { createdAt: 'asc' } });
}

/** One tenant by id or RNC; NOT_FOUND when absent. */
export async function getTenant(options: { database: TDatabase; reference: string }) {
  const tenant = await options.database.tenant.findFirst({
    where: isUuid(options.reference) ? { id: options.reference } : { rnc: options.reference },
  });
  if (!tenant) throw new AppError('NOT_FOUND', `Tenant ${options.reference} not found.`);
  return tenant;
}
