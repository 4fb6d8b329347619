import { findPendingInvitations } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { invitationOf } from './invitation.schema.ts';
import {
  ZListPendingInvitationsInput,
  ZListPendingInvitationsOutput,
} from './list-pending-invitations.schema.ts';

/** The active tenant's invitations not yet accepted (expired ones marked). */
export const listPendingInvitations = tenantProcedure('members.read')
  .input(ZListPendingInvitationsInput)
  .output(ZListPendingInvitationsOutput)
  .query(async ({ ctx }) => {
    const now = ctx.now();
    const rows = await findPendingInvitations({ database: ctx.database, tenantId: ctx.tenant.id });
    return { invitations: rows.map((row) => invitationOf(row, now)) };
  });
