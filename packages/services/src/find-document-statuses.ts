import type { Document, DocumentStatus, Environment, TDatabase } from '@ecf/db';
import { isPrintable, printingOf } from './document-references.ts';
import { isUuid } from './references.ts';

const FINAL_OR_CANCELLED: ReadonlySet<DocumentStatus> = new Set([
  'accepted',
  'accepted_conditional',
  'rejected',
  'cancelled',
]);
const ENCF = /^E\d{12}$/;

/**
 * Why the printed representation is or is not deliverable yet: `deliverable` once the tax
 * authority returned the TrackID, accepted, or the document is in contingency (rule 22).
 */
export function printingStatusOf(status: DocumentStatus, trackId: string | null = null): string {
  if (trackId !== null && isPrintable({ status, trackId })) return 'deliverable';
  switch (status) {
    case 'queued_for_signing':
      return 'awaiting_signature';
    case 'signed':
    case 'sent':
      return 'awaiting_taxauth_response';
    case 'contingency':
    case 'accepted':
    case 'accepted_conditional':
      return 'deliverable';
    case 'rejected':
      return 'not_deliverable_rejected';
    case 'transmission_failed':
      return 'not_deliverable_not_transmitted';
    case 'cancelled':
      return 'not_deliverable_cancelled';
  }
}

export function toStatusResult(document: Document) {
  return {
    documentId: document.id,
    encf: document.encf,
    type: `E${document.type}`,
    status: document.status,
    trackId: document.trackId,
    securityCode: document.securityCode,
    printing: printingOf(document),
    printingStatus: printingStatusOf(document.status, document.trackId),
    // The last send failure matters only while the document can still move.
    lastError: FINAL_OR_CANCELLED.has(document.status) ? null : (document.lastError ?? null),
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
  const encfs = options.references.filter((reference) => ENCF.test(reference));
  const ids = options.references.filter((reference) => isUuid(reference)).map((id) => id.toLowerCase());
  const documents =
    encfs.length + ids.length === 0
      ? []
      : await options.database.document.findMany({
          where: {
            tenantId: options.tenantId,
            environment: options.environment,
            OR: [{ encf: { in: encfs } }, { id: { in: ids } }],
          },
        });
  const byReference = new Map<string, Document>();
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
