/**
 * `npm start -w @ecf/web`: the production build (`next build`) served by our own node:http server
 * (server/http-server.ts), because `next start` sets only the keep-alive timeout. It binds
 * WEB_HOST (127.0.0.1 by default), checks the process's database connection budget against the
 * server first, and stops on SIGTERM/SIGINT.
 */
import next from 'next';
import { enforceConnectionBudget } from '@ecf/db';
import { readServerEnv, webPoolMaxOf } from './server-env.ts';
import { createPortalServer } from './server/http-server.ts';

const env = readServerEnv();
const log = {
  info: (data: object, message: string) => console.log(JSON.stringify({ level: 30, msg: message, ...data })),
  warn: (data: object, message: string) => console.log(JSON.stringify({ level: 40, msg: message, ...data })),
};
// A budget the server cannot hold stops the start here (exit code 1, the sums on stderr).
await enforceConnectionBudget({
  databaseUrl: env.DATABASE_URL,
  budget: {
    process: 'web',
    pools: { application: webPoolMaxOf(env), jobQueue: env.WEB_JOB_QUEUE_POOL_MAX },
  },
  reserve: env.DB_CONNECTION_RESERVE,
  log,
});

const app = next({ dev: false, dir: import.meta.dirname, hostname: env.WEB_HOST, port: env.WEB_PORT });
await app.prepare();
const handle = app.getRequestHandler();
const server = createPortalServer({
  handler: (request, response) => handle(request, response),
  timeouts: {
    headersTimeoutMs: env.WEB_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: env.WEB_BODY_TIMEOUT_MS,
    requestTimeoutMs: env.WEB_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.WEB_KEEP_ALIVE_TIMEOUT_MS,
  },
});
server.once('error', (error) => {
  console.error(`the portal could not listen on ${env.WEB_HOST}:${env.WEB_PORT}:`, error.message);
  process.exit(1);
});
server.listen(env.WEB_PORT, env.WEB_HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : env.WEB_PORT;
  log.info({ host: env.WEB_HOST, port }, `portal listening on http://${env.WEB_HOST}:${port}`);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    void app.close().finally(() => process.exit(0));
  });
}
