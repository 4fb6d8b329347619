import { findTenants, searchTenants } from '@ecf/services';
import { accountSearchOfText } from '../../account-search.ts';
import { supportProcedure } from '../../trpc/procedures.ts';
import { SUPPORT_TENANT_PAGE_SIZE, ZListTenantsInput, ZListTenantsOutput } from './list-tenants.schema.ts';

/**
 * Tenants for support: names and RNCs only (the operator's directory, not a tenant's data, so no
 * tenant's audit log records it; viewing a tenant's pages does). Without input every tenant (the
 * header's switcher); with input the tenant search of /accounts (issue 27): by the start of the RNC
 * or part of the name, 50 a page, with the total (a text that is neither fails the input's check).
 */
export const listTenants = supportProcedure('support.read')
  .input(ZListTenantsInput)
  .output(ZListTenantsOutput)
  .query(async ({ ctx, input }) => {
    if (input === undefined) {
      const tenants = (await findTenants({ database: ctx.database })).map((tenant) => ({
        id: tenant.id,
        rnc: tenant.rnc,
        name: tenant.tradeName ?? tenant.legalName,
      }));
      return { tenants, total: { count: tenants.length, capped: false } };
    }
    const page = await searchTenants({
      database: ctx.database,
      search: accountSearchOfText(input.q),
      limit: SUPPORT_TENANT_PAGE_SIZE,
      offset: input.offset,
    });
    return { tenants: page.items, total: page.total };
  });
