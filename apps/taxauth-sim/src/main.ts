import { enforceConnectionBudget } from '@ecf/db';
import { startSimulator } from './app.ts';
import { readDirectoryFile } from './directory.ts';
import { readEnv } from './env.ts';

const env = readEnv();
// A budget the server cannot hold stops the start here (exit code 1, the sums on stderr).
await enforceConnectionBudget({
  databaseUrl: env.databaseUrl,
  budget: { process: 'taxauth-sim', pools: { store: env.SIM_DB_POOL_MAX } },
  reserve: env.DB_CONNECTION_RESERVE,
  log: {
    info: (data, message) => console.log(JSON.stringify({ level: 30, msg: message, ...data })),
    warn: (data, message) => console.log(JSON.stringify({ level: 40, msg: message, ...data })),
  },
});
const simulator = await startSimulator({
  maxConnections: env.SIM_DB_POOL_MAX,
  poolTimeoutMs: env.SIM_DB_POOL_TIMEOUT_MS,
  databaseUrl: env.databaseUrl,
  schema: env.SIM_SCHEMA,
  xsdDirectory: env.xsdDirectory,
  tokenSecret: env.SIM_TOKEN_SECRET,
  processingDelayMs: env.SIM_PROCESSING_DELAY_MS,
  loadTest: env.SIM_LOAD_TEST,
  directory: env.directoryFile === undefined ? [] : await readDirectoryFile(env.directoryFile),
  logLevel: env.LOG_LEVEL,
  host: env.SIM_HOST,
  port: env.SIM_PORT,
});
simulator.app.log.info(
  { baseUrl: simulator.baseUrl, loadTest: env.SIM_LOAD_TEST, schema: env.SIM_SCHEMA },
  'tax authority simulator listening',
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close();
  });
}
