import { removeMember as removeMemberUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { ZRemoveMemberInput, ZRemoveMemberOutput } from './remove-member.schema.ts';

/** An owner removes a member; the member's sessions lose the tenant at once. */
export const removeMember = tenantProcedure('members.manage')
  .input(ZRemoveMemberInput)
  .output(ZRemoveMemberOutput)
  .mutation(async ({ ctx, input }) => {
    const removal = await removeMemberUseCase({
      database: ctx.database,
      tenantId: ctx.tenant.id,
      actor: ctx.actor,
      membershipId: input.membershipId,
      now: ctx.now,
    });
    return { removed: true as const, sessionsDetached: removal.sessionsDetached };
  });
