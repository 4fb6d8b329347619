/**
 * The reception process: the public reception routes (`/fe/...`, `/{env}/fe/...`) on their own
 * port (RECEPTION_HOST:RECEPTION_PORT, default 127.0.0.1:3004) with their own database pool, so a
 * flood of deliveries never stalls the documents API (src/reception-app.ts). `npm run start:reception`.
 */
import { createDatabaseClient, enforceConnectionBudget } from '@ecf/db';
import { buildReceptionApp } from './reception-app.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const database = createDatabaseClient({
  databaseUrl: env.DATABASE_URL,
  maxConnections: env.RECEPTION_DB_POOL_MAX,
  poolTimeoutMs: env.API_DB_POOL_TIMEOUT_MS,
});
const app = await buildReceptionApp({ env, database });
// Its pools: the application's, pg-boss as a producer, the readiness probe's (README "Database connections").
await enforceConnectionBudget({
  databaseUrl: env.DATABASE_URL,
  budget: {
    process: 'reception',
    pools: {
      application: env.RECEPTION_DB_POOL_MAX,
      jobQueue: env.API_JOB_QUEUE_POOL_MAX,
      readiness: env.API_READINESS_POOL_MAX,
    },
  },
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

await app.listen({ host: env.RECEPTION_HOST, port: env.RECEPTION_PORT });
