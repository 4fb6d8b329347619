import type { PartnerKeyProfile, PartnerPaidStatus, TDatabase } from '@ecf/db';
import { authenticatePartnerRow, touchPartnerKey } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';
import { profilesWithPermission, type TPartnerPermission } from '@ecf/contract';
import { fiscalAccountOf, hashPartnerKey, type TFiscalAccount } from './partner-rules.ts';

/** Requests per fixed 60-second window (spec Limits: the same for every plan). */
export type TPartnerRateLimits = { ip: number; partner: number; account: number; permission: number };
export const PARTNER_RATE_LIMITS: TPartnerRateLimits = {
  ip: 1000,
  partner: 1000,
  account: 300,
  permission: 600,
};
export const PARTNER_RATE_WINDOW_SECONDS = 60;

/** Who is calling through the Partner API, and the fiscal account of the path when it names one. */
export type TPartnerPrincipal = {
  partner: {
    id: string;
    name: string;
    plan: string;
    paidStatus: PartnerPaidStatus;
    overdueSince: Date | null;
    billingUrl: string | null;
  };
  key: { id: string; prefix: string; profile: PartnerKeyProfile };
  account: TFiscalAccount | null;
};

/**
 * Authenticates a Partner request and counts it, in ONE statement (persistence `authenticatePartnerRow`).
 * Checks, in order: the source address's limit (429, counted for every request, a wrong key too);
 * no key (401 `PARTNER_KEY_MISSING`); unknown or revoked (401 `PARTNER_KEY_INVALID`); the Partner
 * suspended (403 `PARTNER_INACTIVE`); the key's profile without `permission` (403
 * `INSUFFICIENT_SCOPE`, `details.reason: missing_permission`); the Partner's, the permission's and
 * the account's limits (429 `RATE_LIMIT_EXCEEDED` with `Retry-After`); the account of the path not
 * this Partner's (404 `FISCAL_ACCOUNT_NOT_FOUND`, the same for another Partner's and for none).
 */
export async function authenticatePartnerRequest(options: {
  database: TDatabase;
  key: string | undefined;
  ip: string;
  permission: TPartnerPermission;
  /** The `{id}` of the path (a UUID, checked by the caller), or null for routes without one. */
  accountId: string | null;
  limits?: TPartnerRateLimits;
  now?: Date;
}): Promise<TPartnerPrincipal> {
  const now = options.now ?? new Date();
  const limits = options.limits ?? PARTNER_RATE_LIMITS;
  const windowMs = PARTNER_RATE_WINDOW_SECONDS * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  const tooMany = (scope: string, limit: number) =>
    new AppError(
      'RATE_LIMIT_EXCEEDED',
      `Rate limit of ${limit} requests per minute per ${scope} exceeded; retry after ${retryAfter} s with backoff and jitter.`,
      {
        details: { scope, limit, windowSeconds: PARTNER_RATE_WINDOW_SECONDS, retryAfterSeconds: retryAfter },
        headers: { 'retry-after': String(retryAfter) },
      },
    );
  const row = await authenticatePartnerRow(options.database, {
    ip: options.ip,
    hash: options.key ? hashPartnerKey(options.key) : '',
    profiles: profilesWithPermission(options.permission),
    permission: options.permission,
    accountId: options.accountId,
    windowStart,
    expiresAt: new Date(windowStart.getTime() + 2 * windowMs),
  });
  if ((row.counts?.[`partner-ip:${options.ip}`] ?? 0) > limits.ip) throw tooMany('ip', limits.ip);
  if (!options.key) throw new AppError('PARTNER_KEY_MISSING', 'The X-PARTNER-KEY header is required.');
  if (row.key_id === null || row.revoked_at !== null || row.partner_id === null)
    throw new AppError('PARTNER_KEY_INVALID', 'The partner key is invalid or has been revoked.');
  if (row.partner_status !== 'active')
    throw new AppError('PARTNER_INACTIVE', 'The Partner is suspended; contact the operator.');
  if (row.allowed !== true) {
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `This partner key (profile ${row.profile ?? '?'}) lacks the permission ${options.permission}.`,
      {
        details: {
          reason: 'missing_permission',
          requiredPermission: options.permission,
          profile: row.profile,
        },
      },
    );
  }
  const counts = row.counts ?? {};
  const partnerId = row.partner_id;
  if ((counts[`partner:${partnerId}`] ?? 0) > limits.partner) throw tooMany('partner', limits.partner);
  if ((counts[`partner-permission:${partnerId}:${options.permission}`] ?? 0) > limits.permission)
    throw tooMany('permission', limits.permission);
  if (options.accountId !== null) {
    if (row.account === null)
      throw new AppError('FISCAL_ACCOUNT_NOT_FOUND', 'No fiscal account with this id for this Partner.');
    if ((counts[`partner-account:${row.account.id}`] ?? 0) > limits.account)
      throw tooMany('fiscal_account', limits.account);
  }
  if (row.stale === true) await touchPartnerKey(options.database, row.key_id);
  return {
    partner: {
      id: partnerId,
      name: row.partner_name ?? '',
      plan: row.partner_plan ?? '',
      paidStatus: row.paid_status ?? 'unpaid',
      overdueSince: row.overdue_since === null ? null : new Date(row.overdue_since),
      billingUrl: row.billing_url,
    },
    key: { id: row.key_id, prefix: row.prefix ?? '', profile: row.profile ?? 'full' },
    account: row.account === null ? null : fiscalAccountOf(row.account),
  };
}
