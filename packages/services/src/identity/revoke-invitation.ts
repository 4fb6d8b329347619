import type { TDatabase } from '@ecf/db';
import { revokeInvitationRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { isUuid } from '../shared/references.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { assertCapability } from './assert-capability.ts';
import type { TPortalActor } from './permissions.ts';

/** An owner revokes a pending invitation of the tenant; NOT_FOUND for anything else (another tenant's included). */
export async function revokeInvitation(options: {
  database: TDatabase;
  tenantId: string;
  actor: TPortalActor;
  invitationId: string;
  now?: () => Date;
}): Promise<{ revoked: true }> {
  assertCapability(options.actor, 'members.manage');
  const revoked =
    isUuid(options.invitationId) &&
    (await revokeInvitationRow(options.database, {
      tenantId: options.tenantId,
      invitationId: options.invitationId,
      at: (options.now ?? (() => new Date()))(),
      audit: {
        actorUserId: options.actor.userId,
        action: AUDIT_ACTIONS.INVITATION_REVOKED,
        ip: options.actor.ip ?? null,
      },
    }));
  if (!revoked) throw new AppError('NOT_FOUND', 'Invitation not found.');
  return { revoked: true };
}
