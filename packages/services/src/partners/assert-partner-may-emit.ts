import type { Environment, TDatabase } from '@ecf/db';
import { findPartnerRowOfTenant, sumPartnerUsage } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import type { TPartnerPrincipal } from './authenticate-partner-request.ts';
import { dominicanMonthOf } from './partner-rules.ts';

/** Plan configuration: monthly quota of accepted e-CF by plan, and the grace period of an overdue payment. */
export type TPartnerPlans = { quotas: Record<string, number>; graceDays: number };

/** What the plan rule reads of a Partner. */
export type TPartnerBilling = Pick<
  TPartnerPrincipal['partner'],
  'id' | 'plan' | 'paidStatus' | 'overdueSince' | 'billingUrl'
>;

/**
 * The plan rule of an emission, whatever route it came by (direct `X-API-KEY`, Partner API,
 * portal): in `eCF`, an account a Partner manages emits only under the Partner's paid plan and
 * quota ({@link assertPartnerMayEmit}: 402 `PAYMENT_REQUIRED`, 429 `PLAN_LIMIT_EXCEEDED`). The
 * Partner is read from the account (`tenants.partner_id`), so a direct key of a Partner's account
 * meets the same rule as the Partner's own key. A direct account (no Partner) and the test
 * environments have no plan check. `plans` is the deployment's plan configuration; an eCF emission
 * of a Partner's account without it is a programming error (500), never an unchecked emission.
 */
export async function assertAccountMayEmit(options: {
  database: TDatabase;
  tenantId: string;
  environment: Environment;
  plans: TPartnerPlans | undefined;
  now: Date;
}): Promise<void> {
  if (options.environment !== 'eCF') return;
  const partner = await findPartnerRowOfTenant(options.database, options.tenantId);
  if (partner === null) return;
  if (options.plans === undefined)
    throw new Error('An eCF emission of a Partner-managed account needs the plan configuration (plans).');
  await assertPartnerMayEmit({ database: options.database, partner, plans: options.plans, now: options.now });
}

/**
 * Before an eCF (production) emission of a Partner's account: the plan must be paid (an overdue
 * payment still emits during `graceDays` from `overdueSince`; `unpaid` or overdue after that is 402
 * `PAYMENT_REQUIRED` with `details.billingUrl`), and the month's quota not used up across all the
 * Partner's accounts (429 `PLAN_LIMIT_EXCEEDED`; a plan without a configured quota has none).
 * TesteCF needs neither (spec: testecf needs no plan and is not counted).
 */
export async function assertPartnerMayEmit(options: {
  database: TDatabase;
  partner: TPartnerBilling;
  plans: TPartnerPlans;
  now: Date;
}): Promise<void> {
  const { partner, plans, now } = options;
  const graceEnds =
    partner.overdueSince === null
      ? null
      : new Date(partner.overdueSince.getTime() + plans.graceDays * 86_400_000);
  const paid =
    partner.paidStatus === 'paid' ||
    (partner.paidStatus === 'overdue' && (graceEnds === null || now < graceEnds));
  if (!paid)
    throw new AppError(
      'PAYMENT_REQUIRED',
      'The Partner plan is not paid: eCF emission is stopped until it is.',
      {
        details: {
          billingUrl: partner.billingUrl,
          paidStatus: partner.paidStatus,
          ...(graceEnds === null ? {} : { graceEndedAt: graceEnds.toISOString() }),
        },
      },
    );
  const quota = plans.quotas[partner.plan] ?? 0;
  const month = dominicanMonthOf(now);
  const used = await sumPartnerUsage(options.database, { partnerId: partner.id, month });
  if (used >= quota)
    throw new AppError(
      'PLAN_LIMIT_EXCEEDED',
      `The plan ${partner.plan} allows ${quota} accepted e-CF a month across all accounts; ${used} were accepted in ${month}.`,
      {
        details: { plan: partner.plan, quota, used, month },
        headers: { 'retry-after': String(secondsToNextMonth(now)) },
      },
    );
}

/** Seconds until the next Dominican month starts (a 429 carries Retry-After). */
function secondsToNextMonth(now: Date): number {
  const local = new Date(now.getTime() - 4 * 3600 * 1000);
  const next = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) + 4 * 3600 * 1000;
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
