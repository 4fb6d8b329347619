import { getAccountSettings } from '@ecf/services';
import { tenantProcedure } from '../../trpc/procedures.ts';
import { accountOf } from './account.schema.ts';
import { ZGetAccountInput, ZGetAccountOutput } from './get-account.schema.ts';

/** The active tenant's profile, settings and environments (every member reads them). */
export const getAccount = tenantProcedure('account.read')
  .input(ZGetAccountInput)
  .output(ZGetAccountOutput)
  .query(async ({ ctx }) =>
    accountOf(await getAccountSettings({ database: ctx.database, tenantId: ctx.tenant.id })),
  );
