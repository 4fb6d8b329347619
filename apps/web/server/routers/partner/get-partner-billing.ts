import { dominicanMonthOf, getBillingUsage, getPartner } from '@ecf/services';
import { partnerProcedure } from '../../trpc/procedures.ts';
import { ZBillingInput, ZBillingOutput } from './partner-procedures.schema.ts';

/** Accepted e-CF of the Partner's accounts in a Dominican month (the current one by default), with the quota and where to pay. */
export const getPartnerBilling = partnerProcedure('partner.billing.read')
  .input(ZBillingInput)
  .output(ZBillingOutput)
  .query(async ({ ctx, input }) => {
    const partner = await getPartner({ database: ctx.database, partnerId: ctx.partner.id });
    const now = ctx.now();
    const usage = await getBillingUsage({
      database: ctx.database,
      partner,
      plans: ctx.partnerPlans,
      ...(input.month === undefined ? {} : { month: input.month }),
      now,
    });
    return {
      ...usage,
      currentMonth: dominicanMonthOf(now),
      // Only a web address becomes a link (the operator types it; never a `javascript:` one).
      billingUrl:
        partner.billingUrl !== null && /^https?:\/\//i.test(partner.billingUrl) ? partner.billingUrl : null,
      paidStatus: partner.paidStatus,
    };
  });
