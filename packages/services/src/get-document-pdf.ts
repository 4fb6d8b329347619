import type { Document, Environment, TDatabase } from '@ecf/db';
import { AppError } from './errors.ts';
import { getDocument, isPrintable } from './document-references.ts';
import { renderDocumentPdf } from './printed-representation.ts';

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

/**
 * The printed representation (PDF, letter size) of an issued e-CF, rendered from its stored signed
 * XML, with its download name `<RNCEmisor><eNCF>.pdf`. Another tenant's or environment's document
 * is NOT_FOUND; an undeliverable one is one of the 409s of {@link assertPrintable}.
 */
export async function getDocumentPdf(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  reference: string;
}) {
  const document = await getDocument(options);
  assertPrintable(document);
  const pdf = await renderDocumentPdf(options.database, document);
  return { ...pdf, document };
}
