import { findContingencyAcrossTenants } from '@ecf/services';
import { supportProcedure } from '../../trpc/procedures.ts';
import { ZListContingencyInput, ZListContingencyOutput } from './list-contingency.schema.ts';

/** Every tenant's documents in contingency; a support view is recorded for each tenant listed. */
export const listContingency = supportProcedure('support.read')
  .input(ZListContingencyInput)
  .output(ZListContingencyOutput)
  .query(async ({ ctx, input }) => {
    const items = await findContingencyAcrossTenants({
      database: ctx.database,
      environment: input?.environment,
    });
    for (const tenantId of new Set(items.map((item) => item.tenant.id)))
      await ctx.recordSupportView(tenantId, 'support.contingency', {
        documents: items.filter((item) => item.tenant.id === tenantId).length,
      });
    return { items };
  });
