import type { Environment, TDatabase } from '@ecf/db';
import type { TReceivedApprovalListQuery } from '@ecf/contract';
import { toReceivedApproval } from './received-items.ts';
import { findReceivedPage } from './received-lookups.ts';

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
  return findReceivedPage({ ...options, kind: 'commercial_approval', itemOf: toReceivedApproval });
}
