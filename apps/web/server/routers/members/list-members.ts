import { findMembers } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { memberOf } from './member.schema.ts';
import { ZListMembersInput, ZListMembersOutput } from './list-members.schema.ts';

/** The active tenant's members, owners first. Everyone in the tenant sees the list. */
export const listMembers = tenantProcedure('members.read')
  .input(ZListMembersInput)
  .output(ZListMembersOutput)
  .query(async ({ ctx }) => ({
    members: (await findMembers({ database: ctx.database, tenantId: ctx.tenant.id })).map((row) =>
      memberOf(row, ctx.session.user.id),
    ),
  }));
