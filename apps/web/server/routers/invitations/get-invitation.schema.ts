import { z } from 'zod';
import { MEMBER_ROLES, ZLinkToken } from '../../../lib/schemas.ts';

export const ZGetInvitationInput = z.object({ token: ZLinkToken });
export const ZGetInvitationOutput = z.object({
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  tenantName: z.string(),
  inviterName: z.string(),
  expiresAt: z.iso.datetime(),
  accountExists: z.boolean(),
  /** How the signed-in user (if any) relates to the invitation. */
  viewer: z.enum(['signed_out', 'invited_user', 'other_user']),
});
