import type { Environment, TDatabase } from '@ecf/db';
import { findInboundPage } from '../persistence/index.ts';
import { decodeReceivedCursor, encodeReceivedCursor, receivedBindingOf } from './received-cursor.ts';
import { toReceivedDocument } from './received-items.ts';
import { RECEIVED_LIST_DEFAULT_LIMIT, type TReceivedListQuery } from './received-query.ts';

/**
 * e-CF suppliers sent to this account in one environment (received or refused at reception; never
 * ACECF), newest reception first, by keyset on (receivedAt, id). A cursor of another filter set,
 * tenant or environment, or one altered by hand, is 400 `INVALID_RECEIVED_DOCUMENTS_QUERY`.
 */
export async function findReceivedDocuments(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  query: TReceivedListQuery;
  cursorSecret: string;
}) {
  const { cursor, limit, ...filters } = options.query;
  const binding = receivedBindingOf('documents', options.tenantId, options.environment, filters);
  const position =
    cursor === undefined ? undefined : decodeReceivedCursor(options.cursorSecret, binding, cursor);
  const take = limit ?? RECEIVED_LIST_DEFAULT_LIMIT;
  const rows = await findInboundPage(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    kind: 'ecf',
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
  return { items: page.map(toReceivedDocument), nextCursor };
}
