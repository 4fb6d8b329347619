/**
 * How a received e-CF and a received commercial approval (ACECF) are listed, found and downloaded:
 * one implementation for both kinds, parameterised by the kind's list, item and refusals. The
 * use-cases of each kind (`find-received-*`, `get-received-*`) name those; the API, the Partner
 * API and the portal's "Recibidos" pages call them.
 */
import type { Environment, InboundKind, TDatabase } from '@ecf/db';
import { findInboundItem, findInboundPage, type TInboundRow } from '../persistence/index.ts';
import type { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { decodeReceivedCursor, encodeReceivedCursor, receivedBindingOf } from './received-cursor.ts';
import { readKeptCopy } from './read-kept-copy.ts';
import { RECEIVED_LIST_DEFAULT_LIMIT } from '@ecf/contract';

type TReceivedScope = { database: TDatabase; tenantId: string; environment: Environment };

/** The kind's rows and the list its cursors are bound to. */
const LISTS = { ecf: 'documents', commercial_approval: 'approvals' } as const;

/**
 * A page of the kind's received rows, newest reception first, by keyset on (receivedAt, id). A
 * cursor of another list, filter set, tenant or environment, or one altered by hand, is 400
 * `INVALID_RECEIVED_DOCUMENTS_QUERY`.
 */
export async function findReceivedPage<TItem>(
  options: TReceivedScope & {
    kind: InboundKind;
    query: { cursor?: string | undefined; limit?: number | undefined } & Record<
      string,
      string | number | undefined
    >;
    cursorSecret: string;
    itemOf: (row: TInboundRow) => TItem;
  },
): Promise<{ items: TItem[]; nextCursor: string | null }> {
  const { cursor, limit, ...filters } = options.query;
  const binding = receivedBindingOf(LISTS[options.kind], options.tenantId, options.environment, filters);
  const position =
    cursor === undefined ? undefined : decodeReceivedCursor(options.cursorSecret, binding, cursor);
  const take = limit ?? RECEIVED_LIST_DEFAULT_LIMIT;
  const rows = await findInboundPage(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    kind: options.kind,
    filters,
    ...(position === undefined ? {} : { after: position }),
    take: take + 1,
  });
  const page = rows.slice(0, take);
  const last = page.at(-1);
  const nextCursor =
    rows.length > take && last
      ? encodeReceivedCursor(options.cursorSecret, binding, { receivedAt: last.receivedAt, id: last.id })
      : null;
  return { items: page.map(options.itemOf), nextCursor };
}

/** One received row of the kind in this account and environment; anything else is `notFound()`. */
export async function findReceivedRow(
  options: TReceivedScope & { kind: InboundKind; inboundDocumentId: string; notFound: () => AppError },
): Promise<TInboundRow> {
  const row = isUuid(options.inboundDocumentId)
    ? await findInboundItem(options.database, {
        tenantId: options.tenantId,
        environment: options.environment,
        kind: options.kind,
        id: options.inboundDocumentId.toLowerCase(),
      })
    : null;
  if (!row) throw options.notFound();
  return row;
}

/**
 * The kept copy of a received row, exactly as it arrived, under `fileName`: `beforeContent` runs
 * once the row is known to be this account's; no kept copy is `notAvailable()`; a copy that fails
 * its SHA-256 is 500 `RECEIVED_DOCUMENT_XML_INTEGRITY_FAILED`.
 */
export async function readReceivedXml(options: {
  database: TDatabase;
  tenantId: string;
  row: TInboundRow;
  beforeContent?: (() => void) | undefined;
  notAvailable: () => AppError;
  fileName: string;
}): Promise<{ content: Buffer; fileName: string }> {
  options.beforeContent?.();
  const content = await readKeptCopy({
    database: options.database,
    tenantId: options.tenantId,
    inboundDocumentId: options.row.id,
    artifactId: options.row.xmlArtifactId,
    notAvailable: options.notAvailable,
  });
  return { content, fileName: options.fileName };
}
