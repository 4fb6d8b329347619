/**
 * Crash safety of the real worker process: documents issued as the API issues them, the worker
 * killed with SIGKILL (no graceful stop) several times while it signs and while it sends, then
 * restarted. At the end every document is accepted and the tax authority received each eNCF once.
 *
 * pg-boss keeps its production timings here (jobs expire after 5 minutes, its supervise pass runs
 * every minute, retries wait 30 s and more): a killed worker's jobs come back through the leases
 * (the worker's, 15 s; its jobs' pg-boss heartbeat, 10 s) and the restarted worker's recovery of
 * lost documents (every 5 s), and the test measures how long the last restart takes to bring every
 * document to its final state. Only
 * the tax authority's timeout and the in-flight window of an attempt without outcome are shortened
 * (TAXAUTH_TIMEOUT_MS, WORKER_TRANSMIT_IN_FLIGHT_MS, which must stay >= 3 x TAXAUTH_TIMEOUT_MS).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import pg from 'pg';
import { seedTenant } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import { createTestCertificate } from '@ecf/fiscal-core';
import { createCertificateKeyring, issueDocument, storeTenantCertificate } from '@ecf/services';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { openKillStack, type TKillStack } from '../test/kill-stack.ts';
import { sleep, waitUntil } from '../test/worker-process.ts';

const XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;
const DOCUMENTS = 36;
const KILLS = 6;
/** Time an e-CF stays "En Proceso" at the simulator, and how slowly each reception answers. */
const PROCESSING_DELAY_MS = 100;
const RECEPTION_DELAY_MS = 400;
/** The goal: every document final within 30 s of the restart, plus the simulator's own delays. */
const RESTART_TO_FINAL_GOAL_MS = 30_000 + PROCESSING_DELAY_MS + RECEPTION_DELAY_MS;

let stack: TKillStack;
let context: TKillStack['context'];
let simulator: TKillStack['simulator'];
let boss: TKillStack['boss'];
let masterKey: string;

before(async () => {
  stack = await openKillStack({ processingDelayMs: PROCESSING_DELAY_MS });
  ({ context, simulator, boss, masterKey } = stack);
});
after(async () => {
  await stack.close();
});

const startWorker = () => stack.startWorker();

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

test(
  'SIGKILL while signing and while sending: every document accepted within 30 s of the last restart, each eNCF received once',
  { timeout: 240_000 },
  async (t) => {
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
        delayMs: RECEPTION_DELAY_MS,
        count: 1000,
      }),
    });
    assert.equal(fault.status, 201);

    // The worker runs while documents arrive; its queue policy (the lease) must be in place before
    // they are enqueued, since a job keeps the policy its queue had when it was sent.
    let worker = startWorker();
    const ready = await waitUntil(async () => {
      const rows = await context.database.$queryRaw<
        Array<{ heartbeat: number | null }>
      >`SELECT heartbeat_seconds AS heartbeat FROM pgboss.queue WHERE name = 'document.sign'`;
      return rows[0]?.heartbeat === 10;
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
    let restartedAt = Date.now();
    let restartToFinalMs = Number.NaN;
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
        restartedAt = Date.now();
      }

      // Generous: the assertion on the measured time below is the goal.
      const finished = await waitUntil(
        async () => ((await statusCounts())['accepted'] ?? 0) === DOCUMENTS,
        120_000,
      );
      restartToFinalMs = Date.now() - restartedAt;
      assert.ok(
        finished,
        `not all accepted: ${JSON.stringify(await statusCounts())}; jobs ${JSON.stringify(await jobStates())}; kills ${JSON.stringify(kills)}\n${worker.output()}`,
      );
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }

    t.diagnostic(
      `last restart → every document final: ${restartToFinalMs} ms (goal ${RESTART_TO_FINAL_GOAL_MS} ms); kills ${JSON.stringify(kills.map((kill) => [kill.phase, kill.counts, kill.inFlight]))}`,
    );
    assert.ok(kills.length >= 4, `only ${kills.length} kills landed: ${JSON.stringify(kills)}`);
    // The stall the lease removes: a killed worker's jobs stayed active until pg-boss expired them
    // (5 min) and its supervise pass (1 min) found them.
    assert.ok(
      restartToFinalMs <= RESTART_TO_FINAL_GOAL_MS,
      `the last restart took ${restartToFinalMs} ms to bring every document to its final state`,
    );
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
    const client = new pg.Client({ connectionString: stack.simulatorDatabaseUrl });
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
