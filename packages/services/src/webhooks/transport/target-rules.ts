/**
 * Where a webhook may go (spec, Events: "Direct account webhooks"; issue 16 "Target rules"): HTTPS,
 * no credentials in the URL, at most 2048 characters, not localhost, and only to public unicast
 * addresses — never loopback, private, link-local, CGNAT, multicast, metadata, unspecified or
 * reserved ones, in IPv4 and IPv6 alike (an IPv4-mapped IPv6 address is judged as the IPv4 it
 * carries). Every address a host name resolves to must pass. The rules run when an endpoint is
 * saved (`assertWebhookTarget`) and again inside every connection (`guardedLookup`, undici's
 * `connect.lookup`), so a name that resolves elsewhere later (DNS rebinding) is caught where it
 * matters and the socket goes to the address that was checked.
 *
 * Address classes come from ipaddr.js; nothing here parses addresses by hand.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../../shared/errors.ts';
import { WEBHOOK_URL_MAX_LENGTH } from './limits.ts';

/** Resolves a host name to every address it has (tests inject one; the default asks the system). */
export type TWebhookResolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export type TWebhookTargetOptions = {
  /**
   * Development only (`WEBHOOKS_ALLOW_PRIVATE_TARGETS`, off by default): also allows plain `http:`,
   * `localhost`, and loopback, private (RFC 1918, IPv6 unique-local) and CGNAT addresses, for local
   * receivers. Link-local, metadata, multicast, unspecified and reserved addresses stay refused.
   */
  allowPrivateTargets: boolean;
  /** Host name resolution; the system resolver when absent. */
  resolve?: TWebhookResolver | undefined;
  /**
   * The service's own public address (`PUBLIC_BASE_URL`): a URL of its TesteCF test inbox
   * (`{inboxBaseUrl}/webhook-inbox/{token}`, see {@link isWebhookInboxUrl}) is allowed whatever the
   * address class, in every deployment, since it only ever reaches that route of our own API.
   */
  inboxBaseUrl?: string | undefined;
};

/** The path of the test inbox route under the API's public address (`POST /webhook-inbox/{token}`). */
export const WEBHOOK_INBOX_PATH = '/webhook-inbox/';
/** A test inbox token: 32 random bytes, base64url. */
export const WEBHOOK_INBOX_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The URL of a test inbox: `{base}/webhook-inbox/{token}` (a base with a path keeps it). */
export function webhookInboxUrlOf(inboxBaseUrl: string, token: string): string {
  return `${inboxBaseUrl.replace(/\/+$/, '')}${WEBHOOK_INBOX_PATH}${token}`;
}

/**
 * Whether `url` is exactly a test inbox URL of this service: the same origin as `inboxBaseUrl`, the
 * path `{base path}/webhook-inbox/{token}` with a well-formed token, no credentials, query or
 * fragment. Anything else (another port, `..`, a longer path) is judged by the normal rules.
 */
export function isWebhookInboxUrl(url: string, inboxBaseUrl: string | undefined): boolean {
  if (inboxBaseUrl === undefined || url.length > WEBHOOK_URL_MAX_LENGTH) return false;
  let parsed: URL;
  let base: URL;
  try {
    parsed = new URL(url);
    base = new URL(inboxBaseUrl);
  } catch {
    return false;
  }
  if (parsed.origin !== base.origin || parsed.username !== '' || parsed.password !== '') return false;
  if (parsed.search !== '' || parsed.hash !== '' || url.includes('?') || url.includes('#')) return false;
  const prefix = `${base.pathname.replace(/\/+$/, '')}${WEBHOOK_INBOX_PATH}`;
  if (!parsed.pathname.startsWith(prefix)) return false;
  return WEBHOOK_INBOX_TOKEN_PATTERN.test(parsed.pathname.slice(prefix.length));
}

/** Why a target is refused (the `code` of the field error, and of a delivery's error). */
export const WEBHOOK_TARGET_REFUSALS = [
  'url_invalid',
  'url_too_long',
  'scheme_not_https',
  'credentials_in_url',
  'host_not_allowed',
  'address_not_public',
  'host_unresolvable',
] as const;

export type TWebhookTargetRefusal = (typeof WEBHOOK_TARGET_REFUSALS)[number];

/** A refused target at connection time; undici hands it back as the request's error. */
export class WebhookTargetRefusedError extends Error {
  override readonly name = 'WebhookTargetRefusedError';
  readonly code = 'WEBHOOK_TARGET_REFUSED';
  readonly reason: TWebhookTargetRefusal;

  constructor(reason: TWebhookTargetRefusal, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Host names refused whatever they resolve to (cloud metadata services answer on these). */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * Metadata addresses, refused even with `allowPrivateTargets` (AWS/GCP/Azure 169.254.169.254 is
 * link-local anyway; AWS IPv6 fd00:ec2::254, ECS 169.254.170.2, Alibaba 100.100.100.200).
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']);

/** Address classes (ipaddr.js `range()` names) allowed only with `allowPrivateTargets`. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

const isLocalhostName = (hostname: string): boolean =>
  hostname === 'localhost' || hostname.endsWith('.localhost');

/**
 * Why an address may not be connected to, or null when it may. Only ipaddr.js's `unicast` (public)
 * class passes; with `allowPrivateTargets` also the private classes above.
 */
export function addressRefusal(address: string, options: { allowPrivateTargets: boolean }): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const normalized = parsed.toNormalizedString();
  if (METADATA_ADDRESSES.has(normalized) || METADATA_ADDRESSES.has(parsed.toString())) return 'metadata';
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (options.allowPrivateTargets && PRIVATE_RANGES.has(range)) return null;
  return range;
}

/**
 * The URL rules that need no DNS: syntax, scheme, credentials, length, forbidden names and literal
 * addresses. Null when the URL passes them (a host name still has to resolve to public addresses).
 */
export function webhookUrlRefusal(
  url: string,
  options: { allowPrivateTargets: boolean; inboxBaseUrl?: string | undefined },
): { reason: TWebhookTargetRefusal; message: string } | null {
  if (isWebhookInboxUrl(url, options.inboxBaseUrl)) return null;
  if (url.length > WEBHOOK_URL_MAX_LENGTH)
    return { reason: 'url_too_long', message: `The URL has more than ${WEBHOOK_URL_MAX_LENGTH} characters.` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { reason: 'url_invalid', message: 'The URL is not a valid absolute URL.' };
  }
  const schemes = options.allowPrivateTargets ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol))
    return { reason: 'scheme_not_https', message: 'The URL must use https.' };
  if (parsed.username !== '' || parsed.password !== '')
    return { reason: 'credentials_in_url', message: 'The URL must not carry a user name or password.' };
  const host = hostOf(parsed);
  if (host === '') return { reason: 'url_invalid', message: 'The URL has no host.' };
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, options);
    return refusal === null
      ? null
      : { reason: 'address_not_public', message: `The address ${host} is not public (${refusal}).` };
  }
  if (METADATA_HOSTS.has(host) || (!options.allowPrivateTargets && isLocalhostName(host)))
    return { reason: 'host_not_allowed', message: `The host ${host} is not allowed.` };
  return null;
}

/** The URL's host without IPv6 brackets or a trailing dot, lower case. */
function hostOf(url: URL): string {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

const systemResolver: TWebhookResolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/**
 * Resolves a host name and checks every address; throws `WebhookTargetRefusedError` when one is
 * not allowed (`address_not_public`) or none was found (`host_unresolvable`). Resolver errors
 * (ENOTFOUND, EAI_AGAIN...) are thrown as they are: a connection treats them as network errors.
 */
export async function resolveCheckedAddresses(
  hostname: string,
  options: TWebhookTargetOptions,
): Promise<{ address: string; family: 4 | 6 }[]> {
  const host = hostname.endsWith('.') ? hostname.slice(0, -1).toLowerCase() : hostname.toLowerCase();
  if (METADATA_HOSTS.has(host) || (!options.allowPrivateTargets && isLocalhostName(host)))
    throw new WebhookTargetRefusedError('host_not_allowed', `The host ${host} is not allowed.`);
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const resolved =
    isIP(literal) !== 0
      ? [{ address: literal, family: isIP(literal) }]
      : await (options.resolve ?? systemResolver)(host);
  if (resolved.length === 0)
    throw new WebhookTargetRefusedError('host_unresolvable', `The host ${host} has no address.`);
  const checked: { address: string; family: 4 | 6 }[] = [];
  for (const { address } of resolved) {
    const refusal = addressRefusal(address, options);
    if (refusal !== null)
      throw new WebhookTargetRefusedError(
        'address_not_public',
        `The host ${host} resolves to ${address}, which is not public (${refusal}).`,
      );
    checked.push({ address, family: isIP(address) === 6 ? 6 : 4 });
  }
  return checked;
}

/**
 * `net`/`tls` `lookup` for undici's `connect` options: resolves, checks every address, and hands
 * only checked addresses to the socket, at every new connection.
 */
export function guardedLookup(options: TWebhookTargetOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveCheckedAddresses(hostname, options).then(
      (addresses) => {
        const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0;
        const usable = family === 0 ? addresses : addresses.filter((address) => address.family === family);
        const first = usable[0];
        if (first === undefined) {
          callback(
            new WebhookTargetRefusedError(
              'host_unresolvable',
              `The host ${hostname} has no IPv${family} address.`,
            ),
            '',
          );
        } else if (lookupOptions.all === true) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}

/**
 * The save-time check of an endpoint URL: every rule, DNS included. Returns the parsed URL, or
 * throws AppError `INVALID_REQUEST` with `details.reason` `webhook_url_not_allowed`, `details.code`
 * (a `TWebhookTargetRefusal`) and `details.issues` `[{ path: 'url', code, message }]`.
 */
export async function assertWebhookTarget(url: string, options: TWebhookTargetOptions): Promise<URL> {
  const refusal = webhookUrlRefusal(url, options);
  if (refusal !== null) throw targetError(refusal.reason, refusal.message);
  const parsed = new URL(url);
  // The service's own test inbox: its address is the operator's configuration, not the caller's.
  if (isWebhookInboxUrl(url, options.inboxBaseUrl)) return parsed;
  try {
    await resolveCheckedAddresses(hostOf(parsed), options);
  } catch (error) {
    if (error instanceof WebhookTargetRefusedError) throw targetError(error.reason, error.message, error);
    throw targetError('host_unresolvable', `The host ${parsed.hostname} could not be resolved.`, error);
  }
  return parsed;
}

function targetError(code: TWebhookTargetRefusal, message: string, cause?: unknown): AppError {
  return new AppError('INVALID_REQUEST', message, {
    details: { reason: 'webhook_url_not_allowed', code, issues: [{ path: 'url', code, message }] },
    cause,
  });
}
