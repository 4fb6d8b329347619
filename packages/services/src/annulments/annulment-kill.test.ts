/**
 * A process SIGKILLed between the tax authority's acceptance of an ANECF and the local
 * cancellation of the covered documents: the reserved range keeps every covered document from
 * being sent meanwhile, and the recovery (the worker's sweep, or any read of the annulment)
 * finishes the cancellation: every covered document ends `cancelled` with its jobs, none sent.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createProducerQueue } from '@ecf/db/job-queue';
import { seedDocument, sqlPoolOf } from '@ecf/db';
import {
  newEncf,
  openTransmissionHarness,
  type TTransmissionHarness,
} from '../../test/transmission-harness.ts';
import { transmitSignedDocument } from '../transmission/index.ts';
import { recoverAnnulments } from './recover-annulments.ts';

let h: TTransmissionHarness;
let queue: ReturnType<typeof createProducerQueue>;

before(async () => {
  h = await openTransmissionHarness();
  queue = createProducerQueue({
    databaseUrl: h.databaseUrl,
    queues: ['document.sign', 'document.transmit'],
    onError: () => undefined,
  });
});
after(async () => {
  await queue.close();
  await h.close();
});

function runChild(
  input: unknown,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, '..', '..', 'test', 'annulment-kill-child.ts'),
      JSON.stringify(input),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, output })));
}

async function jobStates(documentId: string): Promise<string[]> {
  const { rows } = await sqlPoolOf(h.database).query<{ state: string }>(
    `SELECT state::text AS state FROM pgboss.job WHERE data->>'documentId' = $1 ORDER BY name`,
    [documentId],
  );
  return rows.map((row) => row.state);
}

test(
  'SIGKILL after the acceptance, before the local cancellation: recovered, nothing sent',
  { timeout: 120_000 },
  async () => {
    const first = Number(newEncf('31').slice(3));
    const encfs = [0, 1, 2, 3].map((offset) => `E31${String(first + offset).padStart(10, '0')}`);
    const queued = await seedDocument(h.database, { tenantId: h.tenant.id, encf: encfs[1] as string });
    const signed = await h.seedSignedDocument({ encf: encfs[2] as string });
    await queue.enqueue([
      { name: 'document.sign', payload: { documentId: queued.id } },
      { name: 'document.transmit', payload: { documentId: signed.document.id } },
    ]);
    assert.deepEqual(await jobStates(queued.id), ['created']);

    const key = `kill-${encfs[0]}`;
    const child = await runChild({
      databaseUrl: h.databaseUrl,
      simulatorUrl: h.simulator.baseUrl,
      tenantId: h.tenant.id,
      rnc: h.tenant.rnc,
      key,
      ranges: [{ type: '31', from: encfs[0], to: encfs[3] }],
    });
    assert.equal(child.signal, 'SIGKILL', child.output);

    // Killed in between: accepted by the tax authority, nothing cancelled locally yet.
    const { rows } = await sqlPoolOf(h.database).query<{ id: string; state: string; settled: Date | null }>(
      `SELECT id, state::text AS state, covered_settled_at AS settled FROM annulments WHERE idempotency_key = $1`,
      [key],
    );
    assert.equal(rows[0]?.state, 'accepted');
    assert.equal(rows[0]?.settled, null);
    assert.equal(
      (await h.database.document.findUnique({ where: { id: signed.document.id } }))?.status,
      'signed',
    );

    // Meanwhile the worker tries to send the covered document: the range's reservation refuses the claim.
    const held = await transmitSignedDocument({
      ...h.transmission,
      database: h.database,
      documentId: signed.document.id,
    });
    assert.equal(held.outcome, 'encf_reserved_by_annulment');
    assert.equal(held.next, 'retry');
    assert.equal(await h.receptionsOf(encfs[2] as string), 0);

    // The worker's sweep finishes the cancellation.
    const recovered = await recoverAnnulments({ database: h.database });
    assert.equal(recovered.settled, 1);
    for (const id of [queued.id, signed.document.id]) {
      assert.equal((await h.database.document.findUnique({ where: { id } }))?.status, 'cancelled');
      assert.ok(
        (await jobStates(id)).every((state) => state === 'cancelled'),
        `jobs of ${id} cancelled`,
      );
    }
    const again = await transmitSignedDocument({
      ...h.transmission,
      database: h.database,
      documentId: signed.document.id,
    });
    assert.equal(again.next, 'done');
    assert.equal(
      await h.receptionsOf(encfs[2] as string),
      0,
      'the cancelled document never reached the tax authority',
    );
    // Settled once: a second sweep finds nothing.
    assert.deepEqual(await recoverAnnulments({ database: h.database }), {
      settled: 0,
      madeUncertain: 0,
      failed: 0,
    });
  },
);

test('SIGKILL while the ANECF was in flight: the stale `sending` annulment becomes uncertain (never resent)', async () => {
  const encf = newEncf('31');
  const { rows } = await sqlPoolOf(h.database).query<{ id: string }>(
    `INSERT INTO annulments (id, tenant_id, environment, idempotency_key, request_fingerprint, request, state, updated_at)
     VALUES (gen_random_uuid(), $1::uuid, 'TesteCF', $2, $3, '{}', 'sending', now() - interval '1 hour') RETURNING id`,
    [h.tenant.id, `stale-${encf}`, 'a'.repeat(64)],
  );
  const recovered = await recoverAnnulments({ database: h.database });
  assert.equal(recovered.madeUncertain, 1);
  const { rows: after } = await sqlPoolOf(h.database).query<{ state: string }>(
    'SELECT state::text AS state FROM annulments WHERE id = $1::uuid',
    [rows[0]?.id],
  );
  assert.equal(after[0]?.state, 'uncertain');
});
