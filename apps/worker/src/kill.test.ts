/**
 * Crash safety of the real worker process: documents issued as the API issues them, the worker
 * killed with SIGKILL (no graceful stop) several times while it signs and while it sends, then
 * restarted. At the end every document is accepted and the tax authority received each eNCF once.
 *
 * pg-boss re-delivers a killed worker's active jobs only after their `expireInSeconds`, found by its
 * supervise pass; the test shortens both (WORKER_JOB_EXPIRE_SECONDS, WORKER_SUPERVISE_INTERVAL_SECONDS)
 * and the retry delay, and the in-flight window of an attempt without outcome
 * (WORKER_TRANSMIT_IN_FLIGHT_MS, which must stay >= 3 x TAXAUTH_TIMEOUT_MS).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { JOB_QUEUE_SCHEMA, seedTenant } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import { createCertificateKeyring, issueDocument, storeTenantCertificate } from '@ecf/services';
import { startSimulator } from '@ecf/taxauth-sim';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';

const XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;
const DOCUMENTS = 36;
const KILLS = 6;

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let simulatorDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let boss: PgBoss;
const masterKey = randomBytes(32).toString('base64');

before(async () => {
  context = await openTestDatabase();
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 100,
    port: 0,
  });
  // The API's side of the queue: sends only (the worker process creates and works the queues).
  boss = new PgBoss({
    connectionString: context.url,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
});
after(async () => {
  await boss.stop({ graceful: false, close: true });
  await simulator.close();
  await simulatorDatabase.drop();
  await context.close();
});

type TWorkerProcess = { child: ChildProcess; exited: Promise<void>; output: () => string };

function startWorker(): TWorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: context.url,
      WORKER_HEALTH_PORT: '0',
      LOG_LEVEL: 'warn',
      CERTIFICATE_MASTER_KEY: masterKey,
      XSD_DIRECTORY,
      TAXAUTH_ECF_BASE_URL: simulator.baseUrl,
      TAXAUTH_FC_BASE_URL: simulator.baseUrl,
      TAXAUTH_STATUS_BASE_URL: simulator.baseUrl,
      TAXAUTH_TIMEOUT_MS: '2000',
      WORKER_TRANSMIT_IN_FLIGHT_MS: '6000',
      WORKER_JOB_EXPIRE_SECONDS: '3',
      WORKER_JOB_RETRY_DELAY_SECONDS: '1',
      WORKER_SUPERVISE_INTERVAL_SECONDS: '1',
      // Two fetches of two jobs per queue: documents are signed a few at a time, so kills land between them.
      WORKER_CONCURRENCY: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited, output: () => output };
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function statusCounts(): Promise<Record<string, number>> {
  const rows = await context.database.$queryRaw<
    Array<{ status: string; count: bigint }>
  >`SELECT status::text AS status, count(*) AS count FROM documents GROUP BY status`;
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/** Attempts committed whose outcome is not recorded yet: a request may be on its way right now. */
async function attemptsInFlight(): Promise<number> {
  const [row] = await context.database.$queryRaw<Array<{ open: bigint }>>`
    SELECT (count(*) FILTER (WHERE type = 'transmission_attempt') - count(*) FILTER (WHERE type = 'transmission_outcome')) AS open
    FROM document_events`;
  return Number(row?.open ?? 0);
}

async function eventCounts(): Promise<{ signed: number; attempts: number }> {
  const [row] = await context.database.$queryRaw<Array<{ signed: bigint; attempts: bigint }>>`
    SELECT count(*) FILTER (WHERE type = 'signed') AS signed, count(*) FILTER (WHERE type = 'transmission_attempt') AS attempts FROM document_events`;
  return { signed: Number(row?.signed ?? 0), attempts: Number(row?.attempts ?? 0) };
}

async function jobStates(): Promise<Record<string, number>> {
  const rows = await context.database.$queryRaw<Array<{ key: string; count: bigint }>>`
    SELECT name || ':' || state::text AS key, count(*) AS count FROM pgboss.job WHERE name LIKE 'document.%' GROUP BY 1 ORDER BY 1`;
  return Object.fromEntries(rows.map((row) => [row.key, Number(row.count)]));
}

/** Waits until `condition` holds (checked every 10 ms); false when `timeoutMs` passes first. */
async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(10);
  }
  return false;
}

test(
  'SIGKILL while signing and while sending: every document accepted, each eNCF received once',
  { timeout: 90_000 },
  async () => {
    const tenantRow = await seedTenant(context.database);
    const keyring = createCertificateKeyring({ currentKey: masterKey });
    const certificate = createTestCertificate({ rnc: tenantRow.rnc, commonName: 'Firmante de prueba' });
    await storeTenantCertificate({
      database: context.database,
      keyring,
      tenantId: tenantRow.id,
      p12: certificate.p12,
      password: certificate.password,
    });
    const tenant = await context.database.tenant.findUniqueOrThrow({ where: { id: tenantRow.id } });

    // Every reception answers slowly: a kill lands while requests are on their way.
    const fault = await fetch(`${simulator.baseUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        environment: 'testecf',
        service: 'recepcion',
        fault: 'slow',
        delayMs: 400,
        count: 1000,
      }),
    });
    assert.equal(fault.status, 201);

    // The worker runs while documents arrive; its queue policy (short expiry) must be in place before
    // they are enqueued, since a job keeps the policy its queue had when it was sent.
    let worker = startWorker();
    const ready = await waitUntil(async () => {
      const rows = await context.database.$queryRaw<
        Array<{ expire: number }>
      >`SELECT expire_seconds AS expire FROM pgboss.queue WHERE name = 'document.sign'`;
      return rows[0]?.expire === 3;
    }, 20_000);
    assert.ok(ready, `the worker did not set up its queues:\n${worker.output()}`);

    // Issued as the API issues them: stored and enqueued for signing in one transaction.
    const xsd = await loadXsdValidators(XSD_DIRECTORY);
    const enqueue = createEnqueue(() => boss);
    const encfs: string[] = [];
    const base = randomInt(1, 1_000_000_000);
    for (let index = 0; index < DOCUMENTS; index += 1) {
      const encf = `E31${String(base + index).padStart(10, '0')}`;
      encfs.push(encf);
      const body = {
        type: 'E31',
        encf,
        sequenceExpirationDate: '31-12-2027',
        issueDate: '2026-04-01',
        buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
        paymentType: 'card',
        incomeType: '01',
        lines: Array.from({ length: 3 }, (_, line) => ({
          name: `Artículo ${line + 1}`,
          quantity: line + 1,
          unitPrice: '450.00',
          itbisRate: 18,
          itemKind: 'good',
        })),
      };
      const rawBody = JSON.stringify(body);
      const issued = await issueDocument({
        database: context.database,
        tenant,
        environment: 'TesteCF',
        xsd,
        now: new Date('2026-04-01T14:15:00Z'),
        rawBody,
        body,
        enqueue,
      });
      assert.equal(issued.document.status, 'queued_for_signing');
    }
    xsd.dispose();

    const kills: Array<{ phase: 'signing' | 'sending'; counts: Record<string, number>; inFlight: number }> =
      [];
    try {
      for (let kill = 0; kill < KILLS; kill += 1) {
        const phase = kill % 2 === 0 ? 'signing' : 'sending';
        // Only once this worker has made progress of the kind wanted (not while it is starting).
        const since = await eventCounts();
        const landed =
          phase === 'signing'
            ? await waitUntil(async () => {
                const now = await eventCounts();
                return now.signed > since.signed && ((await statusCounts())['queued_for_signing'] ?? 0) > 0;
              }, 10_000)
            : await waitUntil(
                async () => (await eventCounts()).attempts > since.attempts && (await attemptsInFlight()) > 0,
                10_000,
              );
        if (process.env['KILL_TEST_DEBUG'])
          console.log(
            new Date().toISOString(),
            phase,
            'landed',
            landed,
            JSON.stringify(await statusCounts()),
            JSON.stringify(await jobStates()),
          );
        if (worker.child.exitCode !== null)
          throw new Error(`the worker exited on its own (${worker.child.exitCode}):\n${worker.output()}`);
        if (!landed) continue;
        if (phase === 'signing') await sleep(randomInt(0, 40));
        const inFlight = await attemptsInFlight();
        worker.child.kill('SIGKILL');
        await worker.exited;
        kills.push({ phase, counts: await statusCounts(), inFlight });
        if (process.env['KILL_TEST_DEBUG'])
          console.log(
            new Date().toISOString(),
            'killed',
            JSON.stringify(kills.at(-1)),
            JSON.stringify(await jobStates()),
          );
        worker = startWorker();
      }

      const finished = await waitUntil(
        async () => ((await statusCounts())['accepted'] ?? 0) === DOCUMENTS,
        50_000,
      );
      assert.ok(
        finished,
        `not all accepted: ${JSON.stringify(await statusCounts())}; jobs ${JSON.stringify(await jobStates())}; kills ${JSON.stringify(kills)}\n${worker.output()}`,
      );
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }

    assert.ok(kills.length >= 4, `only ${kills.length} kills landed: ${JSON.stringify(kills)}`);
    assert.ok(
      kills.some((kill) => kill.phase === 'signing'),
      'a kill landed while signing',
    );
    assert.ok(
      kills.some((kill) => kill.inFlight > 0),
      `a kill landed with a request on its way: ${JSON.stringify(kills)}`,
    );

    // None lost: every document issued is accepted (and nothing else exists).
    assert.deepEqual(await statusCounts(), { accepted: DOCUMENTS });
    // Never twice: the simulator holds exactly one reception per eNCF.
    const client = new pg.Client({ connectionString: simulatorDatabase.url });
    await client.connect();
    try {
      const receptions = await client.query<{ encf: string; count: string }>(
        'SELECT encf, count(*) AS count FROM taxauth_sim.tracks GROUP BY encf ORDER BY encf',
      );
      assert.deepEqual(
        receptions.rows.map((row) => [row.encf, Number(row.count)]),
        [...encfs].sort().map((encf) => [encf, 1]),
      );
    } finally {
      await client.end();
    }
  },
);
