import { createDatabaseClient, enforceConnectionBudget } from '@ecf/db';
import { buildApp } from './app.ts';
import { apiConnectionBudget } from './connection-budget.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const database = createDatabaseClient({
  databaseUrl: env.DATABASE_URL,
  maxConnections: env.API_DB_POOL_MAX,
  poolTimeoutMs: env.API_DB_POOL_TIMEOUT_MS,
});
const app = await buildApp({ env, database });
// A budget the server cannot hold stops the start here (exit code 1, the sums on stderr).
await enforceConnectionBudget({
  databaseUrl: env.DATABASE_URL,
  budget: apiConnectionBudget(env),
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

await app.listen({ host: env.API_HOST, port: env.API_PORT });
