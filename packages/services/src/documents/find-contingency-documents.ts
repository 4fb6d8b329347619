import type { Document, Environment, TDatabase } from '@ecf/db';
import { findDocumentsInContingency } from '../persistence/index.ts';

/** Documents of a tenant currently in contingency in one environment, longest waiting first. */
export async function findContingencyDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
}) {
  const documents = await findDocumentsInContingency(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
  });
  return documents.map(toContingencyItem);
}

/**
 * A document in contingency as the API's contingency list shows it (the support desk adds its
 * tenant, environment and next attempt to the same item).
 */
export function toContingencyItem(document: Document) {
  return {
    documentId: document.id,
    encf: document.encf,
    type: `E${document.type}`,
    status: document.status,
    since: document.contingencySince?.toISOString() ?? null,
    attempts: document.attempts,
    lastError: messageOf(document.lastError),
    lastDeferredAt: document.lastDeferredAt?.toISOString() ?? null,
  };
}

function messageOf(lastError: unknown): string | null {
  if (lastError && typeof lastError === 'object' && 'message' in lastError) return String(lastError.message);
  return null;
}
