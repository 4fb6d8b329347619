import { createInvitation as createInvitationUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { invitationOf } from './invitation.schema.ts';
import { ZCreateInvitationInput, ZCreateInvitationOutput } from './create-invitation.schema.ts';

/** An owner invites an address with a role; the link goes by e-mail only (ALREADY_MEMBER on `email`). */
export const createInvitation = tenantProcedure('members.manage')
  .input(ZCreateInvitationInput)
  .output(ZCreateInvitationOutput)
  .mutation(async ({ ctx, input }) => {
    const { invitation } = await createInvitationUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      actor: ctx.actor,
      email: input.email,
      role: input.role,
      mail: ctx.mail,
      now: ctx.now,
    });
    return { invitation: invitationOf(invitation, ctx.now()) };
  });
