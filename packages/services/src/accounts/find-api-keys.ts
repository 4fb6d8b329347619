import type { Environment, TDatabase } from '@ecf/db';
import { findApiKeyRows, type TApiKeyRow } from '../persistence/index.ts';

/** Lists a tenant's keys (optionally of one environment), newest first, without anything secret. */
export async function findApiKeys(options: {
  database: TDatabase;
  tenantId: string;
  environment?: Environment;
}): Promise<Array<Omit<TApiKeyRow, 'tenantId'>>> {
  const keys = await findApiKeyRows(options.database, {
    tenantId: options.tenantId,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  });
  return keys.map(({ tenantId: _tenantId, ...key }) => key);
}
