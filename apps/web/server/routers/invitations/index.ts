import { createRouter } from '../../trpc/init.ts';
import { acceptAsCurrentUser } from './accept-as-current-user.ts';
import { acceptAsNewUser } from './accept-as-new-user.ts';
import { createInvitation } from './create-invitation.ts';
import { getInvitation } from './get-invitation.ts';
import { listPendingInvitations } from './list-pending-invitations.ts';
import { revokeInvitation } from './revoke-invitation.ts';

/** Invitations: owners invite and revoke; the link's holder sees and accepts it. */
export const invitationsRouter = createRouter({
  create: createInvitation,
  listPending: listPendingInvitations,
  revoke: revokeInvitation,
  get: getInvitation,
  acceptAsNewUser,
  acceptAsCurrentUser,
});
