import { z } from 'zod';

/** `LOG_LEVEL` of every app (pino's levels). */
export const ZLogLevel = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');
