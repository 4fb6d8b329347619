import type { TDatabase } from '@ecf/db';
import { settleCoveredDocuments, type TCoveredDocuments } from '../persistence/index.ts';
import { conflictReasonOf } from './annulment-model.ts';

/**
 * The local side of an annulment the tax authority accepted (idempotent, safe after a crash):
 * documents of its ranges that never left become `cancelled` with their pending jobs cancelled;
 * the others are skipped with their reason. Null when the annulment is not `accepted`.
 */
export async function settleAcceptedAnnulment(options: {
  database: TDatabase;
  annulmentId: string;
  now?: Date;
}): Promise<TCoveredDocuments | null> {
  const now = options.now ?? new Date();
  return settleCoveredDocuments(options.database, {
    annulmentId: options.annulmentId,
    at: now,
    classify: (document) => conflictReasonOf(document, now),
  });
}
