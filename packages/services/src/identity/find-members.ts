import type { TDatabase } from '@ecf/db';
import { findTenantMemberRows, type TMemberRow } from '../persistence/index.ts';

/** A tenant's members with their roles, owners first. */
export async function findMembers(options: { database: TDatabase; tenantId: string }): Promise<TMemberRow[]> {
  return findTenantMemberRows(options.database, options.tenantId);
}
