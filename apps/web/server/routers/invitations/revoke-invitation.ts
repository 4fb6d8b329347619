import { revokeInvitation as revokeInvitationUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZRevokeInvitationInput, ZRevokeInvitationOutput } from './revoke-invitation.schema.ts';

/** An owner revokes a pending invitation of the active tenant (NOT_FOUND for any other). */
export const revokeInvitation = tenantProcedure('members.manage')
  .input(ZRevokeInvitationInput)
  .output(ZRevokeInvitationOutput)
  .mutation(({ ctx, input }) =>
    revokeInvitationUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      actor: ctx.actor,
      invitationId: input.invitationId,
      now: ctx.now,
    }),
  );
