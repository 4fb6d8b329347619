import type { Document, Environment, TDatabase } from '@ecf/db';
import { findIssuedDocumentsPage, type TIssuedFilters } from '../persistence/index.ts';
import { bindingOf, decodeCursor, encodeCursor } from './issued-cursor.ts';
import { printingOf, printingStatusOf } from './printing-status.ts';

/** Filters of the issued list, already parsed (dates `YYYY-MM-DD`, type as its two digits). */
export type TIssuedDocumentFilters = TIssuedFilters;

/** One item of the issued list. */
export function toIssuedDocument(document: Document) {
  return {
    documentId: document.id,
    encf: document.encf,
    type: `E${document.type}`,
    status: document.status,
    format: document.format,
    issueDate: document.issueDate.toISOString().slice(0, 10),
    totalAmount: document.totalAmount.toFixed(2),
    buyerRnc: document.buyerRnc,
    trackId: document.trackId,
    securityCode: document.securityCode,
    printing: printingOf(document),
    printingStatus: printingStatusOf(document.status, document.trackId),
    submittedAt: document.submittedAt.toISOString(),
    updatedAt: document.updatedAt.toISOString(),
  };
}

/**
 * Issued e-CF of a tenant in one environment, newest submission first, by keyset on
 * (submittedAt, id): documents arriving while a client pages never shift or repeat its pages.
 * Preflights are never stored, so never listed. A cursor of another filter set, tenant or
 * environment, or one altered by hand, is 400 `INVALID_ISSUED_DOCUMENTS_QUERY`.
 */
export async function findIssuedDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  filters: TIssuedDocumentFilters;
  limit: number;
  cursor?: string | undefined;
  cursorSecret: string;
}) {
  const { filters } = options;
  const binding = bindingOf(options.tenantId, options.environment, filters);
  const position =
    options.cursor === undefined ? undefined : decodeCursor(options.cursorSecret, binding, options.cursor);
  const rows = await findIssuedDocumentsPage(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    filters,
    ...(position === undefined ? {} : { after: position }),
    take: options.limit + 1,
  });
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > options.limit && last
      ? encodeCursor(options.cursorSecret, binding, { submittedAt: last.submittedAt, id: last.id })
      : null;
  return { items: page.map(toIssuedDocument), nextCursor };
}
