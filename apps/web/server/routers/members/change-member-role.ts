import { changeMemberRole as changeMemberRoleUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { memberOf } from './member.schema.ts';
import { ZChangeMemberRoleInput, ZChangeMemberRoleOutput } from './change-member-role.schema.ts';

/** An owner gives a member another role (LAST_OWNER when the tenant would have no owner left). */
export const changeMemberRole = tenantProcedure('members.manage')
  .input(ZChangeMemberRoleInput)
  .output(ZChangeMemberRoleOutput)
  .mutation(async ({ ctx, input }) =>
    memberOf(
      await changeMemberRoleUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        actor: ctx.actor,
        membershipId: input.membershipId,
        role: input.role,
        now: ctx.now,
      }),
      ctx.session.user.id,
    ),
  );
