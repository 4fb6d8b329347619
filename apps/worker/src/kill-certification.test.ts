/**
 * Crash safety of a certification run in the real worker process: the run started as the API
 * starts it, the worker killed with SIGKILL while the run issues and sends its documents, then
 * restarted. At the end the run succeeded, every row was issued as one document, and the tax
 * authority received each eNCF once (an eNCF sent twice is used up, and the second copy rejected).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { seedTenant } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  createCertificateKeyring,
  getCertificationRun,
  startCertificationRun,
  storeTenantCertificate,
} from '@ecf/services';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { modelSetFor } from '../test/certification-workbook.ts';
import { openKillStack, type TKillStack } from '../test/kill-stack.ts';
import { sleep, waitUntil } from '../test/worker-process.ts';

const KILLS = 2;

let stack: TKillStack;
let context: TKillStack['context'];
let simulator: TKillStack['simulator'];
let boss: TKillStack['boss'];
let masterKey: string;

before(async () => {
  stack = await openKillStack({ processingDelayMs: 100 });
  ({ context, simulator, boss, masterKey } = stack);
});
after(async () => {
  await stack.close();
});

const startWorker = () => stack.startWorker();

test(
  'SIGKILL during a certification run: the run succeeds after restarts, each row one document, each eNCF received once',
  { timeout: 300_000 },
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
    // Every reception answers slowly: kills land while the run's documents are on their way.
    for (const service of ['recepcion', 'recepcionfc']) {
      const fault = await fetch(`${simulator.baseUrl}/_sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ environment: 'certecf', service, fault: 'slow', delayMs: 300, count: 1000 }),
      });
      assert.equal(fault.status, 201);
    }

    let worker = startWorker();
    const ready = await waitUntil(async () => {
      const rows = await context.database.$queryRaw<Array<{ name: string }>>`
      SELECT name FROM pgboss.queue WHERE name = 'certification.advance'`;
      return rows.length === 1;
    }, 20_000);
    assert.ok(ready, `the worker did not set up its queues:\n${worker.output()}`);

    const xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
    const started = await startCertificationRun({
      database: context.database,
      tenant,
      environment: 'CerteCF',
      xsd,
      now: new Date(),
      body: { set: await modelSetFor(tenant.rnc) },
      enqueue: createEnqueue(() => boss),
    });
    xsd.dispose();
    const runId = started.run.runId;
    const read = () =>
      getCertificationRun({ database: context.database, tenantId: tenant.id, environment: 'CerteCF', runId });

    const kills: Array<{ issued: number; accepted: number }> = [];
    try {
      for (let kill = 0; kill < KILLS; kill += 1) {
        // Each kill once the run moved on since the last: first while originals are being sent,
        // then while the notes wait for or follow their originals.
        // Items go pending → issued → accepted: issued + 2 × accepted grows with every step.
        const progress = (run: { totals: { issued: number; accepted: number } }) =>
          run.totals.issued + 2 * run.totals.accepted;
        const before = progress(await read());
        const moved = await waitUntil(
          async () => progress(await read()) > before + (kill === 0 ? 2 : 6),
          60_000,
        );
        if (!moved) break;
        await sleep(150);
        worker.child.kill('SIGKILL');
        await worker.exited;
        const at = await read();
        kills.push({ issued: at.totals.issued, accepted: at.totals.accepted });
        worker = startWorker();
      }
      const finished = await waitUntil(
        async () => ['succeeded', 'failed', 'stopped'].includes((await read()).state),
        200_000,
      );
      assert.ok(
        finished,
        `the run did not end: ${JSON.stringify((await read()).totals)}\n${worker.output()}`,
      );
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    t.diagnostic(`kills at ${JSON.stringify(kills)}`);
    assert.equal(kills.length, KILLS, 'every kill landed during the run');
    assert.ok(
      kills.some((kill) => kill.issued > 0),
      'a kill landed with documents on their way',
    );

    const run = await read();
    assert.equal(run.state, 'succeeded', JSON.stringify(run.failure));
    assert.equal(run.totals.accepted, 25);
    // One document per row, nothing else.
    const documents = await context.database.document.findMany({ where: { tenantId: tenant.id } });
    assert.equal(documents.length, 25);
    assert.deepEqual(
      documents.map((document) => document.id).sort(),
      run.items.map((item) => item.documentId).sort(),
    );
    // Never twice: the simulator holds one reception per eNCF (a full e-CF or an RFCE summary).
    const client = new pg.Client({ connectionString: stack.simulatorDatabaseUrl });
    await client.connect();
    try {
      const receptions = await client.query<{ encf: string; count: string }>(
        'SELECT encf, count(*) AS count FROM taxauth_sim.tracks WHERE rnc_emisor = $1 GROUP BY encf ORDER BY encf',
        [tenant.rnc],
      );
      assert.deepEqual(
        receptions.rows.map((row) => [row.encf, Number(row.count)]),
        run.items
          .map((item) => item.encf)
          .sort()
          .map((encf) => [encf, 1]),
      );
    } finally {
      await client.end();
    }
  },
);
