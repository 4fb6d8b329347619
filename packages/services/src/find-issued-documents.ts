import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Document, DocumentStatus, Environment, Prisma, TDatabase } from '@ecf/db';
import { AppError } from './errors.ts';
import { printingOf } from './document-references.ts';
import { printingStatusOf } from './find-document-statuses.ts';
import { isUuid } from './references.ts';

/** Filters of the issued list, already parsed (dates `YYYY-MM-DD`, type as its two digits). */
export type TIssuedDocumentFilters = {
  issueDateFrom?: string | undefined;
  issueDateTo?: string | undefined;
  type?: number | undefined;
  status?: DocumentStatus | undefined;
};

type TCursor = { submittedAt: Date; id: string };

function invalidQuery(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('INVALID_ISSUED_DOCUMENTS_QUERY', message, { details });
}

/** What a cursor is bound to: the tenant, the environment and the filter set (not the page size). */
function bindingOf(tenantId: string, environment: Environment, filters: TIssuedDocumentFilters): string {
  const canonical = JSON.stringify([
    tenantId,
    environment,
    filters.issueDateFrom ?? null,
    filters.issueDateTo ?? null,
    filters.type ?? null,
    filters.status ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

function sign(secret: string, payload: string, binding: string): Buffer {
  return createHmac('sha256', secret).update(`${payload}.${binding}`).digest();
}

/** An opaque cursor: the keyset position (submittedAt, id) and an HMAC over it and the binding. */
export function encodeCursor(secret: string, binding: string, position: TCursor): string {
  const payload = Buffer.from(JSON.stringify([position.submittedAt.toISOString(), position.id])).toString(
    'base64url',
  );
  return `${payload}.${sign(secret, payload, binding).toString('base64url')}`;
}

function decodeCursor(secret: string, binding: string, cursor: string): TCursor {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined)
    throw invalidQuery('The cursor is malformed; repeat the request with nextCursor exactly as received.', {
      reason: 'cursor_malformed',
    });
  const expected = sign(secret, payload, binding);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalidQuery('The cursor was not issued for this query: keep the same filters while paging.', {
      reason: 'cursor_mismatch',
    });
  }
  try {
    const [submittedAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [
      string,
      string,
    ];
    const date = new Date(submittedAt);
    if (Number.isNaN(date.getTime()) || !isUuid(id)) throw new Error('bad position');
    return { submittedAt: date, id };
  } catch {
    throw invalidQuery('The cursor is malformed.', { reason: 'cursor_malformed' });
  }
}

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
  const where: Prisma.DocumentWhereInput = {
    tenantId: options.tenantId,
    environment: options.environment,
    ...(filters.type === undefined ? {} : { type: filters.type }),
    ...(filters.status === undefined ? {} : { status: filters.status }),
    ...(filters.issueDateFrom || filters.issueDateTo
      ? {
          issueDate: {
            ...(filters.issueDateFrom ? { gte: new Date(`${filters.issueDateFrom}T00:00:00Z`) } : {}),
            ...(filters.issueDateTo ? { lte: new Date(`${filters.issueDateTo}T00:00:00Z`) } : {}),
          },
        }
      : {}),
    ...(position
      ? {
          OR: [
            { submittedAt: { lt: position.submittedAt } },
            { submittedAt: position.submittedAt, id: { lt: position.id } },
          ],
        }
      : {}),
  };
  const rows = await options.database.document.findMany({
    where,
    orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
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
