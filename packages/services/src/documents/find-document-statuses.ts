import type { DocumentStatus, Environment, TDatabase } from '@ecf/db';
import { findDocumentsByReferences, type TDocumentStatusRow } from '../persistence/index.ts';
import { ENCF_PATTERN, isUuid } from '../shared/references.ts';
import { printingOf, printingStatusOf } from './printing-status.ts';

const FINAL_OR_CANCELLED: ReadonlySet<DocumentStatus> = new Set([
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
]);

/**
 * One status result. `lastError` is the last send failure; the spec adds "the same error appears in
 * `errors`", so `errors` is `[lastError]` while there is one and `[]` otherwise (never other items).
 */
export function toStatusResult(document: TDocumentStatusRow) {
  // The last send failure matters only while the document can still move.
  const lastError = FINAL_OR_CANCELLED.has(document.status) ? null : (document.lastError ?? null);
  return {
    documentId: document.id,
    encf: document.encf,
    type: `E${document.type}`,
    status: document.status,
    trackId: document.trackId,
    securityCode: document.securityCode,
    printing: printingOf(document),
    printingStatus: printingStatusOf(document.status, document.trackId),
    lastError,
    errors: lastError === null ? [] : [lastError],
    updatedAt: document.updatedAt.toISOString(),
  };
}

/**
 * Status of up to 100 documents of one tenant and environment, by eNCF or documentId. Anything
 * not found (including other tenants' documents and malformed references) is listed in `unfound`
 * exactly as sent, in request order.
 */
export async function findDocumentStatuses(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  references: string[];
}) {
  const encfs = options.references.filter((reference) => ENCF_PATTERN.test(reference));
  const ids = options.references.filter((reference) => isUuid(reference)).map((id) => id.toLowerCase());
  const documents = await findDocumentsByReferences(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    encfs,
    ids,
  });
  const byReference = new Map<string, TDocumentStatusRow>();
  for (const document of documents) {
    byReference.set(document.encf, document);
    byReference.set(document.id, document);
  }
  const found: ReturnType<typeof toStatusResult>[] = [];
  const unfound: string[] = [];
  for (const reference of options.references) {
    const document = byReference.get(isUuid(reference) ? reference.toLowerCase() : reference);
    if (document) found.push(toStatusResult(document));
    else unfound.push(reference);
  }
  return { found, unfound };
}
