import { z } from 'zod';
import { readEnvironment } from '@ecf/services';

const ZEnv = z.object({
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
  WORKER_HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long SIGTERM waits for running jobs before giving up on them (they are retried later). */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /**
   * Master key (32 bytes, base64) that encrypts tenant certificates at rest. Without it the worker
   * runs but cannot sign. Production sets its own; scripts/up.sh generates a development one.
   */
  CERTIFICATE_MASTER_KEY: z.string().min(1).optional(),
  /** Earlier master keys, comma-separated, still able to decrypt certificates stored before a rotation. */
  CERTIFICATE_MASTER_KEYS: z.string().optional(),
  /** The tax authority's hosts (production: https://ecf.dgii.gov.do, https://fc.dgii.gov.do, https://statusecf.dgii.gov.do); default the local simulator. */
  TAXAUTH_ECF_BASE_URL: z.url().default('http://127.0.0.1:4000'),
  TAXAUTH_FC_BASE_URL: z.url().default('http://127.0.0.1:4000'),
  TAXAUTH_STATUS_BASE_URL: z.url().default('http://127.0.0.1:4000'),
  /** Timeout of each HTTP exchange with the tax authority; no answer within it is a contingency. */
  TAXAUTH_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Official XSDs (relative paths from the repository root); signed XML is checked against them. */
  XSD_DIRECTORY: z.string().min(1).default('config/xsd'),
});

export type TEnv = z.infer<typeof ZEnv>;

/** Reads and validates the worker's environment once. A failure names the variable, never its value. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return readEnvironment(ZEnv, source);
}
