/**
 * The commercial approval outbox through the real worker (pg-boss): a queued dispatch reaches the
 * issuer's endpoint once; a 503 schedules the next attempt as a delayed job of the same queue.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { artifactData } from '@ecf/db';
import { openPipelineHarness, type TPipelineHarness } from '../../test/pipeline-harness.ts';

let harness: TPipelineHarness;
let issuer: http.Server;
let issuerBase: string;
const posts: string[] = [];

before(async () => {
  issuer = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      posts.push(request.url ?? '');
      if ((request.url ?? '').startsWith('/down/')) response.writeHead(503).end('no disponible');
      else response.writeHead(200).end('Recibido');
    });
  });
  await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
  issuerBase = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  harness = await openPipelineHarness({ processingDelayMs: 0 });
});
after(async () => {
  await harness.close();
  await new Promise<void>((resolve) => issuer.close(() => resolve()));
});

/** An approval the tax authority accepted, waiting for its dispatch to `mode`'s URL. */
async function seedApproval(mode: string): Promise<string> {
  const tenant = await harness.tenantWithCertificate();
  const { database } = harness;
  const inbound = await database.inboundDocument.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      kind: 'ecf',
      status: 'received',
      issuerRnc: '401000001',
      buyerRnc: tenant.rnc,
      encf: `E31${String(Date.now() % 10_000_000_000).padStart(10, '0')}`,
      ecfType: 31,
    },
  });
  const artifact = await database.artifact.create({
    data: artifactData({
      tenantId: tenant.id,
      documentId: null,
      kind: 'commercial_approval',
      contentType: 'application/xml',
      content:
        '<ACECF><DetalleAprobacionComercial><Version>1.0</Version></DetalleAprobacionComercial></ACECF>',
    }),
  });
  const approval = await database.commercialApproval.create({
    data: {
      inboundDocumentId: inbound.id,
      tenantId: tenant.id,
      environment: 'TesteCF',
      decision: 'accept',
      approvalDate: new Date(),
      acecfArtifactId: artifact.id,
      taxauthStatus: 'accepted',
      targetSource: 'directory',
      targetUrl: `${issuerBase}/${mode}/fe/aprobacioncomercial/api/ecf`,
      dispatchStatus: 'pending',
    },
  });
  return approval.id;
}

async function waitForStatus(id: string, statuses: string[]) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const row = await harness.database.commercialApproval.findUniqueOrThrow({ where: { id } });
    if (statuses.includes(row.dispatchStatus) || Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a queued dispatch is POSTed once and becomes sent', async () => {
  const id = await seedApproval('ok');
  await harness.worker.boss.send('commercial-approval.dispatch', { commercialApprovalId: id });
  const row = await waitForStatus(id, ['sent']);
  assert.equal(row.dispatchStatus, 'sent');
  assert.equal(row.dispatchAttempts, 1);
  assert.equal(posts.filter((url) => url.startsWith('/ok/')).length, 1);
  // A redelivered job POSTs nothing more: once it ran (not a fixed wait it may not have had).
  const again = await harness.worker.boss.send('commercial-approval.dispatch', { commercialApprovalId: id });
  assert.ok(again);
  const deadline = Date.now() + 20_000;
  let job = await harness.worker.boss.getJobById('commercial-approval.dispatch', again);
  while (!['completed', 'failed'].includes(job?.state ?? '') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await harness.worker.boss.getJobById('commercial-approval.dispatch', again);
  }
  assert.equal(job?.state, 'completed', JSON.stringify(job?.output));
  assert.equal(posts.filter((url) => url.startsWith('/ok/')).length, 1);
});

test('a 503 schedules the next attempt as a delayed job of the outbox queue', async () => {
  const id = await seedApproval('down');
  await harness.worker.boss.send('commercial-approval.dispatch', { commercialApprovalId: id });
  const row = await waitForStatus(id, ['retry_scheduled']);
  assert.equal(row.dispatchStatus, 'retry_scheduled');
  assert.equal(row.dispatchAttempts, 1);
  assert.ok((row.nextAttemptAt?.getTime() ?? 0) > Date.now());
  const deadline = Date.now() + 10_000;
  let delayed: Array<{ start_after: Date }> = [];
  while (delayed.length === 0 && Date.now() < deadline) {
    delayed = await harness.database.$queryRawUnsafe<Array<{ start_after: Date }>>(
      `SELECT start_after FROM pgboss.job WHERE name = 'commercial-approval.dispatch' AND data->>'commercialApprovalId' = $1 AND state = 'created'`,
      id,
    );
    if (delayed.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(delayed.length, 1);
  assert.ok((delayed[0]?.start_after.getTime() ?? 0) > Date.now() + 20_000);
});
