import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf, type TEnqueue, type TJobName } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { loadTransmissionDocument } from '../persistence/index.ts';
import { acceptanceFollowUp } from './acceptance-follow-ups.ts';
import { applyFinalAnswer } from './answer-writes.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

/** The answer applied as transmission and polling apply it, with the follow-ups of `acceptanceFollowUp`. */
async function answer(documentId: string, status: 'accepted' | 'rejected', enqueue: TEnqueue | undefined) {
  const document = await loadTransmissionDocument(context.database, documentId);
  assert.ok(document);
  return applyFinalAnswer(sqlPoolOf(context.database), document, {
    from: ['sent'],
    status,
    messages: [],
    lastError: null,
    answer: { estado: status },
    at: new Date(),
    followUp: acceptanceFollowUp(document, status, enqueue),
  });
}

test('acceptance enqueues document.email-buyer in its own transaction, only when enabled and accepted', async () => {
  const database = context.database;
  const enabled = await seedTenant(database);
  await database.tenant.update({ where: { id: enabled.id }, data: { buyerEmailEnvironments: ['TesteCF'] } });
  const disabled = await seedTenant(database);
  const enqueued: Array<[TJobName, unknown]> = [];
  const enqueue: TEnqueue = async (jobs, options) => {
    assert.ok(options?.executor, 'enqueued on the acceptance transaction');
    for (const job of jobs) enqueued.push([job.name, job.payload]);
  };
  let counter = 100;
  // E32: not delivered to a receiver, so the e-mail is the acceptance's only follow-up.
  const seed = (tenantId: string) =>
    seedDocument(database, { tenantId, encf: `E32${String(++counter).padStart(10, '0')}`, status: 'sent' });

  const document = await seed(enabled.id);
  assert.equal(await answer(document.id, 'accepted', enqueue), true);
  assert.deepEqual(enqueued, [['document.email-buyer', { documentId: document.id }]]);
  // Not moved (someone else moved it first): no job.
  assert.equal(await answer(document.id, 'accepted', enqueue), false);
  assert.equal(enqueued.length, 1);

  for (const [tenantId, status] of [
    [disabled.id, 'accepted'],
    [enabled.id, 'rejected'],
  ] as const) {
    const other = await seed(tenantId);
    await answer(other.id, status, enqueue);
    assert.equal(enqueued.length, 1, `${status} in ${tenantId}`);
  }
  // Without enqueue (API tests, the sweeper) the answer is applied as before.
  const plain = await seed(enabled.id);
  assert.equal(await answer(plain.id, 'accepted', undefined), true);

  // The job and the acceptance commit or roll back together.
  const failing = await seed(enabled.id);
  const broken: TEnqueue = async () => {
    throw new Error('queue down');
  };
  await assert.rejects(answer(failing.id, 'accepted', broken), /queue down/);
  assert.equal((await database.document.findUniqueOrThrow({ where: { id: failing.id } })).status, 'sent');
});

test('an accepted type exchanged between taxpayers also gets its receiver delivery, in the same transaction', async () => {
  const database = context.database;
  const tenant = await seedTenant(database);
  const enqueued: TJobName[] = [];
  const enqueue: TEnqueue = async (jobs) => {
    for (const job of jobs) enqueued.push(job.name);
  };
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000000777',
    status: 'sent',
  });
  assert.equal(await answer(document.id, 'accepted', enqueue), true);
  assert.deepEqual(enqueued, ['document.deliver-to-receiver']);
  const delivery = await database.receiverDelivery.findUnique({ where: { documentId: document.id } });
  assert.equal(delivery?.status, 'pending');
  // A rejection brings nothing.
  const rejected = await seedDocument(database, {
    tenantId: tenant.id,
    encf: 'E310000000778',
    status: 'sent',
  });
  assert.equal(await answer(rejected.id, 'rejected', enqueue), true);
  assert.deepEqual(enqueued, ['document.deliver-to-receiver']);
  assert.equal(await database.receiverDelivery.findUnique({ where: { documentId: rejected.id } }), null);
});
