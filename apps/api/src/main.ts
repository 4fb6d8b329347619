import { createDatabaseClient } from '@ecf/db';
import { buildApp } from './app.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const database = createDatabaseClient({ databaseUrl: env.DATABASE_URL });
const app = await buildApp({ env, database });

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
