import type { TDatabase } from '@ecf/db';
import { deleteMembership, type TMemberRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { assertCapability } from './assert-capability.ts';
import type { TPortalActor } from './permissions.ts';

/**
 * An owner removes a member. It takes effect at once: the membership goes and every session of
 * that user loses the tenant in the same transaction (their next request, of any kind, has no
 * access to it). LAST_OWNER for the tenant's only owner; NOT_FOUND for a membership the tenant
 * does not have. An owner may remove themself when another owner remains.
 */
export async function removeMember(options: {
  database: TDatabase;
  tenantId: string;
  actor: TPortalActor;
  membershipId: string;
  now?: () => Date;
}): Promise<{ member: TMemberRow; sessionsDetached: number }> {
  assertCapability(options.actor, 'members.manage');
  if (!isUuid(options.membershipId)) throw new AppError('NOT_FOUND', 'Member not found.');
  const removal = await deleteMembership(options.database, {
    tenantId: options.tenantId,
    membershipId: options.membershipId,
    at: (options.now ?? (() => new Date()))(),
    audit: {
      actorUserId: options.actor.userId,
      action: AUDIT_ACTIONS.MEMBER_REMOVED,
      ip: options.actor.ip ?? null,
    },
  });
  if (removal.outcome === 'not_found') throw new AppError('NOT_FOUND', 'Member not found.');
  if (removal.outcome === 'last_owner')
    throw new AppError('LAST_OWNER', 'The account needs at least one owner.');
  return { member: removal.member, sessionsDetached: removal.sessionsDetached };
}
