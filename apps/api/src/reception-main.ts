/**
 * The reception process: the public reception routes (`/fe/...`, `/{env}/fe/...`) on their own
 * port (RECEPTION_HOST:RECEPTION_PORT, default 127.0.0.1:3004) with their own database pool, so a
 * flood of deliveries never stalls the documents API (src/reception-app.ts). `npm run start:reception`.
 */
import { buildReceptionApp } from './reception-app.ts';
import { readEnv } from './env.ts';
import { serveProcess } from './serve.ts';

const env = readEnv();
await serveProcess({
  env,
  poolMax: env.RECEPTION_DB_POOL_MAX,
  // Its pools: the application's, pg-boss as a producer, the readiness probe's (README "Database connections").
  budget: {
    process: 'reception',
    pools: {
      application: env.RECEPTION_DB_POOL_MAX,
      jobQueue: env.API_JOB_QUEUE_POOL_MAX,
      readiness: env.API_READINESS_POOL_MAX,
    },
  },
  build: (database) => buildReceptionApp({ env, database }),
  listen: { host: env.RECEPTION_HOST, port: env.RECEPTION_PORT },
});
