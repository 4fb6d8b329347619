import type { TConnectionBudget } from '@ecf/db';
import type { TEnv } from './env.ts';

/**
 * Every connection one worker process may hold (README "Database connections"): the application
 * pool, pg-boss's pool and the webhook outbox's LISTEN connection.
 */
export function workerConnectionBudget(
  env: Pick<TEnv, 'WORKER_DB_POOL_MAX' | 'WORKER_JOB_QUEUE_POOL_MAX'>,
): TConnectionBudget {
  return {
    process: 'worker',
    pools: { application: env.WORKER_DB_POOL_MAX, jobQueue: env.WORKER_JOB_QUEUE_POOL_MAX, webhookOutbox: 1 },
  };
}
