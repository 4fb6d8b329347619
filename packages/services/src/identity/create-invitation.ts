import type { MemberRole, TDatabase } from '@ecf/db';
import {
  findTenant,
  insertInvitation,
  isTenantMemberEmail,
  type TInvitationRow,
} from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { AUDIT_ACTIONS } from '../audit/index.ts';
import { assertCapability } from './assert-capability.ts';
import { composeInvitationEmail, portalLink, sendPortalEmail, type TPortalMail } from './identity-emails.ts';
import type { TPortalActor } from './permissions.ts';
import { INVITATION_TTL_SECONDS } from './sign-in-policy.ts';
import { createSecretToken, hashSecretToken, normalizeEmail } from './tokens.ts';

/**
 * An owner invites an e-mail address to the tenant with a role. The token exists only in the
 * e-mailed link (`{portal}/invitations/accept?token=...`; the database keeps its SHA-256), is
 * single use and expires after 7 days; a new invitation to the same address replaces the pending
 * one. ALREADY_MEMBER when the address is a member already. The invitation is stored (with its
 * audit entry) before the e-mail is sent: an SMTP failure throws and the owner can send it again.
 */
export async function createInvitation(options: {
  database: TDatabase;
  tenantId: string;
  actor: TPortalActor;
  email: string;
  role: MemberRole;
  mail: TPortalMail;
  now?: () => Date;
}): Promise<{ invitation: TInvitationRow }> {
  const { database, actor } = options;
  assertCapability(actor, 'members.manage');
  const at = (options.now ?? (() => new Date()))();
  const email = normalizeEmail(options.email);
  const tenant = await findTenant(database, { id: options.tenantId });
  if (tenant === null) throw new AppError('NOT_FOUND', 'Tenant not found.');
  if (await isTenantMemberEmail(database, { tenantId: tenant.id, email }))
    throw new AppError('ALREADY_MEMBER', 'This address already belongs to a member.', {
      details: { field: 'email' },
    });
  const token = createSecretToken();
  const expiresAt = new Date(at.getTime() + INVITATION_TTL_SECONDS * 1000);
  const invitation = await insertInvitation(database, {
    tenantId: tenant.id,
    email,
    role: options.role,
    tokenHash: hashSecretToken(token),
    invitedById: actor.userId,
    at,
    expiresAt,
    audit: { action: AUDIT_ACTIONS.MEMBER_INVITED, ip: actor.ip ?? null },
  });
  const message = composeInvitationEmail({
    tenantName: tenant.tradeName ?? tenant.legalName,
    inviterName: invitation.invitedBy.name,
    role: options.role,
    link: portalLink(options.mail, '/invitations/accept', token),
    expiresAt,
  });
  await sendPortalEmail(options.mail, { to: email, ...message });
  return { invitation };
}
