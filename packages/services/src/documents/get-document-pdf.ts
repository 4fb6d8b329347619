import type { Document, Environment, TDatabase } from '@ecf/db';
import { getDocument } from './get-document.ts';
import { assertPrintable } from './printing-status.ts';
import { renderDocumentPdf } from './render-document-pdf.ts';

/**
 * The printed representation (PDF, letter size) of an issued e-CF, rendered from its stored signed
 * XML, with its download name `<RNCEmisor><eNCF>.pdf`. Another tenant's or environment's document
 * is NOT_FOUND; an undeliverable one is one of the 409s of {@link assertPrintable}.
 *
 * `beforeContent` runs once the document is known to be this tenant's and before the 409s and the
 * render: the API negotiates `Accept` there (404 whatever `Accept` says; no render for a refused one).
 */
export async function getDocumentPdf(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  reference: string;
  beforeContent?: (document: Document) => void;
}) {
  const document = await getDocument(options);
  options.beforeContent?.(document);
  assertPrintable(document);
  const pdf = await renderDocumentPdf({ database: options.database, document });
  return { ...pdf, document };
}
