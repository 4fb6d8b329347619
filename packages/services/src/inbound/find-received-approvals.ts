import type { Environment, TDatabase } from '@ecf/db';
import { findInboundPage } from '../persistence/index.ts';
import { decodeReceivedCursor, encodeReceivedCursor, receivedBindingOf } from './received-cursor.ts';
import { toReceivedApproval } from './received-items.ts';
import { RECEIVED_LIST_DEFAULT_LIMIT, type TReceivedApprovalListQuery } from './received-query.ts';

/**
 * Commercial approvals (ACECF) customers sent on this account's e-CF in one environment, newest
 * reception first (keyset on receivedAt, id), refused ones (`rejected`, `duplicate`) included.
 */
export async function findReceivedApprovals(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  query: TReceivedApprovalListQuery;
  cursorSecret: string;
}) {
  const { cursor, limit, ...filters } = options.query;
  const binding = receivedBindingOf('approvals', options.tenantId, options.environment, filters);
  const position =
    cursor === undefined ? undefined : decodeReceivedCursor(options.cursorSecret, binding, cursor);
  const take = limit ?? RECEIVED_LIST_DEFAULT_LIMIT;
  const rows = await findInboundPage(options.database, {
    tenantId: options.tenantId,
    environment: options.environment,
    kind: 'commercial_approval',
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
  return { items: page.map(toReceivedApproval), nextCursor };
}
