import { getMember as getMemberUseCase } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { memberOf } from './member.schema.ts';
import { ZGetMemberInput, ZGetMemberOutput } from './get-member.schema.ts';

/** One member of the active tenant; NOT_FOUND for any other id (another tenant's member included). */
export const getMember = tenantProcedure('members.read')
  .input(ZGetMemberInput)
  .output(ZGetMemberOutput)
  .query(async ({ ctx, input }) =>
    memberOf(
      await getMemberUseCase({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        membershipId: input.membershipId,
      }),
      ctx.session.user.id,
    ),
  );
