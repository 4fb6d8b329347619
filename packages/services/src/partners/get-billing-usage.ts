import type { TDatabase } from '@ecf/db';
import { findPartnerUsageRows } from '../persistence/index.ts';
import { dominicanMonthOf } from './partner-rules.ts';
import type { TPartnerPlans } from './assert-partner-may-emit.ts';

/**
 * `GET /billing/usage[?month=YYYY-MM]`: e-CF accepted by the tax authority in eCF across all the
 * Partner's accounts in a Dominican calendar month (the current one by default, which is the
 * billing period), in total and per account, with the plan's quota. TesteCF is never counted.
 */
export async function getBillingUsage(options: {
  database: TDatabase;
  partner: { id: string; plan: string };
  plans: TPartnerPlans;
  month?: string;
  now?: Date;
}) {
  const month = options.month ?? dominicanMonthOf(options.now ?? new Date());
  const rows = await findPartnerUsageRows(options.database, { partnerId: options.partner.id, month });
  const accepted = rows.reduce((sum, row) => sum + row.accepted, 0);
  const quota = options.plans.quotas[options.partner.plan] ?? 0;
  return {
    month,
    timeZone: 'America/Santo_Domingo',
    plan: options.partner.plan,
    quota,
    accepted,
    remaining: Math.max(0, quota - accepted),
    accounts: rows.map((row) => ({
      fiscalAccountId: row.tenantId,
      externalTenantId: row.externalTenantId,
      accepted: row.accepted,
    })),
  };
}
