import type { TDatabase } from '@ecf/db';
import { findTenantMemberRow, type TMemberRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';

/** One member of the tenant by membership id; NOT_FOUND otherwise (another tenant's member included). */
export async function getMember(options: {
  database: TDatabase;
  tenantId: string;
  membershipId: string;
}): Promise<TMemberRow> {
  const member = isUuid(options.membershipId)
    ? await findTenantMemberRow(options.database, {
        tenantId: options.tenantId,
        membershipId: options.membershipId,
      })
    : null;
  if (member === null) throw new AppError('NOT_FOUND', 'Member not found.');
  return member;
}
