import type { FastifyInstance } from 'fastify';
import {
  createDatabaseClient,
  enforceConnectionBudget,
  type TConnectionBudget,
  type TDatabase,
} from '@ecf/db';
import type { TEnv } from './env.ts';

/**
 * Runs one of the API's processes (src/main.ts, src/reception-main.ts): its database pool, its
 * app, the connection budget checked against the server (a budget the server cannot hold stops the
 * start here: exit code 1, the sums on stderr), a graceful close on SIGINT/SIGTERM, then listening.
 */
export async function serveProcess(options: {
  env: TEnv;
  poolMax: number;
  budget: TConnectionBudget;
  build: (database: TDatabase) => Promise<FastifyInstance>;
  listen: { host: string; port: number };
}): Promise<void> {
  const { env } = options;
  const database = createDatabaseClient({
    databaseUrl: env.DATABASE_URL,
    maxConnections: options.poolMax,
    poolTimeoutMs: env.API_DB_POOL_TIMEOUT_MS,
  });
  const app = await options.build(database);
  await enforceConnectionBudget({
    databaseUrl: env.DATABASE_URL,
    budget: options.budget,
    reserve: env.DB_CONNECTION_RESERVE,
    log: app.log,
  });

  let closing = false;
  async function shutdown(signal: string): Promise<void> {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.$disconnect();
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void shutdown(signal);
    });
  }
  await app.listen(options.listen);
}
