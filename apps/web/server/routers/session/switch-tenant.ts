import { switchActiveTenant } from '@ecf/services';
import { authedProcedure } from '../../trpc/procedures.ts';
import { ZSwitchTenantInput, ZSwitchTenantOutput } from './switch-tenant.schema.ts';

/** Works in another tenant: one of the user's memberships (support: any); NOT_FOUND otherwise. */
export const switchTenant = authedProcedure
  .input(ZSwitchTenantInput)
  .output(ZSwitchTenantOutput)
  .mutation(({ ctx, input }) =>
    switchActiveTenant({ database: ctx.database, session: ctx.session, tenantId: input.tenantId }),
  );
