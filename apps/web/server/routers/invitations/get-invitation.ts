import { getInvitation as getInvitationUseCase } from '@ecf/services';
import { publicProcedure } from '../../trpc/procedures.ts';
import { ZGetInvitationInput, ZGetInvitationOutput } from './get-invitation.schema.ts';

/** What an invitation link offers, for its acceptance page (INVITATION_* errors for unusable links). */
export const getInvitation = publicProcedure
  .input(ZGetInvitationInput)
  .output(ZGetInvitationOutput)
  .query(async ({ ctx, input }) => {
    const invitation = await getInvitationUseCase({
      database: ctx.database,
      token: input.token,
      now: ctx.now,
    });
    const user = ctx.session?.user;
    return {
      email: invitation.email,
      role: invitation.role,
      tenantName: invitation.tenantName,
      inviterName: invitation.inviterName,
      expiresAt: invitation.expiresAt.toISOString(),
      accountExists: invitation.accountExists,
      viewer:
        user === undefined ? 'signed_out' : user.email === invitation.email ? 'invited_user' : 'other_user',
    };
  });
