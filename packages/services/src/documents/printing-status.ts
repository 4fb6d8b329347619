/**
 * Whether a document's printed representation can be handed out (rule 22), and how the API says
 * so (`printing`, `printingStatus`).
 */
import type { Document, DocumentStatus } from '@ecf/db';
import { AppError } from '../shared/errors.ts';

/** Statuses in which the printed representation could be deliverable once the tax authority answers. */
const PRINTABLE_STATUSES: ReadonlySet<DocumentStatus> = new Set([
  'contingency',
  'accepted',
  'accepted_conditional',
]);
/**
 * Statuses in which the buyer gets the printed representation (the spec: accepted or
 * accepted-conditional only): the buyer e-mail is sent, and its link serves the PDF.
 */
export const BUYER_DELIVERABLE_STATUSES: ReadonlySet<DocumentStatus> = new Set([
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

/**
 * Refuses a document whose printed representation is not deliverable, with the contract's 409
 * codes: not signed, awaiting the tax authority (signed without TrackID), rejected (including the
 * RFCE summary of a consumer invoice), not transmitted, cancelled.
 */
export function assertPrintable(document: Document): void {
  const details = { documentId: document.id, status: document.status };
  switch (document.status) {
    case 'queued_for_signing':
      throw new AppError('DOCUMENT_NOT_SIGNED', `The document ${document.encf} is not signed yet.`, {
        details,
      });
    case 'rejected':
      throw new AppError(
        'RI_NOT_DELIVERABLE_REJECTED',
        `The tax authority rejected ${document.encf}: there is no printed representation.`,
        { details },
      );
    case 'transmission_failed':
      throw new AppError(
        'RI_NOT_DELIVERABLE_NOT_TRANSMITTED',
        `The document ${document.encf} could not be transmitted: there is no printed representation.`,
        { details },
      );
    case 'cancelled':
      throw new AppError(
        'RI_NOT_DELIVERABLE_CANCELLED',
        `The document ${document.encf} was cancelled by an annulment.`,
        { details },
      );
    default:
      if (!isPrintable(document)) {
        throw new AppError(
          'RI_AWAITING_TAXAUTH_RESPONSE',
          `The tax authority has not answered for ${document.encf} yet; retry later.`,
          { details },
        );
      }
  }
}
