import { findTenants } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import { ZListTenantsInput, ZListTenantsOutput } from './list-tenants.schema.ts';

/**
 * Every tenant, for support's tenant switcher: names and RNCs only (the operator's directory, not a
 * tenant's data, so no tenant's audit log records it; viewing a tenant's pages does).
 */
export const listTenants = supportProcedure('support.read')
  .input(ZListTenantsInput)
  .output(ZListTenantsOutput)
  .query(async ({ ctx }) => ({
    tenants: (await findTenants({ database: ctx.database })).map((tenant) => ({
      id: tenant.id,
      rnc: tenant.rnc,
      name: tenant.tradeName ?? tenant.legalName,
    })),
  }));
