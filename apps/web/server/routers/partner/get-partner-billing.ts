import { getBillingUsage, getPartner } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZBillingInput, ZBillingOutput } from './partner-procedures.schema.ts';

/** Accepted e-CF of the Partner's accounts in a Dominican month (the current one by default), with the quota. */
export const getPartnerBilling = partnerProcedure('partner.billing.read')
  .input(ZBillingInput)
  .output(ZBillingOutput)
  .query(async ({ ctx, input }) => {
    const partner = await getPartner({ database: ctx.database, partnerId: ctx.partner.id });
    return getBillingUsage({
      database: ctx.database,
      partner,
      plans: ctx.partnerPlans,
      ...(input.month === undefined ? {} : { month: input.month }),
      now: ctx.now(),
    });
  });
