import type { Document, DocumentStatus, Environment, TDatabase } from '@ecf/db';
import { AppError } from './errors.ts';
import { isUuid } from './references.ts';

/** An eNCF: `E`, the two-digit type and ten digits. */
export const ENCF_PATTERN = /^E\d{12}$/;

/** Statuses in which the printed representation could be deliverable once the tax authority answers. */
const PRINTABLE_STATUSES: ReadonlySet<DocumentStatus> = new Set([
  'contingency',
  'accepted',
  'accepted_conditional',
]);
const NEVER_PRINTABLE: ReadonlySet<DocumentStatus> = new Set([
  'rejected',
  'cancelled',
  'transmission_failed',
]);

/**
 * Rule 22: the printed representation is deliverable when the tax authority returned the e-CF's
 * TrackID, accepted the document (or the RFCE summary of a consumer invoice), or when the document
 * went to contingency. Signing alone is not enough.
 */
export function isPrintable(document: Pick<Document, 'status' | 'trackId'>): boolean {
  if (PRINTABLE_STATUSES.has(document.status)) return true;
  return document.trackId !== null && !NEVER_PRINTABLE.has(document.status);
}

/**
 * `printing` of a document: null until deliverable. `pdfUrl` is the API path of the PDF route
 * (relative to the service base address), null in CerteCF where no PDF is handed to buyers.
 */
export function printingOf(
  document: Pick<
    Document,
    'id' | 'environment' | 'status' | 'trackId' | 'securityCode' | 'qrUrl' | 'signatureDate'
  >,
) {
  if (!isPrintable(document)) return null;
  return {
    pdfUrl:
      document.environment === 'CerteCF'
        ? null
        : `/${document.environment}/documentos-ecf/${document.id}/pdf`,
    securityCode: document.securityCode,
    qrUrl: document.qrUrl,
    signatureDate: document.signatureDate?.toISOString() ?? null,
  };
}

/**
 * Resolves a `documentReference` (documentId or eNCF) within one tenant and environment. Another
 * tenant's or environment's document is NOT_FOUND, exactly like an absent one.
 */
export async function getDocument(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  reference: string;
}): Promise<Document> {
  const { reference } = options;
  const scope = { tenantId: options.tenantId, environment: options.environment };
  let document: Document | null;
  if (isUuid(reference)) {
    document = await options.database.document.findFirst({
      where: { ...scope, id: reference.toLowerCase() },
    });
  } else if (ENCF_PATTERN.test(reference)) {
    document = await options.database.document.findFirst({ where: { ...scope, encf: reference } });
  } else {
    throw new AppError(
      'INVALID_DOCUMENT_REFERENCE',
      'documentReference must be a documentId (UUID) or an eNCF (E + 12 digits).',
      {
        details: { reference: reference.slice(0, 64) },
      },
    );
  }
  if (!document) {
    throw new AppError('NOT_FOUND', `No document ${reference.slice(0, 64)} in ${options.environment}.`, {
      details: { reference: reference.slice(0, 64) },
    });
  }
  return document;
}
