import { buildApp } from './app.ts';
import { apiConnectionBudget } from './connection-budget.ts';
import { readEnv } from './env.ts';
import { serveProcess } from './serve.ts';

const env = readEnv();
await serveProcess({
  env,
  poolMax: env.API_DB_POOL_MAX,
  budget: apiConnectionBudget(env),
  build: (database) => buildApp({ env, database }),
  listen: { host: env.API_HOST, port: env.API_PORT },
});
