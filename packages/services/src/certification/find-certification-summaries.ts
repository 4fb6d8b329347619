import type { TDatabase } from '@ecf/db';
import { findCertificationSummaryRows } from '../persistence/index.ts';

/** What an account's listing shows of its certification (Partner `fiscal-accounts`, the portal's accounts). */
export type TCertificationSummary = {
  caseId: string;
  state: string;
  step: string;
  testSetRef: string | null;
  officialSetRef: string | null;
  approvedAt: string | null;
  updatedAt: string;
};

/** The open (or last) certification case of each account, by tenant id; absent: none yet. */
export async function findCertificationSummaries(options: {
  database: TDatabase;
  tenantIds: readonly string[];
}): Promise<Map<string, TCertificationSummary>> {
  const rows = await findCertificationSummaryRows(options.database, options.tenantIds);
  return new Map(
    rows.map((row) => [
      row.tenantId,
      {
        caseId: row.id,
        state: row.state,
        step: row.step,
        testSetRef: row.testSetId,
        officialSetRef: row.officialSetRef,
        approvedAt: row.approvedAt?.toISOString() ?? null,
        updatedAt: row.updatedAt.toISOString(),
      },
    ]),
  );
}
