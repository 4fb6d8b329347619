import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { seedTenant, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, verifyXmlSignature } from '@ecf/fiscal-core';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { createWorker } from './worker.ts';
import { example } from '@ecf/fiscal-core/testing';

const SUBMITTED_AT = new Date('2026-11-21T15:00:00Z');
const SIGNING_TIME = new Date('2026-11-21T15:10:00Z');

/** The simplified E31 example of fiscal-core's validation fixtures, as the API stores it (body text). */
/** fiscal-core's documented E31 example, issued by `rnc` with another eNCF. */
function simplifiedE31(rnc: string, encf: string) {
  const body = example('31');
  return { ...body, encf, issuer: { ...(body['issuer'] as Record<string, unknown>), rnc } };
}

async function seedQueued(database: TDatabase, tenant: { id: string; rnc: string }, encf: string) {
  return database.document.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      type: 31,
      encf,
      format: 'simplified',
      issueDate: new Date('2026-11-21'),
      totalAmount: '7080.00',
      submittedPayload: JSON.stringify(simplifiedE31(tenant.rnc, encf)),
      submittedAt: SUBMITTED_AT,
    },
  });
}

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let worker: ReturnType<typeof createWorker>;
const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
before(async () => {
  context = await openTestDatabase();
  worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    certificateKeyring: keyring,
    now: () => SIGNING_TIME,
  });
  await worker.start();
});
after(async () => {
  await worker.stop();
  await context.close();
});

async function waitForJob(id: string, states: string[], timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await worker.boss.getJobById('document.sign', id);
    if (job && states.includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a document.sign job signs a queued e-CF end to end; a redelivered job changes nothing', async () => {
  const tenant = await seedTenant(context.database, {
    rnc: '131880738',
    legalName: 'Distribuidora Caribe Digital SRL',
  });
  await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    ...createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante' }),
  });
  const document = await seedQueued(context.database, tenant, 'E310000000501');

  const id = await worker.boss.send('document.sign', { documentId: document.id });
  assert.ok(id);
  assert.equal((await waitForJob(id, ['completed', 'failed'])).state, 'completed');

  const signed = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(signed.status, 'signed');
  assert.equal(signed.signatureDate?.toISOString(), SIGNING_TIME.toISOString());
  const artifact = await context.database.artifact.findFirstOrThrow({
    where: { documentId: document.id, kind: 'signed_xml' },
  });
  const xml = Buffer.from(artifact.content).toString('utf8');
  const verification = verifyXmlSignature(xml);
  assert.ok(verification.valid, JSON.stringify(verification));
  assert.equal(signed.securityCode, verification.signatureValue.slice(0, 6));
  assert.equal(artifact.sha256, createHash('sha256').update(artifact.content).digest('hex'));

  const again = await worker.boss.send('document.sign', { documentId: document.id });
  assert.ok(again);
  assert.equal((await waitForJob(again, ['completed', 'failed'])).state, 'completed');
  assert.equal(await context.database.artifact.count({ where: { documentId: document.id } }), 1);
  assert.deepEqual(
    (await context.database.documentEvent.findMany({ where: { documentId: document.id } })).map(
      (event) => event.type,
    ),
    ['signed'],
  );
});

test('without a certificate the job is retried later and the document shows why it waits', async () => {
  const tenant = await seedTenant(context.database, { rnc: '131880741', legalName: 'Sin Certificado SRL' });
  const document = await seedQueued(context.database, tenant, 'E310000000601');
  const id = await worker.boss.send('document.sign', { documentId: document.id });
  assert.ok(id);
  const job = await waitForJob(id, ['retry', 'failed', 'completed']);
  assert.equal(job.state, 'retry');
  assert.equal(job.retryLimit, 50, 'the queue retry policy applies to jobs sent without options');
  const waiting = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(waiting.status, 'queued_for_signing');
  assert.equal((waiting.lastError as { code?: string }).code, 'CERTIFICATE_NOT_ACTIVE');
});
