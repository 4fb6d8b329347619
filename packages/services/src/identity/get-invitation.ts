import type { MemberRole, TDatabase } from '@ecf/db';
import { findInvitationByTokenHash, findUserByEmail } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { hashSecretToken } from './tokens.ts';

/** What the acceptance page shows of an invitation link. */
export type TInvitationPreview = {
  email: string;
  role: MemberRole;
  tenantName: string;
  inviterName: string;
  expiresAt: Date;
  /** The address has an account: accepting means signing in with it (else: choosing a password). */
  accountExists: boolean;
};

/**
 * The invitation a link names, while it can be accepted; INVITATION_INVALID (unknown or revoked
 * token), INVITATION_ALREADY_ACCEPTED or INVITATION_EXPIRED otherwise. Whoever holds the link may
 * learn whether its address has an account: the link went to that mailbox.
 */
export async function getInvitation(options: {
  database: TDatabase;
  token: string;
  now?: () => Date;
}): Promise<TInvitationPreview & { id: string; tenantId: string }> {
  const at = (options.now ?? (() => new Date()))();
  const invitation = await findInvitationByTokenHash(options.database, hashSecretToken(options.token));
  if (invitation === null || invitation.revokedAt !== null)
    throw new AppError('INVITATION_INVALID', 'This invitation link is not valid.');
  if (invitation.acceptedAt !== null)
    throw new AppError('INVITATION_ALREADY_ACCEPTED', 'This invitation was already accepted.');
  if (invitation.expiresAt <= at)
    throw new AppError('INVITATION_EXPIRED', 'This invitation link has expired.', {
      details: { expiredAt: invitation.expiresAt.toISOString() },
    });
  return {
    id: invitation.id,
    tenantId: invitation.tenantId,
    email: invitation.email,
    role: invitation.role,
    tenantName: invitation.tenant.tradeName ?? invitation.tenant.legalName,
    inviterName: invitation.invitedBy.name,
    expiresAt: invitation.expiresAt,
    accountExists: (await findUserByEmail(options.database, invitation.email)) !== null,
  };
}
