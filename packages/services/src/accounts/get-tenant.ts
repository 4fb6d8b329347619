import type { TDatabase, Tenant } from '@ecf/db';
import { findTenant } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** One tenant by id or RNC; NOT_FOUND when absent. */
export async function getTenant(options: { database: TDatabase; reference: string }): Promise<Tenant> {
  const tenant = await findTenant(
    options.database,
    isUuid(options.reference) ? { id: options.reference } : { rnc: options.reference },
  );
  if (!tenant) throw new AppError('NOT_FOUND', `Tenant ${options.reference} not found.`);
  return tenant;
}
