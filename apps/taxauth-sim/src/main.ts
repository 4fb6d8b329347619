import { buildSimulator } from './app.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const app = buildSimulator({ logLevel: env.LOG_LEVEL });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close();
  });
}
await app.listen({ host: env.SIM_HOST, port: env.SIM_PORT });
