import type { TDatabase, Tenant } from '@ecf/db';
import { findAllTenants } from '../persistence/index.ts';

/** Lists tenants, oldest first. */
export async function findTenants(options: { database: TDatabase }): Promise<Tenant[]> {
  return findAllTenants(options.database);
}
