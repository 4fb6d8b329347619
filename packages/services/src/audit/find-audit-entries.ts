import type { TDatabase } from '@ecf/db';
import { findTenantAuditEntries, type TAuditEntry } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/**
 * A tenant's audit log for its owners, newest first: `limit` entries (1-100, default 50) older
 * than `cursor` (the `nextCursor` of the previous page: an entry id), support's views included.
 */
export async function findAuditEntries(options: {
  database: TDatabase;
  tenantId: string;
  cursor?: string | null;
  limit?: number;
  actions?: string[];
}): Promise<{ items: TAuditEntry[]; nextCursor: string | null }> {
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new AppError('INVALID_REQUEST', 'limit is 1 to 100.', { details: { limit } });
  const cursor = options.cursor ?? null;
  if (cursor !== null && !/^[1-9][0-9]{0,18}$/.test(cursor))
    throw new AppError('INVALID_REQUEST', 'The cursor is not one this list gave.', { details: { cursor } });
  const rows = await findTenantAuditEntries(options.database, {
    tenantId: options.tenantId,
    limit: limit + 1,
    ...(cursor === null ? {} : { beforeId: cursor }),
    ...(options.actions === undefined ? {} : { actions: options.actions }),
  });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}
