import type { TDatabase } from '@ecf/db';
import { findDocumentById } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { BUYER_DELIVERABLE_STATUSES } from './printing-status.ts';
import { renderDocumentPdf, type TPrintedPdf } from './render-document-pdf.ts';
import { checkRiLinkToken } from './ri-link.ts';

/**
 * `GET /ri/{token}`: the PDF of the document a genuine, unexpired link names, while that document
 * is accepted or accepted-conditional. Refusals are AppErrors the route answers in plain text:
 * `RI_LINK_INVALID` (malformed, tampered, unknown document or environment), `RI_LINK_EXPIRED`,
 * `RI_NOT_DELIVERABLE` (the document is in any other state now).
 */
export async function getPdfByRiLink(options: {
  database: TDatabase;
  token: string;
  linkSecret: string;
  now: Date;
}): Promise<TPrintedPdf & { documentId: string }> {
  const check = checkRiLinkToken(options.token, options.linkSecret, options.now);
  if (check.status === 'invalid') throw new AppError('RI_LINK_INVALID', 'This link is not valid.');
  if (check.status === 'expired')
    throw new AppError('RI_LINK_EXPIRED', 'This link has expired.', {
      details: { expiresAt: check.payload.expiresAt.toISOString() },
    });
  const document = await findDocumentById(options.database, check.payload.documentId);
  if (!document || document.environment !== check.payload.environment)
    throw new AppError('RI_LINK_INVALID', 'This link is not valid.');
  if (!BUYER_DELIVERABLE_STATUSES.has(document.status))
    throw new AppError('RI_NOT_DELIVERABLE', 'This document is not available.', {
      details: { status: document.status },
    });
  const pdf = await renderDocumentPdf({ database: options.database, document });
  return { ...pdf, documentId: document.id };
}
