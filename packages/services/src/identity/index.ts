/**
 * Identity: the portal's users, sessions and roles. Passwords (argon2id), sign-in with brute-force
 * protection, portal sessions checked on every request, invitations and password resets by e-mail
 * link, members and their roles, and THE permission table every portal permission is decided by.
 */
export {
  CAPABILITIES,
  MEMBER_ROLES,
  SUPPORT_ACTIONS,
  SUPPORT_READS,
  capabilitiesOf,
  grantableScopes,
  hasCapability,
  hasPartnerCapability,
  PARTNER_CAPABILITIES,
  PARTNER_ROLES,
  partnerCapabilitiesOf,
  type TCapability,
  type TPartnerCapability,
  type TPartnerRole,
  type TPortalActor,
  type TPrincipal,
} from './permissions.ts';
export { assertCapability } from './assert-capability.ts';
export { hashPassword, verifyPassword, PASSWORD_MAX_LENGTH } from './passwords.ts';
export {
  DEFAULT_SESSION_TTL_SECONDS,
  DEFAULT_SIGN_IN_POLICY,
  INVITATION_TTL_SECONDS,
  PASSWORD_RESET_TTL_SECONDS,
  lockSecondsAfter,
  type TSignInPolicy,
} from './sign-in-policy.ts';
export { normalizeEmail } from './tokens.ts';
export type { TPortalMail } from './identity-emails.ts';
export { signIn, type TSignedIn } from './sign-in.ts';
export { validatePortalSession, type TPortalSession } from './validate-portal-session.ts';
export { revokePortalSession } from './revoke-portal-session.ts';
export { revokeAllPortalSessions } from './revoke-all-portal-sessions.ts';
export { switchActiveTenant } from './switch-active-tenant.ts';
export { createInvitation } from './create-invitation.ts';
export { getInvitation, type TInvitationPreview } from './get-invitation.ts';
export { acceptInvitation } from './accept-invitation.ts';
export { findPendingInvitations } from './find-pending-invitations.ts';
export { revokeInvitation } from './revoke-invitation.ts';
export { requestPasswordReset } from './request-password-reset.ts';
export { completePasswordReset } from './complete-password-reset.ts';
export { findMembers } from './find-members.ts';
export { getMember } from './get-member.ts';
export { changeMemberRole } from './change-member-role.ts';
export { removeMember } from './remove-member.ts';
export { createUser } from './create-user.ts';
export { addMember } from './add-member.ts';
export { setUserPassword } from './set-user-password.ts';
export type { TInvitationRow, TMemberRow, TUserTenantRow } from '../persistence/index.ts';
