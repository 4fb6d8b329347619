import { updateAccountProfile } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { accountOf } from './account.schema.ts';
import { ZUpdateProfileInput, ZUpdateProfileOutput } from './update-profile.schema.ts';

/** An owner changes the account's profile (the issuer data documents are completed from). */
export const updateProfile = tenantProcedure('account.manage')
  .input(ZUpdateProfileInput)
  .output(ZUpdateProfileOutput)
  .mutation(async ({ ctx, input }) =>
    accountOf(
      await updateAccountProfile({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        actor: ctx.actor,
        profile: input,
        now: ctx.now,
      }),
    ),
  );
