/**
 * The environment of the portal's HTTP server process (server.ts): where it listens, its wire
 * timeouts and its database connection budget. Read before Next.js starts, in plain Node, so it
 * cannot be env.ts (`server-only` exists only inside Next's server build); env.ts reuses the pool
 * variables declared here. No secret is read here.
 */
import { z } from 'zod';

/** The database pools of one portal process (README "Database connections"); env.ts reads them too. */
export const ZPortalPoolEnv = z.object({
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
  /** The application pool (Prisma and plain SQL). `PORTAL_DATABASE_CONNECTIONS` is its earlier name, still read. */
  WEB_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).optional(),
  PORTAL_DATABASE_CONNECTIONS: z.coerce.number().int().min(1).max(1000).optional(),
  /** pg-boss as a producer (Try it's emissions). */
  WEB_JOB_QUEUE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(2),
  /** How long a request waits for a pooled connection before it is answered 503 SERVICE_UNAVAILABLE. */
  WEB_DB_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Connections of the server left to operators and other clients beyond PostgreSQL's own reserved slots. */
  DB_CONNECTION_RESERVE: z.coerce.number().int().min(0).max(1000).default(10),
});

/** Default size of the portal's application pool. */
export const DEFAULT_WEB_DB_POOL_MAX = 10;

const ZServerEnv = ZPortalPoolEnv.extend({
  /** Interface the portal listens on: loopback by default; `0.0.0.0` exposes it (behind a proxy). */
  WEB_HOST: z.string().min(1).default('127.0.0.1'),
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** The request line and headers must arrive within this (Node `headersTimeout`); else 400 REQUEST_TIMEOUT and closed. */
  WEB_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** A request's body must arrive within this after its headers; else 400 REQUEST_TIMEOUT and closed. */
  WEB_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** The whole request (headers and body) must arrive within this (Node `requestTimeout`). */
  WEB_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** An idle keep-alive connection is closed after this (Node `keepAliveTimeout`). */
  WEB_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
}).refine((env) => env.WEB_HEADERS_TIMEOUT_MS <= env.WEB_REQUEST_TIMEOUT_MS, {
  path: ['WEB_HEADERS_TIMEOUT_MS'],
  message: 'must not exceed WEB_REQUEST_TIMEOUT_MS',
});

export type TPortalServerEnv = z.infer<typeof ZServerEnv>;

/** The portal application pool's size: WEB_DB_POOL_MAX, else PORTAL_DATABASE_CONNECTIONS, else 10. */
export function webPoolMaxOf(env: z.infer<typeof ZPortalPoolEnv>): number {
  return env.WEB_DB_POOL_MAX ?? env.PORTAL_DATABASE_CONNECTIONS ?? DEFAULT_WEB_DB_POOL_MAX;
}

/**
 * Reads and validates the server process's environment (empty values count as unset). A failure
 * names the variables, never their values.
 */
export function readServerEnv(source: Record<string, string | undefined> = process.env): TPortalServerEnv {
  const defined = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = ZServerEnv.safeParse(defined);
  if (!result.success) {
    const names = [...new Set(result.error.issues.map((issue) => issue.path.join('.')))].join(', ');
    throw new Error(`invalid environment variables: ${names}`);
  }
  return result.data;
}
