// One attempt of a delivery against real local receivers (plain node:http on 127.0.0.1, private
// targets allowed as in development): claim, signed POST of the stored bytes, attempt log, the
// retry schedule under an injected clock, paused/retired endpoints at delivery time, rotation, and
// the sweep that puts back a delivery whose worker died mid-attempt.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import {
  claimWebhookDelivery,
  queuedWebhookDeliveryJobs,
  recordWebhookAttempt,
} from '../persistence/webhooks/webhooks.ts';
import { insertTestEndpoint, recordingEnqueue, testKeyring } from '../../test/webhook-engine.ts';
import { startReceiver, type TReceiver } from '../../test/webhook-receivers.ts';
import { statementTexts } from '../../test/statement-texts.ts';
import { fanOutWebhookEvents } from './fan-out-webhook-events.ts';
import { runWebhookDelivery, WEBHOOK_LEASE_MS } from './run-webhook-delivery.ts';
import { sweepWebhookDeliveries } from './sweep-webhook-deliveries.ts';
import { closeWebhookConnections } from './transport/index.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
const receivers: TReceiver[] = [];
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await closeWebhookConnections();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await context.close();
});

async function receiver(status: number, body = 'ok'): Promise<TReceiver> {
  const started = await startReceiver((response) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(body);
  });
  receivers.push(started);
  return started;
}

let rnc = 103000000;
/** A tenant, an endpoint at `url` subscribed to ecf.queued, a document, and its fanned-out delivery. */
async function deliveryTo(url: string, endpoint: Partial<Parameters<typeof insertTestEndpoint>[1]> = {}) {
  rnc += 1;
  const tenant = await seedTenant(context.database, { rnc: String(rnc) });
  const created = await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    url,
    eventTypes: ['ecf.queued'],
    ...endpoint,
  });
  await seedDocument(context.database, { tenantId: tenant.id, encf: `E31${String(rnc).slice(-10)}` });
  await fanOutWebhookEvents({
    database: context.database,
    enqueue: recordingEnqueue(),
    now: () => new Date(),
  });
  const delivery = await context.database.webhookDelivery.findFirstOrThrow({
    where: { endpointId: created.id },
  });
  return { endpoint: created, delivery };
}

function clockAt(start: Date) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at: Date) => {
      current = at.getTime();
    },
  };
}

/** Checks `Svc-Signature` like a receiver would (every v1 against every secret), independently of the signer. */
function verifiedSecrets(header: string, body: Buffer, secrets: string[]): { t: number; matched: string[] } {
  const parts = header.split(',');
  const t = Number(parts.find((part) => part.startsWith('t='))!.slice(2));
  const signatures = parts
    .filter((part) => part.startsWith('v1='))
    .map((part) => Buffer.from(part.slice(3), 'hex'));
  const matched = secrets.filter((secret) => {
    const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
    return signatures.some(
      (signature) => signature.length === expected.length && timingSafeEqual(signature, expected),
    );
  });
  return { t, matched };
}

const run = (deliveryId: string, now: () => Date, enqueue = recordingEnqueue(), random = () => 0) =>
  runWebhookDelivery({
    database: context.database,
    enqueue,
    deliveryId,
    keyring: testKeyring,
    now,
    allowPrivateTargets: true,
    random,
  });

test('a 2xx: one signed POST of the stored bytes, recorded, succeeded', async () => {
  const target = await receiver(200, 'stored, thanks');
  const { endpoint, delivery } = await deliveryTo(target.url);
  const result = await run(delivery.id, () => new Date());
  assert.equal(result.attempted && result.outcome, 'succeeded');
  assert.equal(target.requests.length, 1);
  const request = target.requests[0]!;
  assert.equal(request.method, 'POST');
  assert.equal(request.headers['content-type'], 'application/json');
  assert.equal(request.headers['svc-event-id'], delivery.eventId);
  assert.equal(request.headers['svc-event-type'], 'ecf.queued');
  assert.equal(request.headers['user-agent'], 'Svc-Webhooks/1.0');
  assert.deepEqual(request.body, Buffer.from(delivery.body));
  assert.deepEqual(
    verifiedSecrets(String(request.headers['svc-signature']), request.body, [endpoint.secret]).matched,
    [endpoint.secret],
  );
  const after_ = await context.database.webhookDelivery.findUniqueOrThrow({
    where: { id: delivery.id },
    include: { attemptLog: true },
  });
  assert.equal(after_.status, 'succeeded');
  assert.equal(after_.attempts, 1);
  assert.ok(after_.completedAt);
  assert.equal(after_.leaseUntil, null);
  assert.equal(after_.attemptLog.length, 1);
  const attempt = after_.attemptLog[0]!;
  assert.equal(attempt.attempt, 1);
  assert.equal(attempt.outcome, 'succeeded');
  assert.equal(attempt.responseStatus, 200);
  assert.equal(attempt.responseExcerpt, 'stored, thanks');
  assert.ok(attempt.durationMs >= 0);
  // A duplicate job of a finished delivery does nothing.
  assert.deepEqual(await run(delivery.id, () => new Date()), { attempted: false, reason: 'not_queued' });
  assert.equal(target.requests.length, 1);
});

test('retries: 500 eight times on the backoff schedule (injected clock), each attempt recorded, then failed', async () => {
  const target = await receiver(500, 'boom');
  const { endpoint, delivery } = await deliveryTo(target.url);
  const clock = clockAt(new Date());
  const enqueue = recordingEnqueue();
  const waits: number[] = [];
  for (let attempt = 1; attempt <= 8; attempt += 1) {
    const result = await run(delivery.id, clock.now, enqueue);
    assert.ok(result.attempted);
    assert.equal(result.attempt, attempt);
    assert.equal(result.outcome, 'retry');
    assert.equal(result.responseStatus, 500);
    if (attempt === 8) {
      assert.equal(result.nextAttemptAt, null);
      assert.equal(result.status, 'failed');
      break;
    }
    assert.equal(result.status, 'queued');
    waits.push((result.nextAttemptAt!.getTime() - clock.now().getTime()) / 1000);
    // Not before its time: a job that comes early changes nothing and uses no attempt.
    assert.deepEqual(await run(delivery.id, clock.now, enqueue), { attempted: false, reason: 'not_due' });
    clock.set(result.nextAttemptAt!);
  }
  // min(1200 s, 5 s x 2^n + jitter) with no jitter: 10, 20, 40 ... 640 s; each retry a job sent with its wait.
  assert.deepEqual(waits, [10, 20, 40, 80, 160, 320, 640]);
  assert.deepEqual(
    enqueue.jobs.map((job) => [job.name, job.startAfterSeconds]),
    waits.map((wait) => ['webhook.deliver', wait]),
  );
  const final = await context.database.webhookDelivery.findUniqueOrThrow({
    where: { id: delivery.id },
    include: { attemptLog: { orderBy: { attempt: 'asc' } } },
  });
  assert.equal(final.status, 'failed');
  assert.equal(final.failureReason, 'attempts_exhausted');
  assert.equal(final.attempts, 8);
  assert.deepEqual(
    final.attemptLog.map((row) => [row.attempt, row.outcome, row.responseStatus, row.responseExcerpt]),
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'retry', 500, 'boom']),
  );
  // Same id and body every time, a new timestamp (and signature) per attempt.
  assert.equal(target.requests.length, 8);
  const stamps = target.requests.map((request) => {
    assert.equal(request.headers['svc-event-id'], delivery.eventId);
    assert.deepEqual(request.body, Buffer.from(delivery.body));
    const { t, matched } = verifiedSecrets(String(request.headers['svc-signature']), request.body, [
      endpoint.secret,
    ]);
    assert.deepEqual(matched, [endpoint.secret]);
    return t;
  });
  assert.equal(new Set(stamps).size, 8);
  // No attempt left: another job does nothing.
  assert.deepEqual(await run(delivery.id, clock.now, enqueue), { attempted: false, reason: 'not_queued' });
});

test('a 410 fails at once; a refused target (guard on) fails at once without a request', async () => {
  const gone = await receiver(410, 'gone');
  const first = await deliveryTo(gone.url);
  const result = await run(first.delivery.id, () => new Date());
  assert.ok(result.attempted);
  assert.equal(result.outcome, 'failed');
  const failed = await context.database.webhookDelivery.findUniqueOrThrow({
    where: { id: first.delivery.id },
  });
  assert.equal(failed.status, 'failed');
  assert.equal(failed.failureReason, 'http_status');

  const local = await receiver(200);
  const second = await deliveryTo(local.url);
  const refused = await runWebhookDelivery({
    database: context.database,
    enqueue: recordingEnqueue(),
    deliveryId: second.delivery.id,
    keyring: testKeyring,
    now: () => new Date(),
    allowPrivateTargets: false,
  });
  assert.ok(refused.attempted);
  assert.equal(refused.outcome, 'failed');
  assert.equal(local.requests.length, 0);
  const row = await context.database.webhookDelivery.findUniqueOrThrow({ where: { id: second.delivery.id } });
  assert.equal(row.status, 'failed');
  assert.ok(row.failureReason && row.failureReason !== 'http_status');
});

test('paused at delivery time: stays queued without using an attempt, and continues on reactivation', async () => {
  const target = await receiver(204, '');
  const { endpoint, delivery } = await deliveryTo(target.url);
  await context.database.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: 'paused' } });
  assert.deepEqual(await run(delivery.id, () => new Date()), { attempted: false, reason: 'endpoint_paused' });
  let row = await context.database.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
  assert.equal(row.status, 'queued');
  assert.equal(row.attempts, 0);
  assert.equal(target.requests.length, 0);
  // Resume (what updateWebhookEndpoint does in its transaction): the queued deliveries get their jobs.
  await context.database.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: 'active' } });
  const jobs = await queuedWebhookDeliveryJobs(sqlPoolOf(context.database), {
    endpointId: endpoint.id,
    now: new Date(),
  });
  assert.deepEqual(jobs, [{ name: 'webhook.deliver', payload: { deliveryId: delivery.id } }]);
  const result = await run(delivery.id, () => new Date());
  assert.equal(result.attempted && result.outcome, 'succeeded');
  row = await context.database.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
  assert.equal(row.status, 'succeeded');
  assert.equal(target.requests.length, 1);
});

test('retired at delivery time: the queued delivery fails (endpoint_retired) and nothing is sent', async () => {
  const target = await receiver(200);
  const { endpoint, delivery } = await deliveryTo(target.url);
  await context.database.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: { status: 'retired', retiredAt: new Date() },
  });
  assert.deepEqual(await run(delivery.id, () => new Date()), {
    attempted: false,
    reason: 'endpoint_retired',
  });
  const row = await context.database.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
  assert.equal(row.status, 'failed');
  assert.equal(row.failureReason, 'endpoint_retired');
  assert.equal(row.attempts, 0);
  assert.equal(target.requests.length, 0);
});

test('rotation: both secrets sign during the overlap, only the new one after it', async () => {
  const target = await receiver(500);
  const clock = clockAt(new Date());
  const { endpoint, delivery } = await deliveryTo(target.url, {
    secret: 'whsec_new',
    previous: { secret: 'whsec_old', expiresAt: new Date(clock.now().getTime() + 15_000) },
  });
  const first = await run(delivery.id, clock.now);
  assert.ok(first.attempted);
  const during = verifiedSecrets(
    String(target.requests[0]!.headers['svc-signature']),
    target.requests[0]!.body,
    ['whsec_new', 'whsec_old'],
  );
  assert.deepEqual(during.matched, ['whsec_new', 'whsec_old']);
  clock.set(first.nextAttemptAt!); // 10 s later... still in the window
  await run(delivery.id, clock.now);
  clock.set(new Date(clock.now().getTime() + 60_000)); // past the window
  await run(delivery.id, clock.now);
  const afterwards = verifiedSecrets(
    String(target.requests[2]!.headers['svc-signature']),
    target.requests[2]!.body,
    ['whsec_new', 'whsec_old'],
  );
  assert.deepEqual(afterwards.matched, [endpoint.secret]);
  assert.equal(String(target.requests[2]!.headers['svc-signature']).split('v1=').length - 1, 1);
});

test('a worker that died mid-attempt: the sweep puts the delivery back once its lease lapsed, and it is delivered', async () => {
  const target = await receiver(200);
  const { delivery } = await deliveryTo(target.url);
  const clock = clockAt(new Date());
  // The dead worker claimed the delivery (attempt 1) and never recorded an outcome.
  const claim = await claimWebhookDelivery(context.database, {
    deliveryId: delivery.id,
    now: clock.now(),
    leaseUntil: new Date(clock.now().getTime() + WEBHOOK_LEASE_MS),
  });
  assert.ok('claimed' in claim);
  // A duplicate job while it runs does nothing.
  assert.deepEqual(await run(delivery.id, clock.now), { attempted: false, reason: 'not_queued' });
  const enqueue = recordingEnqueue();
  clock.set(new Date(clock.now().getTime() + WEBHOOK_LEASE_MS - 1000));
  let swept = await sweepWebhookDeliveries({
    database: context.database,
    enqueue,
    now: clock.now,
    fanOut: false,
  });
  assert.ok(!swept.recovered.includes(delivery.id), 'a live lease is left alone');
  clock.set(new Date(clock.now().getTime() + 2000));
  swept = await sweepWebhookDeliveries({
    database: context.database,
    enqueue,
    now: clock.now,
    fanOut: false,
  });
  assert.ok(swept.recovered.includes(delivery.id));
  assert.ok(enqueue.jobs.some((job) => (job.payload as { deliveryId: string }).deliveryId === delivery.id));
  const result = await run(delivery.id, clock.now);
  assert.ok(result.attempted);
  assert.equal(result.attempt, 2);
  assert.equal(result.outcome, 'succeeded');
  const row = await context.database.webhookDelivery.findUniqueOrThrow({
    where: { id: delivery.id },
    include: { attemptLog: { orderBy: { attempt: 'asc' } } },
  });
  assert.equal(row.status, 'succeeded');
  assert.deepEqual(
    row.attemptLog.map((attempt) => [attempt.attempt, attempt.outcome, attempt.error]),
    [
      [1, 'retry', 'worker_lost'],
      [2, 'succeeded', null],
    ],
  );
  assert.equal(target.requests.length, 1);
});

test('concurrent attempts: their claims are one statement; each outcome recorded on its own delivery, a retry job only for the one that retries', async () => {
  const targets = await Promise.all([receiver(200), receiver(503, 'later'), receiver(410, 'gone')]);
  const deliveries: Array<{ id: string }> = [];
  for (const target of targets) deliveries.push((await deliveryTo(target.url)).delivery);
  const enqueue = recordingEnqueue();
  const { result: results, texts } = await statementTexts(sqlPoolOf(context.database), () =>
    Promise.all(deliveries.map((delivery) => run(delivery.id, () => new Date(), enqueue))),
  );
  assert.deepEqual(
    results.map((result) => result.attempted && [result.outcome, result.status]),
    [
      ['succeeded', 'succeeded'],
      ['retry', 'queued'],
      ['failed', 'failed'],
    ],
  );
  assert.equal(
    texts.filter((text) => text.includes("SET status = 'running'")).length,
    1,
    'one claim statement',
  );
  assert.deepEqual(
    enqueue.jobs.map((job) => [job.name, (job.payload as { deliveryId: string }).deliveryId]),
    [['webhook.deliver', deliveries[1]!.id]],
  );
  const stored = await context.database.webhookDelivery.findMany({
    where: { id: { in: deliveries.map((delivery) => delivery.id) } },
    include: { attemptLog: true },
  });
  const byId = new Map(stored.map((row) => [row.id, row]));
  assert.deepEqual(
    deliveries.map((delivery) => {
      const row = byId.get(delivery.id)!;
      return [row.status, row.attempts, row.failureReason, row.attemptLog.map((log) => log.responseStatus)];
    }),
    [
      ['succeeded', 1, null, [200]],
      ['queued', 1, null, [503]],
      ['failed', 1, 'http_status', [410]],
    ],
  );
});

test('records arriving together (succeeded, retry, failed, and a late one the sweep superseded) each move only their own delivery', async () => {
  const target = await receiver(200);
  const deliveries = [];
  for (let index = 0; index < 4; index += 1) deliveries.push((await deliveryTo(target.url)).delivery);
  const now = new Date();
  for (const delivery of deliveries)
    assert.ok(
      'claimed' in
        (await claimWebhookDelivery(context.database, {
          deliveryId: delivery.id,
          now,
          leaseUntil: new Date(now.getTime() + 60_000),
        })),
    );
  const enqueue = recordingEnqueue();
  const base = {
    startedAt: now,
    durationMs: 12.4,
    responseExcerpt: null,
    error: null,
    failureReason: null,
    now,
    enqueue,
  };
  const next = new Date(now.getTime() + 10_000);
  const statuses = await Promise.all([
    recordWebhookAttempt(context.database, {
      ...base,
      deliveryId: deliveries[0]!.id,
      attempt: 1,
      outcome: 'succeeded',
      responseStatus: 200,
      nextAttemptAt: null,
    }),
    recordWebhookAttempt(context.database, {
      ...base,
      deliveryId: deliveries[1]!.id,
      attempt: 1,
      outcome: 'retry',
      responseStatus: 503,
      nextAttemptAt: next,
    }),
    recordWebhookAttempt(context.database, {
      ...base,
      deliveryId: deliveries[2]!.id,
      attempt: 1,
      outcome: 'failed',
      responseStatus: 410,
      nextAttemptAt: null,
      failureReason: 'http_status',
    }),
    // Attempt 2 is not the running one (1): logged, the delivery left alone.
    recordWebhookAttempt(context.database, {
      ...base,
      deliveryId: deliveries[3]!.id,
      attempt: 2,
      outcome: 'succeeded',
      responseStatus: 200,
      nextAttemptAt: null,
    }),
  ]);
  assert.deepEqual(
    statuses.map((result) => result.status),
    ['succeeded', 'queued', 'failed', 'superseded'],
  );
  assert.deepEqual(
    enqueue.jobs.map((job) => [(job.payload as { deliveryId: string }).deliveryId, job.startAfterSeconds]),
    [[deliveries[1]!.id, 10]],
  );
  const rows = await context.database.webhookDelivery.findMany({
    where: { id: { in: deliveries.map((delivery) => delivery.id) } },
    include: { attemptLog: true },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  assert.deepEqual(
    deliveries.map((delivery) => {
      const row = byId.get(delivery.id)!;
      return [
        row.status,
        row.failureReason,
        row.nextAttemptAt.getTime() === next.getTime(),
        row.attemptLog.map((log) => [log.attempt, log.durationMs]),
      ];
    }),
    [
      ['succeeded', null, false, [[1, 12]]],
      ['queued', null, true, [[1, 12]]],
      ['failed', 'http_status', false, [[1, 12]]],
      ['running', null, false, [[2, 12]]],
    ],
  );
});
