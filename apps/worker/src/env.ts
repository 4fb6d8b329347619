import { z } from 'zod';
import { readEnvironment } from '@ecf/services';

const ZEnv = z.object({
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
  WORKER_HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long SIGTERM waits for running jobs before giving up on them (they are retried later). */
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
});

export type TEnv = z.infer<typeof ZEnv>;

/** Reads and validates the worker's environment once. A failure names the variable, never its value. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return readEnvironment(ZEnv, source);
}
