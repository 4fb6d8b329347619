import { requestPasswordReset as requestPasswordResetUseCase } from '@ecf/services';
import { publicProcedure } from '../../trpc/procedures.ts';
import { ZRequestPasswordResetInput, ZRequestPasswordResetOutput } from './request-password-reset.schema.ts';

/**
 * "Forgot my password": the same answer whether or not the address has an account; the e-mail (if
 * any) leaves after the answer, so its SMTP exchange does not tell either.
 */
export const requestPasswordReset = publicProcedure
  .input(ZRequestPasswordResetInput)
  .output(ZRequestPasswordResetOutput)
  .mutation(async ({ ctx, input }) => {
    const { delivery } = await requestPasswordResetUseCase({
      database: ctx.database,
      email: input.email,
      mail: ctx.mail,
      ip: ctx.request.ip,
      policy: ctx.signInPolicy,
      now: ctx.now,
    });
    delivery.catch((error: unknown) => {
      console.error(
        'portal: a password reset e-mail could not be sent',
        error instanceof Error ? error.message : error,
      );
    });
    return { requested: true as const };
  });
