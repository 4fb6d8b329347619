import type { ApiKey, TDatabase } from '@ecf/db';
import { findTenantApiKey, markApiKeyRevoked } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** Revokes a key (by id or visible prefix) of a tenant. Revoking twice is harmless. */
export async function revokeApiKey(options: {
  database: TDatabase;
  tenantId: string;
  reference: string;
}): Promise<ApiKey> {
  const key = await findTenantApiKey(options.database, {
    tenantId: options.tenantId,
    ...(isUuid(options.reference) ? { id: options.reference } : { prefix: options.reference }),
  });
  if (!key) throw new AppError('NOT_FOUND', 'API key not found for this tenant.');
  if (key.revokedAt) return key;
  return markApiKeyRevoked(options.database, key.id);
}
