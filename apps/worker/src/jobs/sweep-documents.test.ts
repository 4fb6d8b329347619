import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { pino } from 'pino';
import { JOB_QUEUE_SCHEMA, seedDocument, seedTenant, type DocumentStatus, type Prisma } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  createCertificateKeyring,
  storeTenantCertificate,
  sweepDocuments,
  SWEEP_EVENT_TYPE,
} from '@ecf/services';
import { createWorker } from '../worker.ts';
import { JOB_REGISTRY } from './registry.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let boss: PgBoss;
let tenant: { id: string; rnc: string };
const DOCUMENT_QUEUES = ['document.sign', 'document.transmit', 'document.poll-status'] as const;

before(async () => {
  context = await openTestDatabase();
  // A queue nobody works: the jobs a sweep sends stay where the test can see them.
  boss = new PgBoss({
    connectionString: context.url,
    schema: JOB_QUEUE_SCHEMA,
    supervise: false,
    schedule: false,
  });
  boss.on('error', () => {});
  await boss.start();
  for (const name of DOCUMENT_QUEUES) await boss.createQueue(name);
  tenant = await seedTenant(context.database);
});
after(async () => {
  await boss.stop({ graceful: false, close: true });
  await context.close();
});

const enqueue = createEnqueue(() => boss);

function newEncf(): string {
  return `E31${String(randomInt(1, 2_000_000_000)).padStart(10, '0')}`;
}

/** A document in `status`, last changed `ageSeconds` ago. */
async function seedAged(
  status: DocumentStatus,
  ageSeconds: number,
  lastError?: Prisma.InputJsonValue,
  tenantId = tenant.id,
) {
  const document = await seedDocument(context.database, {
    tenantId,
    encf: newEncf(),
    status,
    ...(lastError === undefined ? {} : { lastError }),
  });
  await context.database
    .$executeRaw`UPDATE documents SET updated_at = now() - make_interval(secs => ${ageSeconds}) WHERE id = ${document.id}::uuid`;
  return document;
}

async function pendingJobs(documentId: string) {
  return context.database.$queryRaw<Array<{ name: string; state: string; start_after: Date }>>`
    SELECT name, state::text AS state, start_after FROM pgboss.job
    WHERE data->>'documentId' = ${documentId} AND state IN ('created', 'retry', 'active') ORDER BY created_on`;
}

async function sweepEvents(documentId: string) {
  return context.database.documentEvent.findMany({ where: { documentId, type: SWEEP_EVENT_TYPE } });
}

/** Sweeps and returns what it did to the given documents only (other tests' documents may be swept too). */
async function sweep(...documentIds: string[]) {
  const { requeued } = await sweepDocuments({ database: context.database, enqueue, staleAfterSeconds: 120 });
  return requeued.filter((document) => documentIds.includes(document.documentId));
}

test('a stale document with no pending job gets its next step, once, with a sweep_requeued event', async () => {
  const queued = await seedAged('queued_for_signing', 600);
  const signed = await seedAged('signed', 600);
  const sent = await seedAged('sent', 600);
  const swept = await sweep(queued.id, signed.id, sent.id);
  assert.deepEqual(
    swept.map((document) => [document.documentId, document.job, document.reason]).sort(),
    [
      [queued.id, 'document.sign', 'stale'],
      [signed.id, 'document.transmit', 'stale'],
      [sent.id, 'document.poll-status', 'stale'],
    ].sort(),
  );
  assert.deepEqual(
    (await pendingJobs(queued.id)).map((job) => job.name),
    ['document.sign'],
  );
  assert.deepEqual(
    (await pendingJobs(signed.id)).map((job) => job.name),
    ['document.transmit'],
  );
  assert.deepEqual(
    (await pendingJobs(sent.id)).map((job) => job.name),
    ['document.poll-status'],
  );
  const [event] = await sweepEvents(signed.id);
  assert.deepEqual(event?.data, {
    job: 'document.transmit',
    reason: 'stale',
    status: 'signed',
    lastChangeAt: (event?.data as { lastChangeAt: string }).lastChangeAt,
  });
  // The job just sent is pending: a second sweep leaves them alone.
  assert.deepEqual(await sweep(queued.id, signed.id, sent.id), []);
  assert.equal((await pendingJobs(signed.id)).length, 1);
  assert.equal((await sweepEvents(signed.id)).length, 1);
});

test('documents being moved, recently changed, final or failed for good are left alone', async () => {
  const fresh = await seedAged('signed', 10);
  const withJob = await seedAged('signed', 600);
  await boss.send('document.transmit', { documentId: withJob.id });
  const withActiveJob = await seedAged('sent', 600);
  await boss.send('document.transmit', { documentId: withActiveJob.id });
  const [fetched] = await boss
    .fetch('document.transmit', { batchSize: 10 })
    .then((jobs) =>
      jobs.filter((job) => (job.data as { documentId: string }).documentId === withActiveJob.id),
    );
  assert.ok(fetched, 'the transmit job is active');
  const accepted = await seedAged('accepted', 600);
  const failedForGood = await seedAged('queued_for_signing', 600, {
    code: 'SIGNING_PAYLOAD_INVALID',
    message: 'x',
    retrying: false,
  });
  assert.deepEqual(await sweep(fresh.id, withJob.id, withActiveJob.id, accepted.id, failedForGood.id), []);
});

test('a completed job does not count: a signed document whose transmit job completed is swept', async () => {
  const document = await seedAged('signed', 600);
  const id = await boss.send('document.transmit', { documentId: document.id });
  assert.ok(id);
  const jobs = await boss.fetch('document.transmit', { batchSize: 50 });
  const job = jobs.find((candidate) => candidate.id === id);
  assert.ok(job);
  await boss.complete('document.transmit', job.id);
  const others = jobs.filter((candidate) => candidate.id !== id);
  for (const other of others) await boss.complete('document.transmit', other.id);
  assert.deepEqual(
    (await sweep(document.id)).map((swept) => swept.job),
    ['document.transmit'],
  );
});

test('contingency: swept once its next attempt is due and no retry is waiting', async () => {
  const due = await seedAged('contingency', 30, {
    code: 'TAXAUTH_UNAVAILABLE',
    retrying: true,
    failures: 1,
    nextAttemptAt: new Date(Date.now() - 5_000).toISOString(),
  });
  const notDue = await seedAged('contingency', 600, {
    code: 'TAXAUTH_UNAVAILABLE',
    retrying: true,
    failures: 2,
    nextAttemptAt: new Date(Date.now() + 300_000).toISOString(),
  });
  const waiting = await seedAged('contingency', 600, {
    code: 'TAXAUTH_UNAVAILABLE',
    retrying: true,
    failures: 1,
    nextAttemptAt: new Date(Date.now() - 5_000).toISOString(),
  });
  await boss.send('document.transmit', { documentId: waiting.id }, { startAfter: 600 });
  // Without nextAttemptAt the schedule counts from lastDeferredAt: 2 failures → 10 minutes.
  const fromSchedule = await seedAged('contingency', 30, {
    code: 'TAXAUTH_UNAVAILABLE',
    retrying: true,
    failures: 2,
  });
  await context.database.document.update({
    where: { id: fromSchedule.id },
    data: { lastDeferredAt: new Date(Date.now() - 11 * 60_000) },
  });
  const swept = await sweep(due.id, notDue.id, waiting.id, fromSchedule.id);
  assert.deepEqual(
    swept.map((document) => [document.documentId, document.job, document.reason]).sort(),
    [
      [due.id, 'document.transmit', 'contingency_due'],
      [fromSchedule.id, 'document.transmit', 'contingency_due'],
    ].sort(),
  );
});

test('a certificate installed after signing was deferred: the queued documents are signed at once', async () => {
  const other = await seedTenant(context.database);
  const deferred = await seedAged(
    'queued_for_signing',
    5,
    { code: 'CERTIFICATE_NOT_ACTIVE', message: 'no certificate', retrying: true },
    other.id,
  );
  // The signing retry waits on its backoff, half an hour away.
  await boss.send('document.sign', { documentId: deferred.id }, { startAfter: 1800 });
  assert.deepEqual(await sweep(deferred.id), [], 'nothing to do before a certificate exists');
  const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
  const certificate = createTestCertificate({ rnc: other.rnc, commonName: 'Firmante' });
  await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: other.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  assert.deepEqual(
    (await sweep(deferred.id)).map((document) => [document.job, document.reason]),
    [['document.sign', 'certificate_installed']],
  );
  const jobs = await pendingJobs(deferred.id);
  assert.equal(jobs.length, 2);
  assert.ok(
    jobs.some((job) => job.start_after.getTime() <= Date.now()),
    'one sign job is ready now',
  );
  // The new job is ready: the next sweep does not add another.
  assert.deepEqual(await sweep(deferred.id), []);
});

test('two sweeps at once enqueue each document once', async () => {
  const documents = await Promise.all(Array.from({ length: 5 }, () => seedAged('signed', 600)));
  const ids = documents.map((document) => document.id);
  await Promise.all([sweep(...ids), sweep(...ids), sweep(...ids)]);
  for (const id of ids) assert.equal((await pendingJobs(id)).length, 1);
});

test('the worker schedules the sweep every minute and runs it as a job', async () => {
  const definition = JOB_REGISTRY.find((job) => job.name === 'maintenance.sweep-documents');
  assert.equal(definition?.schedule, '* * * * *');
  const document = await seedAged('sent', 600);
  const worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    jobs: JOB_REGISTRY.filter((job) => job.name === 'maintenance.sweep-documents'),
    sweepStaleAfterSeconds: 60,
  });
  await worker.start();
  try {
    const schedules = await worker.boss.getSchedules();
    assert.ok(
      schedules.some(
        (schedule) => schedule.name === 'maintenance.sweep-documents' && schedule.cron === '* * * * *',
      ),
    );
    await worker.boss.send('maintenance.sweep-documents', {});
    const deadline = Date.now() + 15_000;
    while ((await pendingJobs(document.id)).length === 0) {
      if (Date.now() > deadline) throw new Error('the sweep job did not enqueue the poll');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(
      (await pendingJobs(document.id)).map((job) => job.name),
      ['document.poll-status'],
    );
  } finally {
    await worker.stop();
  }
});
