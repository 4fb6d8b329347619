import type { Environment, TDatabase } from '@ecf/db';
import { toContingencyItem } from '../documents/find-contingency-documents.ts';
import { findContingencyDocumentsOfAllTenants } from '../persistence/index.ts';

/**
 * Every tenant's documents in contingency (one environment, or all), longest waiting first: the
 * API's contingency item plus the tenant, the environment and when the next attempt is due. The
 * caller (support) records a view of each tenant whose documents it returns.
 */
export async function findContingencyAcrossTenants(options: {
  database: TDatabase;
  environment?: Environment | undefined;
}) {
  const documents = await findContingencyDocumentsOfAllTenants(options.database, {
    environment: options.environment,
  });
  return documents.map((document) => ({
    ...toContingencyItem(document),
    environment: document.environment,
    tenant: {
      id: document.tenant.id,
      rnc: document.tenant.rnc,
      name: document.tenant.tradeName ?? document.tenant.legalName,
    },
    nextAttemptAt: contingencyNextAttemptOf(document.lastError),
  }));
}

/**
 * When a document in contingency is tried again: `lastError.nextAttemptAt` as the contingency
 * schedule (`transmission/contingency.ts`) wrote it; null when absent. The support desk, the
 * document page and the documents list (live status, issue 27) all read it from here.
 */
export function contingencyNextAttemptOf(lastError: unknown): string | null {
  if (lastError && typeof lastError === 'object' && 'nextAttemptAt' in lastError) {
    const value = lastError.nextAttemptAt;
    if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value;
  }
  return null;
}
