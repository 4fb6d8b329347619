import { findFiscalAccounts } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZListAccountsInput, ZListAccountsOutput } from './partner-procedures.schema.ts';

/** The Partner's fiscal accounts (100 a page) with their production state; certification is the engine's (null for now). */
export const listPartnerAccounts = partnerProcedure('partner.accounts.read')
  .input(ZListAccountsInput)
  .output(ZListAccountsOutput)
  .query(async ({ ctx, input }) => {
    const page = await findFiscalAccounts({
      database: ctx.database,
      partnerId: ctx.partner.id,
      limit: 100,
      offset: input?.offset ?? 0,
    });
    return {
      total: page.total,
      items: page.items.map((account) => ({
        id: account.id,
        externalTenantId: account.externalTenantId,
        rnc: account.rnc,
        legalName: account.profile.legalName,
        productionState: account.productionState,
        certification: null,
        createdAt: account.createdAt,
      })),
    };
  });
