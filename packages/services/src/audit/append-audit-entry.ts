import type { TDatabase } from '@ecf/db';
import { appendAuditEntryRow, type TAuditEntryInput } from '../persistence/index.ts';

/**
 * Appends one entry to the portal's audit log (append-only: the database refuses to change or
 * delete it). Changes that write an entry with their own rows do it in their own transaction; this
 * is for entries that stand alone (a support action, a later page's event).
 */
export async function appendAuditEntry(options: {
  database: TDatabase;
  entry: Omit<TAuditEntryInput, 'at'> & { at?: Date };
}): Promise<{ id: string }> {
  const { entry } = options;
  const id = await appendAuditEntryRow(options.database, { ...entry, at: entry.at ?? new Date() });
  return { id };
}
