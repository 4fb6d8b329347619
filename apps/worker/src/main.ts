import { pino } from 'pino';
import { createDatabaseClient } from '@ecf/db';
import { readEnv } from './env.ts';
import { createWorker } from './worker.ts';

const env = readEnv();
const log = pino({ level: env.LOG_LEVEL, base: { service: 'ecf-worker' } });
const database = createDatabaseClient({ databaseUrl: env.DATABASE_URL });
const worker = createWorker({ databaseUrl: env.DATABASE_URL, database, log, shutdownTimeoutMs: env.WORKER_SHUTDOWN_TIMEOUT_MS });
const healthServer = worker.createHealthServer();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping: waiting for running jobs');
  await worker.stop();
  await new Promise<void>((resolve) => healthServer.close(() => resolve()));
  await database.$disconnect();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    shutdown(signal).catch((error: unknown) => {
      log.error({ err: error }, 'unclean stop');
      process.exitCode = 1;
    });
  });
}

await worker.start();
healthServer.listen(env.WORKER_HEALTH_PORT, env.WORKER_HEALTH_HOST, () => {
  log.info({ port: env.WORKER_HEALTH_PORT }, 'worker health on /healthz');
});
