/**
 * The API on a throwaway database of its own, as a process: for e2e specs, which drive a real API
 * over HTTP without importing the database's test support. Listens on 127.0.0.1:`PORT` (0: any
 * free port), prints `listening <url>`, and on SIGTERM or SIGINT closes and drops its database.
 *
 *   PORT=3999 bash ../../scripts/node24.sh node --import tsx test/serve-test-api.ts
 */
import { startTestApi } from './test-api.ts';

const api = await startTestApi();
const url = await api.app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
console.log(`listening ${url}`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    api.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
