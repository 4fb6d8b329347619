import type { TDatabase } from '@ecf/db';
import { findUncertainDeliveryRows } from '../persistence/index.ts';

/**
 * Receiver deliveries of every tenant left `uncertain` (no answer after the retries; never resent
 * automatically) and not reconciled yet, oldest first. The caller (support) records a view of
 * each tenant whose deliveries it returns.
 */
export async function findUncertainDeliveries(options: { database: TDatabase }) {
  const rows = await findUncertainDeliveryRows(options.database);
  return rows.map((row) => ({
    documentId: row.documentId,
    encf: row.document.encf,
    environment: row.document.environment,
    buyerRnc: row.document.buyerRnc,
    tenant: { id: row.tenant.id, rnc: row.tenant.rnc, name: row.tenant.tradeName ?? row.tenant.legalName },
    attempts: row.attempts,
    targetUrl: row.targetUrl,
    lastError: messageOf(row.lastError),
    since: row.updatedAt.toISOString(),
  }));
}

function messageOf(lastError: unknown): string | null {
  if (lastError && typeof lastError === 'object' && 'message' in lastError) return String(lastError.message);
  return null;
}
