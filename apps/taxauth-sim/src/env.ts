import { z } from 'zod';
import { readEnvironment, resolveFromRepository, ZLogLevel } from '@ecf/config';

const ZEnv = z.object({
  SIM_HOST: z.string().min(1).default('127.0.0.1'),
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
  /** Database holding the simulator's schema; defaults to DATABASE_URL. */
  SIM_DATABASE_URL: z.url().optional(),
  SIM_SCHEMA: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/)
    .default('taxauth_sim'),
  /** Runtime copy of the official XSDs (never /work/shared). */
  XSD_DIRECTORY: z.string().min(1).default('config/xsd'),
  SIM_TOKEN_SECRET: z.string().min(16).default('taxauth-sim-development-secret-not-for-production'),
  SIM_PROCESSING_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(200),
  SIM_LOAD_TEST: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** JSON file with the directory of receivers: [{ rnc, name?, receptionUrl, commercialApprovalUrl?, authenticationUrl? }]. */
  SIM_DIRECTORY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: ZLogLevel,
  /**
   * Connection budget of one simulator process (README "Database connections"): its one pool. The
   * start is refused when it exceeds the server's max_connections minus its reserved slots minus
   * DB_CONNECTION_RESERVE.
   */
  SIM_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  /** How long a request waits for a pooled connection before it is answered 503 with Retry-After. */
  SIM_DB_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Connections of the server left to operators and other clients beyond PostgreSQL's own reserved slots. */
  DB_CONNECTION_RESERVE: z.coerce.number().int().min(0).max(1000).default(10),
});
export type TEnv = z.infer<typeof ZEnv> & {
  databaseUrl: string;
  xsdDirectory: string;
  directoryFile: string | undefined;
};

/** Reads and validates the simulator's environment once. A failure names the variable, never its value. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  const env = readEnvironment(ZEnv, source);
  return {
    ...env,
    databaseUrl: env.SIM_DATABASE_URL ?? env.DATABASE_URL,
    xsdDirectory: resolveFromRepository(env.XSD_DIRECTORY),
    directoryFile:
      env.SIM_DIRECTORY_FILE === undefined ? undefined : resolveFromRepository(env.SIM_DIRECTORY_FILE),
  };
}
