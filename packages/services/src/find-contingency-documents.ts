import type { Environment, TDatabase } from '@ecf/db';

/** Documents of a tenant currently in contingency in one environment, longest waiting first. */
export async function findContingencyDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
}) {
  const documents = await options.database.document.findMany({
    where: { tenantId: options.tenantId, environment: options.environment, status: 'contingency' },
    orderBy: [{ contingencySince: 'asc' }, { id: 'asc' }],
    take: 1000,
  });
  return documents.map((document) => ({
    documentId: document.id,
    encf: document.encf,
    type: `E${document.type}`,
    status: document.status,
    since: document.contingencySince?.toISOString() ?? null,
    attempts: document.attempts,
    lastError: messageOf(document.lastError),
    lastDeferredAt: document.lastDeferredAt?.toISOString() ?? null,
  }));
}

function messageOf(lastError: unknown): string | null {
  if (lastError && typeof lastError === 'object' && 'message' in lastError) return String(lastError.message);
  return null;
}
