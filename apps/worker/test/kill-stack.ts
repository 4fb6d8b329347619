/**
 * What the crash tests of the real worker process share: the test's database, the tax authority
 * simulator on a database of its own, the API's side of the job queue (sends only: the worker
 * process creates and works the queues), a certificate master key, and the worker started against
 * all of it with the shortened tax authority timings the tests use (TAXAUTH_TIMEOUT_MS 2 s,
 * WORKER_TRANSMIT_IN_FLIGHT_MS 6 s, which must stay >= 3 x TAXAUTH_TIMEOUT_MS) and two jobs per
 * fetch, so kills land between documents.
 */
import { randomBytes } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { JOB_QUEUE_SCHEMA } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { startSimulator } from '@ecf/taxauth-sim';
import { startWorkerProcess, type TWorkerProcess } from './worker-process.ts';

export type TKillStack = Awaited<ReturnType<typeof openKillStack>>;

export async function openKillStack(options: { processingDelayMs: number }) {
  const context = await openTestDatabase();
  const simulatorDatabase = await createTestDatabase({ migrated: false });
  const simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: OFFICIAL_XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: options.processingDelayMs,
    port: 0,
  });
  const boss = new PgBoss({
    connectionString: context.url,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  const masterKey = randomBytes(32).toString('base64');
  return {
    context,
    simulator,
    /** The simulator's database (what the tax authority received: `taxauth_sim.tracks`). */
    simulatorDatabaseUrl: simulatorDatabase.url,
    boss,
    masterKey,
    startWorker(): TWorkerProcess {
      return startWorkerProcess({
        DATABASE_URL: context.url,
        CERTIFICATE_MASTER_KEY: masterKey,
        XSD_DIRECTORY: OFFICIAL_XSD_DIRECTORY,
        TAXAUTH_ECF_BASE_URL: simulator.baseUrl,
        TAXAUTH_FC_BASE_URL: simulator.baseUrl,
        TAXAUTH_STATUS_BASE_URL: simulator.baseUrl,
        TAXAUTH_TIMEOUT_MS: '2000',
        WORKER_TRANSMIT_IN_FLIGHT_MS: '6000',
        WORKER_CONCURRENCY: '2',
      });
    },
    async close() {
      await boss.stop({ graceful: false, close: true });
      await simulator.close();
      await simulatorDatabase.drop();
      await context.close();
    },
  };
}
