import { CERTIFICATION_STEP_INFO, findCertificationSummaries, findFiscalAccounts } from '@ecf/services';
import { accountSearchOfText } from '../../account-search.ts';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZListAccountsInput, ZListAccountsOutput } from './partner-procedures.schema.ts';

/**
 * The Partner's fiscal accounts (100 a page; `q` searches the RNC's start or the name, issue 27) with their production state and where their
 * certification stands (the step's title at the tax authority portal, or the case's end state).
 */
export const listPartnerAccounts = partnerProcedure('partner.accounts.read')
  .input(ZListAccountsInput)
  .output(ZListAccountsOutput)
  .query(async ({ ctx, input }) => {
    const page = await findFiscalAccounts({
      database: ctx.database,
      partnerId: ctx.partner.id,
      limit: 100,
      offset: input?.offset ?? 0,
      search: accountSearchOfText(input?.q) ?? undefined,
    });
    const certifications = await findCertificationSummaries({
      database: ctx.database,
      tenantIds: page.items.map((account) => account.tenant.id),
    });
    const certificationOf = (tenantId: string): string | null => {
      const summary = certifications.get(tenantId);
      if (summary === undefined) return null;
      if (summary.state === 'approved') return 'Aprobada';
      if (summary.state === 'closed') return 'Cerrada';
      const title = CERTIFICATION_STEP_INFO[summary.step as keyof typeof CERTIFICATION_STEP_INFO].title;
      return summary.state === 'failed' ? `${title} (fallida: reiniciar)` : title;
    };
    return {
      total: page.total,
      items: page.items.map((account) => ({
        id: account.id,
        externalTenantId: account.externalTenantId,
        rnc: account.rnc,
        legalName: account.profile.legalName,
        productionState: account.productionState,
        certification: certificationOf(account.tenant.id),
        createdAt: account.createdAt,
      })),
    };
  });
