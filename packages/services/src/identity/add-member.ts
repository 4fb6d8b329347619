import { sqlPoolOf, type MemberRole, type TDatabase } from '@ecf/db';
import { findUserByEmail, insertMembership } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { normalizeEmail } from './tokens.ts';

/**
 * Makes a user a member of a tenant directly (the operator's tools: a tenant's first owner, the
 * demo); members invite everyone else. The user is named by id or by e-mail (NOT_FOUND when the
 * address has no account). An existing membership keeps its role (`created: false`).
 */
export async function addMember(
  options: {
    database: TDatabase;
    tenantId: string;
    role: MemberRole;
    now?: () => Date;
  } & ({ userId: string } | { email: string }),
): Promise<{ created: boolean; membershipId: string; userId: string }> {
  let userId: string;
  if ('userId' in options) userId = options.userId;
  else {
    const user = await findUserByEmail(options.database, normalizeEmail(options.email));
    if (user === null) throw new AppError('NOT_FOUND', `No portal user has the address ${options.email}.`);
    userId = user.id;
  }
  const inserted = await insertMembership(sqlPoolOf(options.database), {
    tenantId: options.tenantId,
    userId,
    role: options.role,
    at: (options.now ?? (() => new Date()))(),
  });
  return { ...inserted, userId };
}
