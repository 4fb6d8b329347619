import { scopeFromDatabase, type TDatabase } from '@ecf/db';
import { findTenantApiKeys } from '../persistence/index.ts';

/** Lists a tenant's keys, newest first, without anything secret. */
export async function findApiKeys(options: { database: TDatabase; tenantId: string }) {
  const keys = await findTenantApiKeys(options.database, options.tenantId);
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
