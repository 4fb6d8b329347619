import { updateAccountSettings } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { accountOf } from './account.schema.ts';
import { ZUpdateSettingsInput, ZUpdateSettingsOutput } from './update-settings.schema.ts';

/** An owner changes buyer e-mail per environment, the payment term and the deferred-send authorization. */
export const updateSettings = tenantProcedure('account.manage')
  .input(ZUpdateSettingsInput)
  .output(ZUpdateSettingsOutput)
  .mutation(async ({ ctx, input }) =>
    accountOf(
      await updateAccountSettings({
        database: ctx.database,
        tenantId: ctx.tenant.id,
        actor: ctx.actor,
        settings: input,
        now: ctx.now,
      }),
    ),
  );
