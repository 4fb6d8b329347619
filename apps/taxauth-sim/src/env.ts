import { z } from 'zod';
import { readEnvironment } from '@ecf/services';

const ZEnv = z.object({
  SIM_HOST: z.string().min(1).default('127.0.0.1'),
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type TEnv = z.infer<typeof ZEnv>;

/** Reads and validates the simulator's environment once. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): TEnv {
  return readEnvironment(ZEnv, source);
}
