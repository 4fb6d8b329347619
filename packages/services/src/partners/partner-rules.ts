/**
 * What the Partner use-cases share: keys (format, hash), browser origins (exact HTTPS origins),
 * Dominican months, the Partner and account views, and `INVALID_PARTNER_PAYLOAD` issues.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Environment, PartnerPaidStatus, PartnerStatus } from '@ecf/db';
import type { TTenantProfile } from '../accounts/index.ts';
import type { TPartnerAccountRecord, TPartnerRow } from '../persistence/index.ts';
import { AppError } from '../shared/errors.ts';

/** A new partner key: `ecfp_` + 32 base64url characters (192 bits); the prefix is `ecfp_` + 8 of them. */
export function generatePartnerKey(): { key: string; prefix: string; hash: string } {
  const key = `ecfp_${randomBytes(24).toString('base64url')}`;
  return { key, prefix: key.slice(0, 13), hash: hashPartnerKey(key) };
}

/** SHA-256 of the whole key (keys are long random strings: a fast hash keeps authentication one look-up). */
export function hashPartnerKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** 400 `INVALID_PARTNER_PAYLOAD` for one field (`details.path`, `details.issues[]`). */
export function partnerPayloadError(path: string, code: string, message: string): AppError {
  return new AppError('INVALID_PARTNER_PAYLOAD', `${path || 'body'}: ${message}`, {
    details: { path, issues: [{ path, code, message }] },
  });
}

/** A DNS label as CSP's host-source admits it: letters, digits and inner hyphens, 1 to 63 characters. */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * An exact HTTPS origin, `https://host[:port]`, or 400 `INVALID_BROWSER_ORIGIN`: written as the
 * browser serializes it (lower-case host, no default port, no trailing slash, path, query,
 * fragment or credentials); the host a DNS name of letters, digits and inner hyphens (labels of 1
 * to 63, at most 253 characters, no trailing dot; an internationalized name in its `xn--` form)
 * or an IPv4 address; the port 1 to 65535. The origin goes into a CSP `frame-ancestors` and a CORS
 * `Access-Control-Allow-Origin` as it is, so nothing that would match more than one origin passes:
 * no wildcard (`https://*.example.com`, also percent-encoded), no `_`, no IPv6 literal (CSP's
 * host-source cannot name one). The one validator of every entry (admin CLI, portal, Partner API).
 */
export function exactBrowserOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidOrigin(text);
  }
  const host = url.hostname;
  if (
    url.protocol !== 'https:' ||
    url.username !== '' ||
    url.password !== '' ||
    host === '' ||
    url.origin === 'null' ||
    url.port === '0' ||
    // The text must be the origin itself: no path (not even "/"), query or fragment.
    text !== url.origin ||
    !(IPV4.test(host) || isDnsHostName(host))
  )
    throw invalidOrigin(text);
  return url.origin;
}

function isDnsHostName(host: string): boolean {
  if (host.length > 253) return false;
  const labels = host.split('.');
  // A name with only digits in its last label is an IPv4 address or nothing (WHATWG URL).
  if (/^\d+$/.test(labels.at(-1) ?? '')) return false;
  return labels.every((label) => HOST_LABEL.test(label));
}

function invalidOrigin(text: string): AppError {
  return new AppError(
    'INVALID_BROWSER_ORIGIN',
    'browserOrigin must be an exact HTTPS origin: https://host or https://host:port (a DNS name or IPv4 address, no wildcard), without path, query or fragment.',
    { details: { path: 'browserOrigin', browserOrigin: text.slice(0, 300) } },
  );
}

/** The calendar month `YYYY-MM` of an instant in Dominican Republic time (UTC−4, no daylight saving). */
export function dominicanMonthOf(at: Date): string {
  return new Date(at.getTime() - 4 * 3600 * 1000).toISOString().slice(0, 7);
}

/** A Partner as the API and the portal show it. */
export type TPartner = {
  id: string;
  name: string;
  status: PartnerStatus;
  plan: string;
  paidStatus: PartnerPaidStatus;
  overdueSince: Date | null;
  billingUrl: string | null;
  createdAt: Date;
};

export function partnerOf(row: TPartnerRow): TPartner {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    plan: row.plan,
    paidStatus: row.paidStatus,
    overdueSince: row.overdueSince,
    billingUrl: row.billingUrl,
    createdAt: row.createdAt,
  };
}

/** The Partner API's name of an environment (`production` is eCF, `testecf` TesteCF). */
export type TPartnerEnvironment = 'production' | 'testecf' | 'certecf';
export const PARTNER_ENVIRONMENT_OF: Record<Environment, TPartnerEnvironment> = {
  eCF: 'production',
  TesteCF: 'testecf',
  CerteCF: 'certecf',
};

/** A fiscal account of a Partner (a tenant it manages). */
export type TFiscalAccount = {
  id: string;
  externalTenantId: string;
  rnc: string;
  profile: {
    legalName: string;
    tradeName: string | null;
    fiscalEmail: string | null;
    phone: string | null;
    address: string | null;
    provinceCode: string | null;
    municipalityCode: string | null;
    printedRepresentationEmail: { production: boolean; testecf: boolean };
  };
  productionState: TTenantProfile['productionState'];
  createdAt: Date;
  updatedAt: Date;
  /** What emission and the other facades need (the direct API's tenant profile). */
  tenant: TTenantProfile;
};

export function fiscalAccountOf(record: TPartnerAccountRecord): TFiscalAccount {
  return {
    id: record.id,
    externalTenantId: record.external_tenant_id,
    rnc: record.rnc,
    profile: {
      legalName: record.legal_name,
      tradeName: record.trade_name,
      fiscalEmail: record.fiscal_email,
      phone: record.phones[0] ?? null,
      address: record.address,
      provinceCode: record.province_code,
      municipalityCode: record.municipality_code,
      printedRepresentationEmail: {
        production: record.buyer_email_environments.includes('eCF'),
        testecf: record.buyer_email_environments.includes('TesteCF'),
      },
    },
    productionState: record.production_state,
    createdAt: new Date(record.created_at),
    updatedAt: new Date(record.updated_at),
    tenant: {
      id: record.id,
      rnc: record.rnc,
      legalName: record.legal_name,
      tradeName: record.trade_name,
      address: record.address,
      phones: record.phones,
      fiscalEmail: record.fiscal_email,
      deferredSendAuthorized: record.deferred_send_authorized,
      paymentTermDays: record.payment_term_days,
      productionState: record.production_state,
      plan: record.plan,
    },
  };
}
