import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { pino } from 'pino';
import { JOB_QUEUE_SCHEMA, seedDocument, seedTenant, type DocumentStatus, type Prisma } from '@ecf/db';
import { createEnqueue } from '@ecf/db/job-queue';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  createCertificateKeyring,
  registerWorkerInstance,
  requeueLostDocuments,
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

/**
 * Takes the job of `documentId` off `queue` as a worker does (active, `heartbeat_on` now), with the
 * lease `heartbeatSeconds` (none: the job only expires). Other jobs the fetch takes stay active too.
 */
async function takeJob(
  queue: (typeof DOCUMENT_QUEUES)[number],
  documentId: string,
  heartbeatSeconds?: number,
) {
  const id = await boss.send(
    queue,
    { documentId },
    heartbeatSeconds === undefined ? {} : { heartbeatSeconds },
  );
  assert.ok(id);
  const taken = await boss.fetch(queue, { batchSize: 100 });
  assert.ok(
    taken.some((job) => job.id === id),
    'the job is active',
  );
  return id;
}

/** The process holding the job died: its heartbeat is older than its lease. */
async function killHolder(jobId: string) {
  await context.database.$executeRaw`
    UPDATE pgboss.job SET heartbeat_on = now() - make_interval(secs => heartbeat_seconds + 1) WHERE id = ${jobId}::uuid`;
}

/** A worker process that registered its lease and stopped renewing it a minute ago (killed). */
async function deadWorker() {
  const id = randomUUID();
  await registerWorkerInstance({ database: context.database, instance: { id, host: 'killed', pid: 1 } });
  await context.database.$executeRaw`
    UPDATE worker_instances SET heartbeat_at = now() - interval '1 minute' WHERE id = ${id}::uuid`;
  return id;
}

const DEAD_AFTER_SECONDS = 15;

test("a document whose job's holder died (lease lapsed) gets its next step at once, whatever its age; a live lease is left alone", async () => {
  // Changed seconds ago: the stale rule alone would wait 120 s, and the active job counted as moving.
  const sent = await seedAged('sent', 5);
  const queued = await seedAged('queued_for_signing', 5);
  const signed = await seedAged('signed', 5);
  const live = await seedAged('sent', 5);
  const lostPoll = await takeJob('document.poll-status', sent.id, 10);
  const lostSign = await takeJob('document.sign', queued.id, 10);
  await takeJob('document.poll-status', live.id, 10);
  // A job sent before its queue had a lease: lost once it expired.
  const expired = await takeJob('document.transmit', signed.id);
  await killHolder(lostPoll);
  await killHolder(lostSign);
  await context.database.$executeRaw`
    UPDATE pgboss.job SET started_on = now() - make_interval(secs => expire_seconds + 1) WHERE id = ${expired}::uuid`;

  const swept = await sweep(sent.id, queued.id, signed.id, live.id);
  assert.deepEqual(
    swept.map((document) => [document.documentId, document.job, document.reason]).sort(),
    [
      [sent.id, 'document.poll-status', 'job_lost'],
      [queued.id, 'document.sign', 'job_lost'],
      [signed.id, 'document.transmit', 'job_lost'],
    ].sort(),
  );
  assert.deepEqual(
    (await pendingJobs(sent.id)).map((job) => [job.name, job.state]),
    [
      ['document.poll-status', 'active'],
      ['document.poll-status', 'created'],
    ],
    'a new job beside the lost one (pg-boss fails and retries that one on its own)',
  );
  const [event] = await sweepEvents(sent.id);
  assert.equal((event?.data as { reason: string }).reason, 'job_lost');
  // The new jobs carry them now: neither the sweep nor the fast recovery requeues them again.
  assert.deepEqual(await sweep(sent.id, queued.id, signed.id, live.id), []);
  await deadWorker();
  const again = await requeueLostDocuments({
    database: context.database,
    enqueue,
    deadAfterSeconds: DEAD_AFTER_SECONDS,
  });
  assert.deepEqual(
    again.requeued.filter((document) =>
      [sent.id, queued.id, signed.id, live.id].includes(document.documentId),
    ),
    [],
  );
});

test('requeueLostDocuments: only once a worker died; only non-final documents no other job carries; concurrent rounds requeue once', async () => {
  const lost = await seedAged('sent', 1);
  const accepted = await seedAged('accepted', 1);
  const retryWaiting = await seedAged('signed', 1);
  const failedForGood = await seedAged('queued_for_signing', 1, {
    code: 'SIGNING_PAYLOAD_INVALID',
    message: 'x',
    retrying: false,
  });
  for (const [queue, document] of [
    ['document.poll-status', lost],
    ['document.poll-status', accepted],
    ['document.transmit', retryWaiting],
    ['document.sign', failedForGood],
  ] as const)
    await killHolder(await takeJob(queue, document.id, 10));
  // A retry already waits for this one (its contingency schedule): it carries the document.
  await boss.send('document.transmit', { documentId: retryWaiting.id }, { startAfter: 600 });

  const round = () =>
    requeueLostDocuments({ database: context.database, enqueue, deadAfterSeconds: DEAD_AFTER_SECONDS });
  // No worker's lease lapsed: the job table is not even read.
  assert.deepEqual(await round(), { requeued: [], deadWorkers: [] });
  const dead = await deadWorker();
  const rounds = await Promise.all(Array.from({ length: 3 }, round));
  assert.deepEqual(
    rounds.flatMap((each) => each.deadWorkers.map((worker) => worker.id)).filter((id) => id === dead),
    [dead],
    'one round looked after the dead worker',
  );
  const ids = [lost.id, accepted.id, retryWaiting.id, failedForGood.id];
  const requeued = rounds.flatMap((round) =>
    round.requeued.filter((document) => ids.includes(document.documentId)),
  );
  assert.deepEqual(
    requeued.map((document) => [document.documentId, document.job, document.reason]),
    [[lost.id, 'document.poll-status', 'job_lost']],
  );
  assert.equal((await sweepEvents(lost.id)).length, 1);
  // Looked after: the next round reads nothing.
  assert.deepEqual(await round(), { requeued: [], deadWorkers: [] });
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

test("the worker registers its lease, and requeues the documents of a dead worker's jobs within seconds, without waiting for the minute sweep", async () => {
  const document = await seedAged('sent', 1);
  await killHolder(await takeJob('document.poll-status', document.id, 10));
  const dead = await deadWorker();
  const worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    jobs: [],
    recoveryIntervalSeconds: 1,
  });
  await worker.start();
  try {
    const deadline = Date.now() + 15_000;
    while (!(await pendingJobs(document.id)).some((job) => job.state === 'created')) {
      if (Date.now() > deadline) throw new Error('the lost poll was not requeued');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(
      (await sweepEvents(document.id)).map((event) => (event.data as { reason: string }).reason),
      ['job_lost'],
    );
    const leases = await context.database.workerInstance.findMany({ where: { host: { not: 'killed' } } });
    assert.ok(
      leases.some((lease) => lease.pid === process.pid && lease.recoveredAt === null),
      'the worker holds a lease of its own',
    );
    const recovered = await context.database.workerInstance.findUniqueOrThrow({ where: { id: dead } });
    assert.ok(recovered.recoveredAt, 'the dead worker is looked after once');
  } finally {
    await worker.stop();
  }
});
