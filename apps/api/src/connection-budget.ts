import type { TConnectionBudget } from '@ecf/db';
import type { TEnv } from './env.ts';

/**
 * Every connection one API process may hold (README "Database connections"): the application
 * pool, pg-boss as a producer, the readiness probe's pool and the document waiter's LISTEN.
 */
export function apiConnectionBudget(
  env: Pick<TEnv, 'API_DB_POOL_MAX' | 'API_JOB_QUEUE_POOL_MAX' | 'API_READINESS_POOL_MAX'>,
): TConnectionBudget {
  return {
    process: 'api',
    pools: {
      application: env.API_DB_POOL_MAX,
      jobQueue: env.API_JOB_QUEUE_POOL_MAX,
      readiness: env.API_READINESS_POOL_MAX,
      documentWaiter: 1,
    },
  };
}
