import { createRouter } from '../../trpc/init.ts';
import { changeMemberRole } from './change-member-role.ts';
import { getMember } from './get-member.ts';
import { listMembers } from './list-members.ts';
import { removeMember } from './remove-member.ts';

/** The active tenant's members: everyone reads, owners change roles and remove. */
export const membersRouter = createRouter({
  list: listMembers,
  get: getMember,
  changeRole: changeMemberRole,
  remove: removeMember,
});
