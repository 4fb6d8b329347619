import type { Environment, TDatabase } from '@ecf/db';
import type { TReceivedListQuery } from '@ecf/contract';
import { toReceivedDocument } from './received-items.ts';
import { findReceivedPage } from './received-lookups.ts';

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
  return findReceivedPage({ ...options, kind: 'ecf', itemOf: toReceivedDocument });
}
