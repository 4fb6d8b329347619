import { z } from 'zod';
import { readEnvironment, resolveFromRepository, ZLogLevel } from '@ecf/config';

/** `plan=requestsPerMinute` pairs separated by commas, e.g. `standard=600,professional=3000`. */
const ZPlanLimits = z
  .string()
  .regex(/^\s*[A-Za-z0-9_-]+\s*=\s*\d+\s*(,\s*[A-Za-z0-9_-]+\s*=\s*\d+\s*)*$/)
  .transform(
    (text) =>
      Object.fromEntries(
        text
          .split(',')
          .map((pair) => pair.split('=').map((part) => part.trim()))
          .map(([plan, limit]) => [plan, Number(limit)]),
      ) as Record<string, number>,
  );

/** `name=number` pairs of the Partner rate limits, every one of the four named. */
const ZPartnerRateLimits = ZPlanLimits.pipe(
  z.object({
    ip: z.number().int().min(1),
    partner: z.number().int().min(1),
    account: z.number().int().min(1),
    permission: z.number().int().min(1),
  }),
);

const ZEnv = z.object({
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * Largest accepted submission body (the other routes have smaller limits of their own, never
   * above this one; plugins/body-limits.ts). A 1,000-line e-CF with every element of every line
   * filled is 1.5 MB of compact JSON, 2.5 MB indented by 2 spaces, 3.4 MB by 4; with every text at
   * its XSD maximum length it is 5.3 MB compact. 6 MiB holds all of those.
   */
  API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(6 * 1024 * 1024),
  LOG_LEVEL: ZLogLevel,
  /**
   * Timeouts on the wire (README "Timeouts"). The request line and headers must arrive within
   * API_HEADERS_TIMEOUT_MS of the connection or of the previous answer (a connection that sends
   * nothing is closed then too); the whole request, body included, within API_REQUEST_TIMEOUT_MS;
   * an idle keep-alive connection is closed after API_KEEP_ALIVE_TIMEOUT_MS. Node checks the first
   * two every API_CONNECTIONS_CHECK_INTERVAL_MS. Each route's body has its own, shorter time limit
   * (src/route-limits.ts). A slow sender is answered 400 REQUEST_TIMEOUT where HTTP still allows it.
   */
  API_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  API_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  API_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(5_000),
  API_CONNECTIONS_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /** Whether the Partner API (/partner/v1) exists; when false every Partner route answers 404. */
  PSFE_PARTNER_API_ENABLED: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Partner API requests per fixed 60-second window (spec Limits: the same for every plan): per
   * source address, per Partner (all its keys), per fiscal account, per permission.
   */
  PARTNER_RATE_LIMITS: ZPartnerRateLimits.default({ ip: 1000, partner: 1000, account: 300, permission: 600 }),
  /** Monthly quota of accepted e-CF (eCF, all of a Partner's accounts) by plan: `plan=quota,...`. */
  PARTNER_PLAN_QUOTAS: ZPlanLimits.default({ starter: 1000, growth: 10000, scale: 100000 }),
  /** Days an overdue Partner may still emit in eCF before 402 PAYMENT_REQUIRED. */
  PARTNER_PAYMENT_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  /**
   * Development only: Partner webhook endpoints may use plain http and loopback or private
   * addresses (as WEBHOOKS_ALLOW_PRIVATE_TARGETS of the worker and the portal).
   */
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** Directory of the official XSD schemas, loaded once at start (relative: to the repository root). */
  XSD_DIRECTORY: z.string().min(1).default('config/xsd').transform(resolveFromRepository),
  /**
   * The public address of this service (as the worker's): the reception URLs a taxpayer registers
   * at the tax authority, shown by the certification case (`GET /CerteCF/certificacion`).
   */
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:3000'),
  /** The portal's public address: the Partner API's embedded certification links point there. */
  PORTAL_BASE_URL: z.url().default('http://127.0.0.1:3001'),
  /**
   * HMAC key of the embedded certification links (Partner `certification-sessions`); the portal,
   * which checks them, must have the same. Set a long random value in production.
   */
  CERTIFICATION_EMBED_SECRET: z.string().min(32).default('local-development-embed-secret-change-me-00000'),
  /** How the service calls itself in a taxpayer's application to the tax authority (provider of the software). */
  SOFTWARE_PROVIDER_NAME: z.string().min(1).max(150).default('Proveedor de servicios e-CF'),
  /** HMAC key of list cursors (tamper-evident, bound to the filters). Set a long random value in production. */
  API_CURSOR_SECRET: z.string().min(32).default('local-development-cursor-secret-change-me-0000'),
  /** Direct-account API requests per minute per API key, for plans not listed in API_RATE_LIMIT_PLANS. */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Requests per minute per API key by tenant plan: `plan=limit,...`. */
  API_RATE_LIMIT_PLANS: ZPlanLimits.default({ standard: 600, professional: 3000, enterprise: 12000 }),
  /**
   * Master key (32 bytes, base64) that encrypts tenant certificates at rest (admin CLI `certificate`
   * and `demo`). Production sets its own; scripts/up.sh generates a development one in .data/.
   */
  CERTIFICATE_MASTER_KEY: z.string().min(1).optional(),
  /** Earlier master keys, comma-separated, still able to decrypt certificates stored before a rotation. */
  CERTIFICATE_MASTER_KEYS: z.string().optional(),
  /**
   * The tax authority's services, for what the API sends itself (the ANECF of an annulment, issue
   * 17): the same addresses as the worker's.
   */
  TAXAUTH_ECF_BASE_URL: z.url().default('http://127.0.0.1:4000'),
  TAXAUTH_FC_BASE_URL: z.url().default('http://127.0.0.1:4000'),
  TAXAUTH_STATUS_BASE_URL: z.url().default('http://127.0.0.1:4000'),
  TAXAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** HMAC key of the buyer's PDF links (`GET /ri/{token}`); the worker signs them with the same key. */
  RI_LINK_SECRET: z.string().min(32).default('local-development-ri-link-secret-change-me-000'),
  /**
   * The environment of the public reception routes without an environment prefix (`/fe/...`);
   * `/{environment}/fe/...` names its own (docs/receiving.md).
   */
  RECEPTION_DEFAULT_ENVIRONMENT: z.enum(['TesteCF', 'CerteCF', 'eCF']).default('TesteCF'),
  /** Requests per minute per source address on the public reception routes (memory of each API process). */
  RECEPTION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /**
   * CPU milliseconds of reception work (XML pre-scan, XSD, signature verification, ARECF signing) a
   * source address regains per minute, and the most it may hold; past it: 429 with Retry-After
   * before the body is read (memory of each process; docs/receiving.md).
   */
  RECEPTION_CPU_BUDGET_MS_PER_MINUTE: z.coerce.number().int().min(1).default(6_000),
  RECEPTION_CPU_BUDGET_BURST_MS: z.coerce.number().int().min(1).default(6_000),
  /**
   * Deliveries whose signature was not verified: compact records kept per source address and UTC
   * day (beyond: only counted, the ARECF answered unsigned), and how long one is kept.
   */
  RECEPTION_REFUSED_PER_SENDER_PER_DAY: z.coerce.number().int().min(0).default(100),
  RECEPTION_REFUSED_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * Connection budget of one API process (README "Database connections"): the application pool
   * (Prisma and the plain-SQL hot paths), pg-boss as a producer, the readiness probe's pool, plus the
   * one LISTEN connection of `Prefer: wait`. The start is refused when the sum exceeds the server's
   * max_connections minus its reserved slots minus DB_CONNECTION_RESERVE.
   */
  API_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  API_JOB_QUEUE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(2),
  API_READINESS_POOL_MAX: z.coerce.number().int().min(1).max(10).default(2),
  /** How long a request waits for a pooled connection before it is answered 503 SERVICE_UNAVAILABLE with Retry-After. */
  API_DB_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Connections of the server left to operators and other clients beyond PostgreSQL's own reserved slots. */
  DB_CONNECTION_RESERVE: z.coerce.number().int().min(0).max(1000).default(10),
  /**
   * The reception process (`npm run start:reception`, src/reception-main.ts) listens here: the
   * public reception routes in a process of their own, so a flood there never stalls the API.
   */
  RECEPTION_HOST: z.string().min(1).default('127.0.0.1'),
  RECEPTION_PORT: z.coerce.number().int().min(0).max(65535).default(3004),
  /**
   * Where the API forwards `/fe/...` and `/{env}/fe/...` (streamed, never parsed here): the
   * reception process's address. Unset: the API serves those routes itself (tests, a single process).
   */
  RECEPTION_URL: z.url().optional(),
  /**
   * Shared by the API and the reception process: the API sends it with every forwarded request, and
   * only a request carrying it has its X-Forwarded-For believed (the per-address limits). Set a long
   * random value in production (and have the load balancer send it too when it routes /fe there).
   */
  RECEPTION_PROXY_SECRET: z.string().min(32).default('local-development-reception-proxy-secret-0000'),
  /** The longest a forwarded reception request may take, body and answer included (then 503). */
  RECEPTION_PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * The reception process's application pool (its pg-boss producer and readiness probe take
   * API_JOB_QUEUE_POOL_MAX and API_READINESS_POOL_MAX more): counted in its connection budget.
   */
  RECEPTION_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(5),
});

export type TEnv = z.infer<typeof ZEnv>;

/** Reads and validates the API's environment once. A failure names the variable, never its value. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return readEnvironment(ZEnv, source);
}

/**
 * The value of a variable the operator names at run time (the admin CLI's `--password-env`), so a
 * secret never travels on the command line. Undefined when unset or empty.
 */
export function readNamedVariable(name: string, source: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = source[name];
  return value === undefined || value === '' ? undefined : value;
}
