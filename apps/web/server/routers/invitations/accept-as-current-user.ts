import { acceptInvitation, switchActiveTenant, validatePortalSession, AppError } from '@ecf/services';
import { authedProcedure } from '../../trpc/procedures.ts';
import { ZAcceptAsCurrentUserInput, ZAcceptAsCurrentUserOutput } from './accept-as-current-user.schema.ts';

/**
 * The signed-in user accepts an invitation to their own address (INVITATION_EMAIL_MISMATCH
 * otherwise) and starts working in that tenant.
 */
export const acceptAsCurrentUser = authedProcedure
  .input(ZAcceptAsCurrentUserInput)
  .output(ZAcceptAsCurrentUserOutput)
  .mutation(async ({ ctx, input }) => {
    const accepted = await acceptInvitation({
      database: ctx.database,
      token: input.token,
      accepting: { kind: 'existing', userId: ctx.user.id },
      ip: ctx.request.ip,
      now: ctx.now,
    });
    // The session as it is now (with the new membership), then into the joined tenant.
    const session = await validatePortalSession({
      database: ctx.database,
      sessionId: ctx.session.sessionId,
      now: ctx.now,
    });
    if (session === null) throw new AppError('SESSION_INVALID', 'The session is no longer valid.');
    return switchActiveTenant({ database: ctx.database, session, tenantId: accepted.tenantId });
  });
