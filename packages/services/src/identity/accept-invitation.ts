import type { MemberRole, TDatabase } from '@ecf/db';
import { acceptInvitationRow, findUserById } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { getInvitation } from './get-invitation.ts';
import { hashPassword } from './passwords.ts';

/**
 * Accepts an invitation link, once:
 * - `{ kind: 'new', name, password }`: a person without an account creates one for the invited
 *   address (ACCOUNT_EXISTS, nothing written, when the address has one: sign in and accept);
 * - `{ kind: 'existing', userId }`: the signed-in user, whose e-mail must be the invited address
 *   (INVITATION_EMAIL_MISMATCH otherwise).
 * The membership, the user (when new), the invitation's acceptance and the audit entry commit
 * together; of concurrent acceptances of one link exactly one succeeds, the others get
 * INVITATION_ALREADY_ACCEPTED.
 */
export async function acceptInvitation(options: {
  database: TDatabase;
  token: string;
  accepting: { kind: 'new'; name: string; password: string } | { kind: 'existing'; userId: string };
  ip?: string | null;
  now?: () => Date;
}): Promise<{ userId: string; email: string; tenantId: string; role: MemberRole; membershipId: string }> {
  const { database, accepting } = options;
  const now = options.now ?? (() => new Date());
  const invitation = await getInvitation({ database, token: options.token, now });
  if (accepting.kind === 'existing') {
    const user = await findUserById(database, accepting.userId);
    if (user === null || user.email !== invitation.email)
      throw new AppError('INVITATION_EMAIL_MISMATCH', 'This invitation is for another e-mail address.');
    // Operator staff read every tenant as support; they are never one of its members.
    if (user.isSupport)
      throw new AppError('FORBIDDEN', 'Support users cannot become tenant members.', {
        details: { capability: 'members.join' },
      });
  } else if (invitation.accountExists)
    throw new AppError('ACCOUNT_EXISTS', 'This address has an account: sign in to accept.', {
      details: { reason: 'account_exists' },
    });
  const result = await acceptInvitationRow(database, {
    invitationId: invitation.id,
    accepting:
      accepting.kind === 'existing'
        ? { kind: 'existing', userId: accepting.userId }
        : { kind: 'new', name: accepting.name.trim(), passwordHash: await hashPassword(accepting.password) },
    at: now(),
    audit: { action: AUDIT_ACTIONS.INVITATION_ACCEPTED, ip: options.ip ?? null },
  });
  if (result.outcome === 'account_exists')
    throw new AppError('ACCOUNT_EXISTS', 'This address has an account: sign in to accept.', {
      details: { reason: 'account_exists' },
    });
  if (result.outcome === 'not_pending') {
    // Someone else's acceptance (or a revocation, or the clock) came first: say which.
    await getInvitation({ database, token: options.token, now });
    throw new AppError('INVITATION_ALREADY_ACCEPTED', 'This invitation was already accepted.');
  }
  return {
    userId: result.user.id,
    email: result.user.email,
    tenantId: result.tenantId,
    role: result.role,
    membershipId: result.membershipId,
  };
}
