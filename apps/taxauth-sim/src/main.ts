import { startSimulator } from './app.ts';
import { readDirectoryFile } from './directory.ts';
import { readEnv } from './env.ts';

const env = readEnv();
const simulator = await startSimulator({
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
