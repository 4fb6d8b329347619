/**
 * What every tRPC procedure receives. Built per request by the route handler and the server
 * caller from a session validated against PostgreSQL (`validatePortalSession`), and by tests from
 * sessions they seed: procedures never read cookies, headers or the environment themselves.
 */
import type { Environment, TDatabase, TEnqueue, TJobName } from '@ecf/db';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import type {
  TCertificateKeyring,
  TPortalMail,
  TPartnerPlans,
  TPortalSession,
  TSignInPolicy,
  TSubmissionContext,
} from '@ecf/services';
import type { TRequestMeta } from '../request-meta.ts';

export type TTrpcContext = {
  database: TDatabase;
  /** The request's portal session, checked in the database for this request; null: signed out. */
  session: TPortalSession | null;
  request: TRequestMeta;
  mail: TPortalMail;
  signInPolicy: TSignInPolicy;
  /** The REST API's public address (pages show it to API users). */
  apiUrl: string;
  /** The service's public address as the tax authority reaches it (the URLs certification registers). */
  publicBaseUrl: string;
  now: () => Date;
  /** The certificates' master keyring (certificate upload); throws when CERTIFICATE_MASTER_KEY is not set. */
  certificateKeyring: () => TCertificateKeyring;
  /** Issued documents and Try it: what the REST API's document routes are given too. */
  documents: TPortalDocuments;
  /** Webhook endpoints: the development setting and the enqueue of `webhook.deliver` (tests, replays). */
  webhooks: TPortalWebhooks;
  /** The Partner plans (quotas, grace), as the API is configured: the Partner billing page. */
  partnerPlans: TPartnerPlans;
  /**
   * The embedded certification links the Partner account page opens (as the Partner API's
   * `certification-sessions`): the HMAC key (CERTIFICATION_EMBED_SECRET) and the portal's public address.
   */
  certificationEmbed: { secret: string; portalBaseUrl: string };
};

/**
 * `allowPrivateTargets`: WEBHOOKS_ALLOW_PRIVATE_TARGETS (development only, off by default): local
 * receivers on loopback and plain http. `enqueue`: the same producer as Try it's.
 */
export type TPortalWebhooks = {
  allowPrivateTargets: boolean;
  enqueue: TEnqueue;
  /**
   * The API's public address (PUBLIC_BASE_URL, else NEXT_PUBLIC_API_URL): TesteCF test inboxes are
   * `{inboxBaseUrl}/webhook-inbox/{token}`. Absent: "Crear bandeja de prueba" is not offered.
   */
  inboxBaseUrl?: string;
};

/**
 * The documents pages' share of the runtime: the API's cursor secret (one cursor for both), the
 * shared enqueue function (Try it's emissions commit with their `document.sign` job) and the
 * official XSDs, compiled on first use.
 */
export type TPortalDocuments = {
  cursorSecret: string;
  enqueue: TEnqueue;
  loadXsd: () => Promise<TSubmissionContext['xsd']>;
  /** The tax authority client of an environment (the annulments page sends the ANECF); absent: sending is unavailable. */
  taxauthClientFor?: (environment: Environment) => TTaxauthClient;
};

/**
 * The queues the portal puts jobs on (created when absent): Try it's signing, webhook tests and
 * replays, commercial approvals, and certification (runs, approval sends, the sync after an
 * attestation, a receipt's resend).
 */
export const PORTAL_JOB_QUEUES = [
  'document.sign',
  'document.transmit',
  'document.poll-status',
  'webhook.deliver',
  'commercial-approval.dispatch',
  'certification.advance',
  'certification.send-approvals',
  'certification.sync',
] as const satisfies readonly TJobName[];
