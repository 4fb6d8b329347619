import type { AnnulmentState, Environment, TDatabase } from '@ecf/db';
import { findAnnulmentPage } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { annulmentViewOf, type TAnnulmentView } from './annulment-model.ts';

/** Page sizes of the annulment list (the documents list's: 1 to 100, 50 by default). */
export const ANNULMENT_PAGE_DEFAULT = 50;
export const ANNULMENT_PAGE_MAX = 100;

/** One line of the list: the annulment without its covered documents (their counts instead). */
export type TAnnulmentSummary = Omit<TAnnulmentView, 'coveredDocuments'> & {
  coveredCounts: { cancelled: number; skipped: number };
};

export type TAnnulmentPage = { items: TAnnulmentSummary[]; nextCursor: string | null };

type TCursor = { createdAt: Date; id: string; status: AnnulmentState | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(cursor: TCursor): string {
  return Buffer.from(
    JSON.stringify({ c: cursor.createdAt.toISOString(), i: cursor.id, s: cursor.status }),
  ).toString('base64url');
}

function invalidCursor(message: string): AppError {
  return new AppError('INVALID_REQUEST', message, {
    details: { issues: [{ path: 'cursor', code: 'CURSOR_INVALID', message }] },
  });
}

/** The cursor of an earlier page; refused when malformed or taken with another status filter. */
function decodeCursor(text: string, status: AnnulmentState | null): TCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor('The cursor is not one this list gave.');
  }
  const { c, i, s } = (parsed ?? {}) as { c?: unknown; i?: unknown; s?: unknown };
  const createdAt = typeof c === 'string' ? new Date(c) : new Date(Number.NaN);
  if (Number.isNaN(createdAt.getTime()) || typeof i !== 'string' || !UUID.test(i))
    throw invalidCursor('The cursor is not one this list gave.');
  if ((s ?? null) !== status)
    throw invalidCursor('The cursor belongs to another status filter: follow it with the same filter.');
  return { createdAt, id: i, status };
}

/**
 * `GET /{environment}/anulaciones-ecf` (ours; the portal's list): the tenant's annulments in the
 * environment, newest first, optionally of one status; follow `nextCursor` (with the same filter)
 * until null. Covered documents are counted here; `getAnnulment` lists them.
 */
export async function listAnnulments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  status?: AnnulmentState | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}): Promise<TAnnulmentPage> {
  const status = options.status ?? null;
  const limit = Math.min(
    Math.max(Math.trunc(options.limit ?? ANNULMENT_PAGE_DEFAULT), 1),
    ANNULMENT_PAGE_MAX,
  );
  const after = options.cursor === undefined ? undefined : decodeCursor(options.cursor, status);
  const rows = await findAnnulmentPage(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    status: status ?? undefined,
    after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => {
      const { coveredDocuments, ...view } = annulmentViewOf(row);
      return {
        ...view,
        coveredCounts: {
          cancelled: coveredDocuments.cancelled.length,
          skipped: coveredDocuments.skipped.length,
        },
      };
    }),
    nextCursor:
      rows.length > limit && last !== undefined
        ? encodeCursor({ createdAt: last.createdAt, id: last.id, status })
        : null,
  };
}
