/**
 * What the running portal shares across requests: one database client (pool) per process, the
 * e-mail settings and the sign-in policy, built from the environment on first use. Only the
 * Next.js-facing glue (route handlers, the server caller, next-auth) imports this; procedures and
 * their tests receive the same things through the tRPC context.
 */
import 'server-only';
import { loadXsdValidators } from '@ecf/config';
import { createDatabaseClient, type TDatabase } from '@ecf/db';
import { createProducerQueue } from '@ecf/db/job-queue';
import {
  createCertificateKeyring,
  DEFAULT_SIGN_IN_POLICY,
  type TCertificateKeyring,
  type TPortalMail,
  type TSignInPolicy,
} from '@ecf/services';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { portalEnv } from '../env.ts';
import { webPoolMaxOf } from '../server-env.ts';
import { PORTAL_JOB_QUEUES, type TPortalDocuments, type TPortalWebhooks } from './trpc/context.ts';
import type { TPartnerPlans } from '@ecf/services';

export type TPortalRuntime = {
  database: TDatabase;
  mail: TPortalMail;
  signInPolicy: TSignInPolicy;
  sessionTtlSeconds: number;
  publicUrl: URL;
  apiUrl: string;
  /** The service's public address for the tax authority (PUBLIC_BASE_URL, else the API's URL). */
  publicBaseUrl: string;
  /** HMAC key of the embedded certification links (CERTIFICATION_EMBED_SECRET). */
  embedSecret: string;
  /** The certificates' master keyring, built on first use (only the certificate upload needs it). */
  certificateKeyring: () => TCertificateKeyring;
  documents: TPortalDocuments;
  webhooks: TPortalWebhooks;
  partnerPlans: TPartnerPlans;
};

// On globalThis so that `next dev`'s module reloads reuse the pool instead of opening another.
const holder = globalThis as typeof globalThis & { __ecfPortalRuntime?: TPortalRuntime };

let keyring: TCertificateKeyring | undefined;

export function portalRuntime(): TPortalRuntime {
  if (holder.__ecfPortalRuntime !== undefined) return holder.__ecfPortalRuntime;
  const env = portalEnv();
  const documents = {
    ...portalDocumentsOf(
      env.DATABASE_URL,
      env.API_CURSOR_SECRET,
      env.XSD_DIRECTORY,
      env.WEB_JOB_QUEUE_POOL_MAX,
    ),
    // One client per environment for the process (each caches its tenants' tokens).
    taxauthClientFor: createTaxauthClients({
      baseUrls: {
        ecf: env.TAXAUTH_ECF_BASE_URL,
        fc: env.TAXAUTH_FC_BASE_URL,
        status: env.TAXAUTH_STATUS_BASE_URL,
      },
      timeoutMs: env.TAXAUTH_TIMEOUT_MS,
    }),
  };
  holder.__ecfPortalRuntime = {
    database: createDatabaseClient({
      databaseUrl: env.DATABASE_URL,
      maxConnections: webPoolMaxOf(env),
      poolTimeoutMs: env.WEB_DB_POOL_TIMEOUT_MS,
    }),
    mail: {
      smtp: {
        transport: {
          host: env.SMTP_HOST,
          port: env.SMTP_PORT,
          secure: env.SMTP_SECURE,
          ...(env.SMTP_USER === undefined || env.SMTP_PASSWORD === undefined
            ? {}
            : { auth: { user: env.SMTP_USER, pass: env.SMTP_PASSWORD } }),
        },
        from: env.MAIL_FROM,
        timeoutMs: env.SMTP_TIMEOUT_MS,
      },
      portalPublicUrl: env.PORTAL_PUBLIC_URL,
    },
    signInPolicy: {
      ...DEFAULT_SIGN_IN_POLICY,
      ipMaxAttempts: env.PORTAL_SIGN_IN_IP_MAX_ATTEMPTS,
      ipWindowSeconds: env.PORTAL_SIGN_IN_IP_WINDOW_SECONDS,
    },
    sessionTtlSeconds: env.PORTAL_SESSION_TTL_SECONDS,
    publicUrl: new URL(env.PORTAL_PUBLIC_URL),
    apiUrl: env.NEXT_PUBLIC_API_URL,
    publicBaseUrl: env.PUBLIC_BASE_URL ?? env.NEXT_PUBLIC_API_URL,
    embedSecret: env.CERTIFICATION_EMBED_SECRET,
    certificateKeyring: () => {
      if (env.CERTIFICATE_MASTER_KEY === undefined)
        throw new Error('CERTIFICATE_MASTER_KEY is not set: the portal cannot store certificates.');
      keyring ??= createCertificateKeyring({
        currentKey: env.CERTIFICATE_MASTER_KEY,
        previousKeys: env.CERTIFICATE_MASTER_KEYS,
      });
      return keyring;
    },
    documents,
    webhooks: {
      allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
      enqueue: documents.enqueue,
      inboxBaseUrl: env.PUBLIC_BASE_URL ?? env.NEXT_PUBLIC_API_URL,
    },
    partnerPlans: { quotas: env.PARTNER_PLAN_QUOTAS, graceDays: env.PARTNER_PAYMENT_GRACE_DAYS },
  };
  return holder.__ecfPortalRuntime;
}

/**
 * Try it enqueues `document.sign` like the API (pg-boss as a producer, started on first use) and
 * validates with the official XSDs, compiled once on first use (a failed load is retried later).
 */
function portalDocumentsOf(
  databaseUrl: string,
  cursorSecret: string,
  xsdDirectory: string,
  jobQueueMaxConnections: number,
): TPortalDocuments {
  const queue = createProducerQueue({
    databaseUrl,
    maxConnections: jobQueueMaxConnections,
    queues: PORTAL_JOB_QUEUES,
    onError: (error) => console.error('portal job queue error', error),
  });
  let xsd: ReturnType<TPortalDocuments['loadXsd']> | undefined;
  return {
    cursorSecret,
    enqueue: queue.enqueue,
    loadXsd: () => {
      xsd ??= loadXsdValidators(xsdDirectory).catch((error: unknown) => {
        xsd = undefined;
        throw error;
      });
      return xsd;
    },
  };
}
