import { z } from 'zod';
import { readEnvironment } from '@ecf/services';

const ZEnv = z.object({
  DATABASE_URL: z.url().default('postgresql://postgres@127.0.0.1:5432/ecf'),
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Largest accepted request body. A 1,000-line e-CF in JSON is well under 1 MiB. */
  API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Whether the Partner API (/partner/v1) exists; when false every Partner route answers 404. */
  PSFE_PARTNER_API_ENABLED: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export type TEnv = z.infer<typeof ZEnv>;

/** Reads and validates the API's environment once. A failure names the variable, never its value. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return readEnvironment(ZEnv, source);
}
