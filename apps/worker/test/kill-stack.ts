/**
 * What the crash tests of the real worker process share: the test's database, the tax authority
 * simulator on a database of its own, the API's side of the job queue (sends only: the worker
 * process creates and works the queues), a certificate master key, and the worker started against
 * all of it with the shortened tax authority timings the tests use (TAXAUTH_TIMEOUT_MS 3 s,
 * WORKER_TRANSMIT_IN_FLIGHT_MS 9 s, which must stay >= 3 x TAXAUTH_TIMEOUT_MS) and two jobs per
 * fetch, so kills land between documents; or with the stack's default timings (`'defaults'`).
 */
import { randomBytes } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { JOB_QUEUE_SCHEMA } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { startSimulator } from '@ecf/taxauth-sim';
import { startWorkerProcess, type TWorkerProcess } from './worker-process.ts';

export type TKillStack = Awaited<ReturnType<typeof openKillStack>>;

/** The timings a worker started with `'defaults'` never inherits from the test's environment. */
const DEFAULTED_TIMINGS = [
  'TAXAUTH_TIMEOUT_MS',
  'WORKER_TRANSMIT_IN_FLIGHT_MS',
  'WORKER_CONCURRENCY',
  'WORKER_JOB_EXPIRE_SECONDS',
  'WORKER_JOB_HEARTBEAT_SECONDS',
  'WORKER_RECOVERY_INTERVAL_SECONDS',
  'WORKER_JOB_RETRY_DELAY_SECONDS',
  'WORKER_SUPERVISE_INTERVAL_SECONDS',
  'WORKER_SWEEP_STALE_SECONDS',
];

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
    /**
     * The worker against this stack: with the tests' shortened timings, or (`'defaults'`) with the
     * stack's default settings for every timing (only where to find the database, the key, the
     * schemas and the simulator is given).
     */
    startWorker(timings: 'test' | 'defaults' = 'test'): TWorkerProcess {
      return startWorkerProcess({
        DATABASE_URL: context.url,
        CERTIFICATE_MASTER_KEY: masterKey,
        XSD_DIRECTORY: OFFICIAL_XSD_DIRECTORY,
        TAXAUTH_ECF_BASE_URL: simulator.baseUrl,
        TAXAUTH_FC_BASE_URL: simulator.baseUrl,
        TAXAUTH_STATUS_BASE_URL: simulator.baseUrl,
        ...(timings === 'test'
          ? // 3 s, not less: on a loaded two-core machine (the end-to-end stack beside it) a 400 ms
            // reception answered in over 2 s, and a timeout sends its document to contingency (5 min).
            { TAXAUTH_TIMEOUT_MS: '3000', WORKER_TRANSMIT_IN_FLIGHT_MS: '9000', WORKER_CONCURRENCY: '2' }
          : Object.fromEntries(DEFAULTED_TIMINGS.map((name) => [name, undefined]))),
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
