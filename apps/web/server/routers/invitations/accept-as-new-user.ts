import { acceptInvitation } from '@ecf/services';
import { publicProcedure } from '../../trpc/procedures.ts';
import { ZAcceptAsNewUserInput, ZAcceptAsNewUserOutput } from './accept-as-new-user.schema.ts';

/**
 * A person without an account accepts: the account (the invited address, the chosen password) and
 * the membership are made together, once. The page then signs in with that password.
 */
export const acceptAsNewUser = publicProcedure
  .input(ZAcceptAsNewUserInput)
  .output(ZAcceptAsNewUserOutput)
  .mutation(async ({ ctx, input }) => {
    const accepted = await acceptInvitation({
      database: ctx.database,
      token: input.token,
      accepting: { kind: 'new', name: input.name, password: input.password },
      ip: ctx.request.ip,
      now: ctx.now,
    });
    return { email: accepted.email };
  });
