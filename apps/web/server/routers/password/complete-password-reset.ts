import { completePasswordReset as completePasswordResetUseCase } from '@ecf/services';
import { publicProcedure } from '../../trpc/procedures.ts';
import {
  ZCompletePasswordResetInput,
  ZCompletePasswordResetOutput,
} from './complete-password-reset.schema.ts';

/** Sets a new password through a reset link, once; every session of the user ends. */
export const completePasswordReset = publicProcedure
  .input(ZCompletePasswordResetInput)
  .output(ZCompletePasswordResetOutput)
  .mutation(async ({ ctx, input }) => {
    const done = await completePasswordResetUseCase({
      database: ctx.database,
      token: input.token,
      password: input.password,
      ip: ctx.request.ip,
      now: ctx.now,
    });
    return { sessionsRevoked: done.sessionsRevoked };
  });
