import type { Environment, TDatabase } from '@ecf/db';
import { AppError } from './errors.ts';
import { getDocument, isPrintable } from './document-references.ts';

/**
 * The printed representation (PDF) of an issued e-CF. The 409 answers of the contract are given
 * already; rendering arrives with the printed-representation capability (until then 501).
 */
export async function getDocumentPdf(options: { database: TDatabase; tenantId: string; environment: Environment; reference: string }): Promise<never> {
  const document = await getDocument(options);
  const details = { documentId: document.id, status: document.status };
  switch (document.status) {
    case 'queued_for_signing':
      throw new AppError('DOCUMENT_NOT_SIGNED', `The document ${document.encf} is not signed yet.`, { details });
    case 'rejected':
      throw new AppError('RI_NOT_DELIVERABLE_REJECTED', `The tax authority rejected ${document.encf}: there is no printed representation.`, { details });
    case 'transmission_failed':
      throw new AppError('RI_NOT_DELIVERABLE_NOT_TRANSMITTED', `The document ${document.encf} could not be transmitted: there is no printed representation.`, { details });
    case 'cancelled':
      throw new AppError('RI_NOT_DELIVERABLE_CANCELLED', `The document ${document.encf} was cancelled by an annulment.`, { details });
    default:
      if (!isPrintable(document)) {
        throw new AppError('RI_AWAITING_TAXAUTH_RESPONSE', `The tax authority has not answered for ${document.encf} yet; retry later.`, { details });
      }
      throw new AppError('NOT_IMPLEMENTED', 'PDF rendering of the printed representation is not available in this version yet.', { details });
  }
}
