import type { MemberRole, TDatabase } from '@ecf/db';
import { changeMembershipRole, type TMemberRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { assertCapability } from './assert-capability.ts';
import type { TPortalActor } from './permissions.ts';

/**
 * An owner gives a member another role (effective on that member's next request: sessions read
 * the role each time). LAST_OWNER when it would leave the tenant without an owner; NOT_FOUND for a
 * membership the tenant does not have.
 */
export async function changeMemberRole(options: {
  database: TDatabase;
  tenantId: string;
  actor: TPortalActor;
  membershipId: string;
  role: MemberRole;
  now?: () => Date;
}): Promise<TMemberRow> {
  assertCapability(options.actor, 'members.manage');
  if (!isUuid(options.membershipId)) throw new AppError('NOT_FOUND', 'Member not found.');
  const change = await changeMembershipRole(options.database, {
    tenantId: options.tenantId,
    membershipId: options.membershipId,
    role: options.role,
    at: (options.now ?? (() => new Date()))(),
    audit: {
      actorUserId: options.actor.userId,
      action: AUDIT_ACTIONS.MEMBER_ROLE_CHANGED,
      ip: options.actor.ip ?? null,
    },
  });
  if (change.outcome === 'not_found') throw new AppError('NOT_FOUND', 'Member not found.');
  if (change.outcome === 'last_owner')
    throw new AppError('LAST_OWNER', 'The account needs at least one owner.');
  return change.member;
}
