/**
 * The portal's environment, read once, on first use at request time (never at build time: `next
 * build` needs no secret, so none can end up in what it writes). No other file reads `process.env`
 * (a lint rule). Everything here is server-only: the `server-only` import makes a client component
 * that imports this file a build error, and a test scans the built client bundles for the secrets'
 * names and values anyway (e2e/specs/portal-security.spec.ts).
 */
import 'server-only';
import { z } from 'zod';
import { ZPortalPoolEnv } from './server-env.ts';

const ZBoolean = z
  .enum(['true', 'false'])
  .default('false')
  .transform((value) => value === 'true');

/** A development value: refused in production (`npm start`: server.ts), where each secret must be set. */
const DEVELOPMENT_SECRET = 'local-development-portal-secret-change-me-0000';

const ZEnv = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    // The database pools (WEB_DB_POOL_MAX, WEB_JOB_QUEUE_POOL_MAX, WEB_DB_POOL_TIMEOUT_MS), declared
    // once for this file and the server process (server-env.ts).
    ...ZPortalPoolEnv.shape,
    /**
     * The portal's public address (scheme, host, port): e-mailed links, the same-origin check of
     * every mutation, next-auth's URL, and `secure` cookies when it is https.
     */
    PORTAL_PUBLIC_URL: z.url().default('http://127.0.0.1:3001'),
    /** Key of next-auth's encrypted JWT (32+ random characters; `openssl rand -base64 32`). */
    NEXTAUTH_SECRET: z.string().min(32).default(DEVELOPMENT_SECRET),
    /** How long a portal session lives from its sign-in (absolute). */
    PORTAL_SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(300)
      .max(30 * 24 * 3600)
      .default(12 * 3600),
    /** Sign-in attempts allowed from one client address per window (the per-account lock is separate). */
    PORTAL_SIGN_IN_IP_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(50),
    PORTAL_SIGN_IN_IP_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
    /**
     * How often a live page (overview, documents, a document, support desk, webhook deliveries)
     * refreshes while something on it is pending; idle pages back off from there (README "Live status").
     */
    WEB_LIVE_POLL_MS: z.coerce.number().int().min(500).max(60_000).default(5000),
    /** The REST API the portal shows to its users (Try it, API keys). Read at request time. */
    NEXT_PUBLIC_API_URL: z.url().default('http://127.0.0.1:3000'),
    /**
     * The service's public address as the tax authority reaches it (the API's PUBLIC_BASE_URL): the
     * reception, commercial approval and authentication URLs the certification page tells a taxpayer
     * to register. Unset: NEXT_PUBLIC_API_URL.
     */
    PUBLIC_BASE_URL: z.url().optional(),
    /**
     * HMAC key of the embedded certification links the Partner API hands out
     * (`/embed/certification/{token}`): the API's CERTIFICATION_EMBED_SECRET, the same value.
     */
    CERTIFICATION_EMBED_SECRET: z.string().min(32).default('local-development-embed-secret-change-me-00000'),
    /** SMTP of the portal's e-mails (invitations, password resets): the same variables as the worker's. */
    SMTP_HOST: z.string().min(1).default('127.0.0.1'),
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
    SMTP_SECURE: ZBoolean,
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
    MAIL_FROM: z.string().min(3).default('Facturación electrónica <no-reply@ecf.localhost>'),
    /**
     * Secret of the issued list's cursors: the API's own (API_CURSOR_SECRET), so that a cursor
     * of the portal's documents page and one of the REST API are the same thing.
     */
    API_CURSOR_SECRET: z.string().min(32).default('local-development-cursor-secret-change-me-0000'),
    /** The official XSDs (Try it validates as the API does); relative: to the repository root. */
    XSD_DIRECTORY: z.string().min(1).default('config/xsd'),
    /** Master key of the tenants' certificates (the certificate page): server-only, never in a bundle. */
    CERTIFICATE_MASTER_KEY: z.string().min(1).optional(),
    CERTIFICATE_MASTER_KEYS: z.string().optional(),
    /** The tax authority's services: the annulments page sends the ANECF itself (as the API does). */
    TAXAUTH_ECF_BASE_URL: z.url().default('http://127.0.0.1:4000'),
    TAXAUTH_FC_BASE_URL: z.url().default('http://127.0.0.1:4000'),
    TAXAUTH_STATUS_BASE_URL: z.url().default('http://127.0.0.1:4000'),
    TAXAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
    /** Development only: webhook endpoints may target loopback/private addresses over plain http (local receivers). */
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: ZBoolean,
    /** The Partner plans' monthly quotas (`plan=quota,...`), as the API reads them: the billing page shows them. */
    PARTNER_PLAN_QUOTAS: z
      .string()
      .regex(/^\s*[A-Za-z0-9_-]+\s*=\s*\d+\s*(,\s*[A-Za-z0-9_-]+\s*=\s*\d+\s*)*$/)
      .default('starter=1000,growth=10000,scale=100000')
      .transform(
        (text) =>
          Object.fromEntries(
            text.split(',').map((pair) => {
              const [plan = '', quota = '0'] = pair.split('=').map((part) => part.trim());
              return [plan, Number(quota)];
            }),
          ) as Record<string, number>,
      ),
    PARTNER_PAYMENT_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  })
  .refine((env) => (env.SMTP_USER === undefined) === (env.SMTP_PASSWORD === undefined), {
    path: ['SMTP_PASSWORD'],
    message: 'SMTP_USER and SMTP_PASSWORD go together (both or neither)',
  })
  .refine((env) => env.NODE_ENV !== 'production' || env.NEXTAUTH_SECRET !== DEVELOPMENT_SECRET, {
    path: ['NEXTAUTH_SECRET'],
    message: 'must be set in production',
  });

export type TPortalEnv = z.infer<typeof ZEnv>;

let parsed: TPortalEnv | undefined;

/**
 * The validated environment (parsed on the first call). Empty values count as unset, so blank
 * `.env` lines take the default; a failure names the variables, never their values.
 */
export function portalEnv(): TPortalEnv {
  if (parsed !== undefined) return parsed;
  // The object as a whole, never `process.env.NEXT_PUBLIC_...` spelled out: Next.js would inline
  // such a read at build time, and the API's address must be the running one's.
  const source = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  const result = ZEnv.safeParse(source);
  if (!result.success) {
    const names = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))].join(', ');
    throw new Error(`invalid environment variables: ${names}`);
  }
  parsed = result.data;
  // next-auth reads its URL from process.env itself (links, the origin of its CSRF checks).
  process.env.NEXTAUTH_URL = parsed.PORTAL_PUBLIC_URL;
  return parsed;
}
