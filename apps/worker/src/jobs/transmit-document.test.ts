import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPipelineHarness, type TPipelineHarness } from '../../test/pipeline-harness.ts';

let harness: TPipelineHarness;
let tenant: { id: string; rnc: string };

before(async () => {
  harness = await openPipelineHarness({ processingDelayMs: 300 });
  tenant = await harness.tenantWithCertificate();
});
after(() => harness.close());

async function waitForStatus(documentId: string, statuses: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const document = await harness.database.document.findUniqueOrThrow({ where: { id: documentId } });
    if (statuses.includes(document.status)) return document;
    if (Date.now() > deadline)
      throw new Error(`document still ${document.status} (lastError ${JSON.stringify(document.lastError)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('sign → transmit → poll through the worker: accepted, with every step in the event log', async () => {
  const document = await harness.seedQueuedE31(tenant);
  // Only the signing job is sent: signing enqueues document.transmit in its own transaction.
  await harness.worker.boss.send('document.sign', { documentId: document.id });
  const final = await waitForStatus(document.id, [
    'accepted',
    'accepted_conditional',
    'rejected',
    'transmission_failed',
  ]);
  assert.equal(
    final.status,
    'accepted',
    JSON.stringify({ lastError: final.lastError, messages: final.taxauthMessages }),
  );
  assert.ok(final.trackId);
  assert.equal(final.lastError, null);
  const events = await harness.database.documentEvent.findMany({
    where: { documentId: document.id },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    events.map((event) => event.type),
    ['signed', 'transmission_attempt', 'transmission_outcome', 'sent', 'accepted'],
  );
});

test('a transient failure through the worker: contingency and a retry job scheduled on the contingency schedule', async () => {
  const response = await fetch(`${harness.simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'testecf', service: 'recepcion', fault: 'http_503', count: 1 }),
  });
  assert.equal(response.status, 201);
  const document = await harness.seedQueuedE31(tenant);
  const before = Date.now();
  await harness.worker.boss.send('document.sign', { documentId: document.id });
  const contingency = await waitForStatus(document.id, ['contingency']);
  assert.equal((contingency.lastError as { code: string }).code, 'TAXAUTH_UNAVAILABLE');
  // The retry is a created job about five minutes ahead.
  let scheduled: Array<{ start_after: Date }> = [];
  for (let tries = 0; tries < 50 && scheduled.length === 0; tries += 1) {
    scheduled = await harness.database.$queryRawUnsafe<Array<{ start_after: Date }>>(
      `SELECT start_after FROM pgboss.job WHERE name = 'document.transmit' AND state = 'created' AND data->>'documentId' = $1`,
      document.id,
    );
    if (scheduled.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(scheduled.length, 1);
  const delaySeconds = ((scheduled[0]?.start_after.getTime() ?? 0) - before) / 1000;
  assert.ok(delaySeconds > 290 && delaySeconds < 320, `retry in ${delaySeconds} s`);
  const episodes = await harness.database.taxauthEpisode.findMany({ where: { restoredAt: null } });
  assert.equal(episodes.length, 1);
});
