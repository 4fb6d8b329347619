import { revokeAllPortalSessions } from '@ecf/services';
import { authedProcedure } from '../../trpc/procedures.ts';
import { ZSignOutEverywhereInput, ZSignOutEverywhereOutput } from './sign-out-everywhere.schema.ts';

/**
 * Revokes every session of the user, this one included: every browser's next request finds none.
 * The page then clears its own cookie (next-auth's signOut).
 */
export const signOutEverywhere = authedProcedure
  .input(ZSignOutEverywhereInput)
  .output(ZSignOutEverywhereOutput)
  .mutation(({ ctx }) =>
    revokeAllPortalSessions({
      database: ctx.database,
      userId: ctx.user.id,
      ip: ctx.request.ip,
      now: ctx.now,
    }),
  );
