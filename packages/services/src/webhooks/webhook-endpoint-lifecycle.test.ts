// The endpoint lifecycle against a real database and real local receivers: create (URL rules, the
// secret once and sealed, never audited), PATCH (pause keeps deliveries waiting, resume continues
// them), DELETE retires (queued deliveries failed, later changes 409), rotation (two signatures in
// the overlap window, only the new one after; a second rotation in the window 409), the test event
// to one endpoint only, the deliveries log by cursor with each attempt, and the replay rules.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { sqlPoolOf, type TAnyJobRequest, type TEnqueue } from '@ecf/db';
import {
  openIdentityHarness,
  refusal,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { startReceiver, type TReceiver } from '../../test/webhook-receivers.ts';
import { createCertificateKeyring } from '../accounts/certificate-keyring.ts';
import { findAuditEntries } from '../audit/index.ts';
import type { TPortalActor } from '../identity/index.ts';
import { createWebhookEndpoint } from './create-webhook-endpoint.ts';
import { DIRECT_WEBHOOK_EVENT_TYPES } from '@ecf/contract';
import { findWebhookDeliveries } from './find-webhook-deliveries.ts';
import { findWebhookEndpoints } from './find-webhook-endpoints.ts';
import { getWebhookEndpoint } from './get-webhook-endpoint.ts';
import { replayWebhookDelivery } from './replay-webhook-delivery.ts';
import { retireWebhookEndpoint } from './retire-webhook-endpoint.ts';
import { rotateWebhookSecret } from './rotate-webhook-secret.ts';
import { runWebhookDelivery } from './run-webhook-delivery.ts';
import { sendTestWebhook } from './send-test-webhook.ts';
import { updateWebhookEndpoint } from './update-webhook-endpoint.ts';
import { openWebhookSecret } from './webhook-secrets.ts';

let harness: TIdentityHarness;
const receivers: TReceiver[] = [];
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  for (const receiver of receivers) await receiver.close();
  await harness.close();
});

const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });

/** A clock the test moves (deliveries are due by `next_attempt_at`). */
function clock() {
  let current = Date.now();
  return { now: () => new Date(current), advance: (ms: number) => (current += ms) };
}

/** Records the jobs enqueued, each on the caller's transaction. */
function recordingEnqueue() {
  const jobs: TAnyJobRequest[] = [];
  const enqueue: TEnqueue = async (requested, options) => {
    assert.ok(options?.executor, 'enqueued in the change transaction');
    jobs.push(...requested);
  };
  return { jobs, enqueue };
}

/** A receiver answering `status()` (changeable), recorded. */
async function receiver(initial: number) {
  let status = initial;
  const started = await startReceiver((response) => {
    response.writeHead(status, { 'content-type': 'text/plain' });
    response.end(`answer ${status}`);
  });
  receivers.push(started);
  return { ...started, answer: (next: number) => (status = next) };
}

async function world() {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const actor: TPortalActor = {
    userId: owner.user.id,
    principal: { kind: 'member', role: 'developer' },
    ip: '198.51.100.7',
  };
  return { tenant, actor };
}

async function endpointFor(input: { tenantId: string; actor: TPortalActor; url: string; now?: () => Date }) {
  return createWebhookEndpoint({
    database: harness.database,
    tenantId: input.tenantId,
    environment: 'TesteCF',
    name: 'ERP',
    url: input.url,
    eventTypes: 'all',
    keyring,
    allowPrivateTargets: true,
    actor: input.actor,
    ...(input.now === undefined ? {} : { now: input.now }),
  });
}

function deliver(deliveryId: string, now: () => Date, enqueue: TEnqueue) {
  return runWebhookDelivery({
    database: harness.database,
    enqueue,
    deliveryId,
    keyring,
    now,
    allowPrivateTargets: true,
    random: () => 0,
  });
}

/** The `v1` values of a signature header that verify `t.body` with `secret`. */
function signedWith(header: string, body: Buffer, secret: string): boolean {
  const parts = header.split(',');
  const t = parts.find((part) => part.startsWith('t='))?.slice(2) ?? '';
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return parts.filter((part) => part.startsWith('v1=')).some((part) => part.slice(3) === expected);
}

test('create: the URL rules on the `url` field, name and event types checked, the secret once, sealed and never audited', async () => {
  const { tenant, actor } = await world();
  const base = {
    database: harness.database,
    tenantId: tenant.id,
    environment: 'TesteCF' as const,
    name: 'ERP',
    eventTypes: 'all' as const,
    keyring,
    actor,
  };
  for (const url of [
    'http://127.0.0.1:9/hook',
    'https://10.0.0.1/hook',
    'https://[::ffff:127.0.0.1]/x',
    'https://localhost/x',
  ]) {
    const refused = await refusal(createWebhookEndpoint({ ...base, url, allowPrivateTargets: false }));
    assert.equal(refused.code, 'INVALID_REQUEST', url);
    assert.equal((refused.details['issues'] as Array<{ path: string }>)[0]?.path, 'url', url);
  }
  const longName = await refusal(
    createWebhookEndpoint({
      ...base,
      name: 'x'.repeat(201),
      url: 'http://127.0.0.1:9/hook',
      allowPrivateTargets: true,
    }),
  );
  assert.deepEqual(
    (longName.details['issues'] as Array<{ path: string }>).map((issue) => issue.path),
    ['name'],
  );
  for (const eventTypes of [[], ['document.deleted'], ['webhook.test']]) {
    const refused = await refusal(
      createWebhookEndpoint({
        ...base,
        eventTypes,
        url: 'http://127.0.0.1:9/hook',
        allowPrivateTargets: true,
      }),
    );
    assert.equal((refused.details['issues'] as Array<{ path: string }>)[0]?.path, 'eventTypes');
  }
  // Accountants and support do not manage webhooks.
  for (const principal of [{ kind: 'member', role: 'accountant' }, { kind: 'support' }] as const)
    assert.equal(
      (
        await refusal(
          createWebhookEndpoint({
            ...base,
            actor: { ...actor, principal },
            url: 'http://127.0.0.1:9/hook',
            allowPrivateTargets: true,
          }),
        )
      ).code,
      'FORBIDDEN',
    );

  const { endpoint, signingSecret } = await createWebhookEndpoint({
    ...base,
    name: '  ERP principal  ',
    url: 'http://127.0.0.1:9/hook',
    allowPrivateTargets: true,
  });
  assert.match(signingSecret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.equal(endpoint.name, 'ERP principal');
  assert.equal(endpoint.status, 'active');
  // "all" is the types that exist now, stored as their list (Versioning 4).
  assert.deepEqual(endpoint.eventTypes, [...DIRECT_WEBHOOK_EVENT_TYPES].sort());
  const explicit = await createWebhookEndpoint({
    ...base,
    eventTypes: ['document.state_changed', 'ecf.queued', 'ecf.queued'],
    url: 'http://127.0.0.1:9/other',
    allowPrivateTargets: true,
  });
  assert.deepEqual(explicit.endpoint.eventTypes, ['document.state_changed', 'ecf.queued']);

  // Sealed at rest: the clear secret is not in the row, and it opens to the same value.
  const { rows } = await sqlPoolOf(harness.database).query<{
    secret_key_id: string;
    encrypted_secret: Buffer;
  }>('SELECT secret_key_id, encrypted_secret FROM webhook_endpoints WHERE id = $1', [endpoint.id]);
  const stored = rows[0];
  assert.ok(stored);
  assert.ok(!stored.encrypted_secret.includes(Buffer.from(signingSecret)));
  assert.equal(
    openWebhookSecret({
      keyring,
      endpointId: endpoint.id,
      keyId: stored.secret_key_id,
      sealed: stored.encrypted_secret,
    }),
    signingSecret,
  );
  const listed = await findWebhookEndpoints({
    database: harness.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
  });
  assert.deepEqual(listed.map((item) => item.id).sort(), [endpoint.id, explicit.endpoint.id].sort());
  assert.deepEqual(
    await findWebhookEndpoints({ database: harness.database, tenantId: tenant.id, environment: 'eCF' }),
    [],
  );
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  const created = items.filter((entry) => entry.action === 'webhook.created');
  assert.equal(created.length, 2);
  assert.deepEqual(created.at(-1)?.data, {
    environment: 'TesteCF',
    name: 'ERP principal',
    url: 'http://127.0.0.1:9/hook',
    eventTypes: endpoint.eventTypes,
  });
  assert.ok(!JSON.stringify(items).includes(signingSecret));
});

test('pause keeps a test delivery waiting without using an attempt; resume continues it; only that endpoint gets the test', async () => {
  const { tenant, actor } = await world();
  const target = await receiver(200);
  const bystander = await receiver(200);
  const { endpoint } = await endpointFor({ tenantId: tenant.id, actor, url: target.url });
  await endpointFor({ tenantId: tenant.id, actor, url: bystander.url });
  const { jobs, enqueue } = recordingEnqueue();
  const time = clock();

  const paused = await updateWebhookEndpoint({
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    patch: { status: 'paused' },
    allowPrivateTargets: true,
    enqueue,
    actor,
    now: time.now,
  });
  assert.equal(paused.status, 'paused');
  const test = await sendTestWebhook({
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    enqueue,
    actor,
    now: time.now,
  });
  assert.equal(jobs.length, 0, 'a paused endpoint: the test waits, no job yet');
  const waiting = await deliver(test.deliveryId, time.now, enqueue);
  assert.equal(waiting.attempted, false);
  const [queued] = (
    await findWebhookDeliveries({ database: harness.database, tenantId: tenant.id, endpointId: endpoint.id })
  ).items;
  assert.equal(queued?.status, 'queued');
  assert.equal(queued?.attempts, 0);

  await updateWebhookEndpoint({
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    patch: { status: 'active' },
    allowPrivateTargets: true,
    enqueue,
    actor,
    now: time.now,
  });
  assert.deepEqual(
    jobs.map((job) => `${job.name} ${JSON.stringify(job.payload)}`),
    [`webhook.deliver ${JSON.stringify({ deliveryId: test.deliveryId })}`],
  );
  const delivered = await deliver(test.deliveryId, time.now, enqueue);
  assert.equal(delivered.attempted && delivered.status, 'succeeded');
  assert.equal(target.requests.length, 1);
  assert.equal(target.requests[0]?.headers['svc-event-type'], 'webhook.test');
  assert.equal(target.requests[0]?.headers['svc-event-id'], test.eventId);
  assert.equal(bystander.requests.length, 0);

  // Changes are audited with only what changed.
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  const updates = items.filter((entry) => entry.action === 'webhook.updated').map((entry) => entry.data);
  assert.deepEqual(
    updates.map((data) => [data['before'], data['after']]),
    [
      [{ status: 'paused' }, { status: 'active' }],
      [{ status: 'active' }, { status: 'paused' }],
    ],
  );
  assert.ok(items.some((entry) => entry.action === 'webhook.test_sent' && entry.targetId === endpoint.id));
});

test('PATCH name, URL and event types; a bad URL or an empty list is a field error; another tenant NOT_FOUND', async () => {
  const { tenant, actor } = await world();
  const { endpoint } = await endpointFor({ tenantId: tenant.id, actor, url: 'http://127.0.0.1:9/hook' });
  const { enqueue } = recordingEnqueue();
  const patch = (changes: Parameters<typeof updateWebhookEndpoint>[0]['patch'], allowPrivateTargets = true) =>
    updateWebhookEndpoint({
      database: harness.database,
      tenantId: tenant.id,
      endpointId: endpoint.id,
      patch: changes,
      allowPrivateTargets,
      enqueue,
      actor,
    });
  const changed = await patch({
    name: 'Contabilidad',
    url: 'http://127.0.0.1:10/new',
    eventTypes: ['ecf.queued'],
  });
  assert.deepEqual(
    [changed.name, changed.url, changed.eventTypes],
    ['Contabilidad', 'http://127.0.0.1:10/new', ['ecf.queued']],
  );
  // "all" again: every type that exists now.
  assert.deepEqual((await patch({ eventTypes: 'all' })).eventTypes, [...DIRECT_WEBHOOK_EVENT_TYPES].sort());
  const badUrl = await refusal(patch({ url: 'http://127.0.0.1:10/new' }, false));
  assert.equal((badUrl.details['issues'] as Array<{ path: string }>)[0]?.path, 'url');
  const empty = await refusal(patch({ eventTypes: [] }));
  assert.equal((empty.details['issues'] as Array<{ path: string }>)[0]?.path, 'eventTypes');
  assert.equal((await refusal(patch({ name: 'y'.repeat(201) }))).code, 'INVALID_REQUEST');
  assert.equal((await refusal(patch({}))).code, 'INVALID_REQUEST');
  assert.equal(
    (await getWebhookEndpoint({ database: harness.database, tenantId: tenant.id, endpointId: endpoint.id }))
      .name,
    'Contabilidad',
  );

  const other = await world();
  for (const call of [
    () =>
      updateWebhookEndpoint({
        database: harness.database,
        tenantId: other.tenant.id,
        endpointId: endpoint.id,
        patch: { status: 'paused' },
        allowPrivateTargets: true,
        enqueue,
        actor: other.actor,
      }),
    () =>
      retireWebhookEndpoint({
        database: harness.database,
        tenantId: other.tenant.id,
        endpointId: endpoint.id,
        actor: other.actor,
      }),
    () =>
      rotateWebhookSecret({
        database: harness.database,
        tenantId: other.tenant.id,
        endpointId: endpoint.id,
        overlapSeconds: 0,
        keyring,
        actor: other.actor,
      }),
    () =>
      sendTestWebhook({
        database: harness.database,
        tenantId: other.tenant.id,
        endpointId: endpoint.id,
        enqueue,
        actor: other.actor,
      }),
    () =>
      findWebhookDeliveries({
        database: harness.database,
        tenantId: other.tenant.id,
        endpointId: endpoint.id,
      }),
    () =>
      getWebhookEndpoint({
        database: harness.database,
        tenantId: tenant.id,
        endpointId: endpoint.id,
        environment: 'eCF',
      }),
  ])
    assert.equal((await refusal(call())).code, 'NOT_FOUND');
});

test('DELETE retires: history kept, queued deliveries failed, later PATCH, rotation, test and replay 409', async () => {
  const { tenant, actor } = await world();
  const { endpoint } = await endpointFor({ tenantId: tenant.id, actor, url: 'http://127.0.0.1:9/hook' });
  const { enqueue } = recordingEnqueue();
  const base = { database: harness.database, tenantId: tenant.id, endpointId: endpoint.id, actor };
  await updateWebhookEndpoint({ ...base, patch: { status: 'paused' }, allowPrivateTargets: true, enqueue });
  const test = await sendTestWebhook({ ...base, enqueue });
  const retired = await retireWebhookEndpoint(base);
  assert.equal(retired.endpoint.status, 'retired');
  assert.ok(retired.endpoint.retiredAt);
  assert.equal(retired.failedDeliveries, 1);
  // Twice is harmless.
  assert.equal((await retireWebhookEndpoint(base)).failedDeliveries, 0);
  const { items } = await findWebhookDeliveries({
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
  });
  assert.deepEqual(
    items.map((item) => [item.id, item.status, item.failureReason]),
    [[test.deliveryId, 'failed', 'endpoint_retired']],
  );
  for (const call of [
    () => updateWebhookEndpoint({ ...base, patch: { status: 'active' }, allowPrivateTargets: true, enqueue }),
    () => updateWebhookEndpoint({ ...base, patch: { name: 'Otra' }, allowPrivateTargets: true, enqueue }),
    () => rotateWebhookSecret({ ...base, overlapSeconds: 60, keyring }),
    () => sendTestWebhook({ ...base, enqueue }),
  ])
    assert.equal((await refusal(call())).code, 'WEBHOOK_ENDPOINT_RETIRED');
  assert.equal(
    (
      await refusal(
        replayWebhookDelivery({
          database: harness.database,
          tenantId: tenant.id,
          deliveryId: test.deliveryId,
          enqueue,
          actor,
        }),
      )
    ).code,
    'WEBHOOK_REPLAY_NOT_ALLOWED',
  );
  const listed = await findWebhookEndpoints({
    database: harness.database,
    tenantId: tenant.id,
    environment: 'TesteCF',
  });
  assert.deepEqual(
    listed.map((item) => item.status),
    ['retired'],
  );
  const audit = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  assert.equal(audit.items.filter((entry) => entry.action === 'webhook.retired').length, 1);
});

test('rotation: the new secret once, both signatures during overlapSeconds, only the new one after; a second rotation in the window 409', async () => {
  const { tenant, actor } = await world();
  const target = await receiver(200);
  const time = clock();
  const { endpoint, signingSecret: first } = await endpointFor({
    tenantId: tenant.id,
    actor,
    url: target.url,
    now: time.now,
  });
  const { enqueue } = recordingEnqueue();
  const base = {
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    actor,
    now: time.now,
  };
  assert.equal(
    (await refusal(rotateWebhookSecret({ ...base, overlapSeconds: -1, keyring }))).details['code'],
    'overlap_invalid',
  );
  const rotated = await rotateWebhookSecret({ ...base, overlapSeconds: 3600, keyring });
  const second = rotated.signingSecret;
  assert.notEqual(second, first);
  assert.equal(rotated.endpoint.previousSecretExpiresAt?.getTime(), time.now().getTime() + 3600_000);
  const again = await refusal(rotateWebhookSecret({ ...base, overlapSeconds: 60, keyring }));
  assert.equal(again.code, 'WEBHOOK_ROTATION_IN_PROGRESS');

  const during = await sendTestWebhook({ ...base, enqueue });
  await deliver(during.deliveryId, time.now, enqueue);
  const duringRequest = target.requests.at(-1);
  assert.ok(duringRequest);
  const duringHeader = String(duringRequest.headers['svc-signature']);
  assert.equal(duringHeader.split(',').filter((part) => part.startsWith('v1=')).length, 2);
  assert.ok(signedWith(duringHeader, duringRequest.body, first));
  assert.ok(signedWith(duringHeader, duringRequest.body, second));

  time.advance(3600_000 + 1000);
  const afterWindow = await sendTestWebhook({ ...base, enqueue });
  await deliver(afterWindow.deliveryId, time.now, enqueue);
  const afterRequest = target.requests.at(-1);
  assert.ok(afterRequest);
  const afterHeader = String(afterRequest.headers['svc-signature']);
  assert.equal(afterHeader.split(',').filter((part) => part.startsWith('v1=')).length, 1);
  assert.ok(signedWith(afterHeader, afterRequest.body, second));
  assert.ok(!signedWith(afterHeader, afterRequest.body, first));
  // The window is over: rotating again is allowed.
  const third = await rotateWebhookSecret({ ...base, overlapSeconds: 0, keyring });
  assert.equal(third.endpoint.previousSecretExpiresAt, null);

  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  const rotations = items.filter((entry) => entry.action === 'webhook.secret_rotated');
  assert.equal(rotations.length, 2);
  assert.equal(rotations.at(-1)?.data['overlapSeconds'], 3600);
  const text = JSON.stringify(items);
  for (const secret of [first, second, third.signingSecret]) assert.ok(!text.includes(secret));
});

test('deliveries log by cursor with status filter and each attempt; replay of a failed delivery keeps its event and counter', async () => {
  const { tenant, actor } = await world();
  const target = await receiver(400);
  const time = clock();
  const { endpoint } = await endpointFor({ tenantId: tenant.id, actor, url: target.url, now: time.now });
  const { jobs, enqueue } = recordingEnqueue();
  const base = {
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    actor,
    now: time.now,
  };

  // A 400 fails at once, after one attempt.
  const rejected = await sendTestWebhook({ ...base, enqueue });
  assert.deepEqual(jobs.at(-1)?.payload, { deliveryId: rejected.deliveryId });
  const first = await deliver(rejected.deliveryId, time.now, enqueue);
  assert.equal(first.attempted && first.status, 'failed');
  time.advance(1000);
  target.answer(200);
  const succeeded = await sendTestWebhook({ ...base, enqueue });
  await deliver(succeeded.deliveryId, time.now, enqueue);
  time.advance(1000);
  const third = await sendTestWebhook({ ...base, enqueue });

  const all = await findWebhookDeliveries({ ...base, limit: 2 });
  assert.deepEqual(
    all.items.map((item) => item.id),
    [third.deliveryId, succeeded.deliveryId],
  );
  assert.ok(all.nextCursor);
  const rest = await findWebhookDeliveries({ ...base, limit: 2, cursor: all.nextCursor });
  assert.deepEqual(
    rest.items.map((item) => item.id),
    [rejected.deliveryId],
  );
  assert.equal(rest.nextCursor, null);
  const failedOnly = await findWebhookDeliveries({ ...base, status: 'failed' });
  assert.deepEqual(
    failedOnly.items.map((item) => item.id),
    [rejected.deliveryId],
  );
  const failed = failedOnly.items[0];
  assert.ok(failed);
  assert.equal(failed.attempts, 1);
  assert.equal(failed.eventType, 'webhook.test');
  assert.deepEqual(
    failed.attemptLog.map((attempt) => [
      attempt.attempt,
      attempt.outcome,
      attempt.responseStatus,
      attempt.responseExcerpt,
    ]),
    [[1, 'failed', 400, 'answer 400']],
  );
  assert.ok(failed.attemptLog[0] && failed.attemptLog[0].durationMs >= 0);
  assert.equal(
    (await refusal(findWebhookDeliveries({ ...base, cursor: 'not-a-cursor' }))).details['code'],
    'cursor_invalid',
  );

  // Replay: same event, same counter, the attempts it had left; the receiver now answers 200.
  const replay = (deliveryId: string) =>
    replayWebhookDelivery({
      database: harness.database,
      tenantId: tenant.id,
      deliveryId,
      enqueue,
      actor,
      now: time.now,
    });
  const replayed = await replay(rejected.deliveryId);
  assert.deepEqual(
    [replayed.status, replayed.attempts, replayed.maxAttempts, replayed.replayCount],
    ['queued', 1, 8, 1],
  );
  assert.deepEqual(jobs.at(-1), { name: 'webhook.deliver', payload: { deliveryId: rejected.deliveryId } });
  assert.equal((await refusal(replay(rejected.deliveryId))).code, 'WEBHOOK_REPLAY_NOT_ALLOWED');
  const second = await deliver(rejected.deliveryId, time.now, enqueue);
  assert.equal(second.attempted && second.status, 'succeeded');
  const ids = target.requests.map((request) => request.headers['svc-event-id']);
  assert.equal(ids.filter((id) => id === rejected.eventId).length, 2, 'the same event id on the replay');
  const sameBody = target.requests.filter((request) => request.headers['svc-event-id'] === rejected.eventId);
  assert.ok(sameBody[0]?.body.equals(sameBody[1]?.body ?? Buffer.alloc(0)));
  assert.equal((await refusal(replay(rejected.deliveryId))).code, 'WEBHOOK_REPLAY_NOT_ALLOWED');
  assert.equal((await refusal(replay(third.deliveryId))).code, 'WEBHOOK_REPLAY_NOT_ALLOWED');
  const other = await world();
  assert.equal(
    (
      await refusal(
        replayWebhookDelivery({
          database: harness.database,
          tenantId: other.tenant.id,
          deliveryId: third.deliveryId,
          enqueue,
          actor: other.actor,
        }),
      )
    ).code,
    'NOT_FOUND',
  );
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  const entry = items.find((item) => item.action === 'webhook.delivery_replayed');
  assert.equal(entry?.targetId, rejected.deliveryId);
  assert.deepEqual(entry?.data, {
    endpointId: endpoint.id,
    eventId: rejected.eventId,
    eventType: 'webhook.test',
    attempts: 1,
    maxAttempts: 8,
  });
});

test('replay after 8 attempts allows exactly one more; a paused endpoint refuses the replay', async () => {
  const { tenant, actor } = await world();
  const target = await receiver(500);
  const time = clock();
  const { endpoint } = await endpointFor({ tenantId: tenant.id, actor, url: target.url, now: time.now });
  const { enqueue } = recordingEnqueue();
  const base = {
    database: harness.database,
    tenantId: tenant.id,
    endpointId: endpoint.id,
    actor,
    now: time.now,
  };
  const { deliveryId } = await sendTestWebhook({ ...base, enqueue });
  for (let attempt = 1; attempt <= 8; attempt += 1) {
    const result = await deliver(deliveryId, time.now, enqueue);
    assert.equal(result.attempted && result.attempt, attempt);
    time.advance(1300_000);
  }
  const exhausted = (await findWebhookDeliveries(base)).items[0];
  assert.deepEqual(
    [exhausted?.status, exhausted?.attempts, exhausted?.failureReason],
    ['failed', 8, 'attempts_exhausted'],
  );

  await updateWebhookEndpoint({ ...base, patch: { status: 'paused' }, allowPrivateTargets: true, enqueue });
  const refused = await refusal(
    replayWebhookDelivery({ database: harness.database, tenantId: tenant.id, deliveryId, enqueue, actor }),
  );
  assert.equal(refused.code, 'WEBHOOK_REPLAY_NOT_ALLOWED');
  assert.deepEqual(refused.details, { status: 'failed', endpointStatus: 'paused' });
  await updateWebhookEndpoint({ ...base, patch: { status: 'active' }, allowPrivateTargets: true, enqueue });

  const replayed = await replayWebhookDelivery({
    database: harness.database,
    tenantId: tenant.id,
    deliveryId,
    enqueue,
    actor,
    now: time.now,
  });
  assert.deepEqual([replayed.attempts, replayed.maxAttempts], [8, 9]);
  const ninth = await deliver(deliveryId, time.now, enqueue);
  assert.equal(ninth.attempted && ninth.attempt, 9);
  assert.equal(ninth.attempted && ninth.status, 'failed');
  const last = (await findWebhookDeliveries(base)).items[0];
  assert.deepEqual([last?.status, last?.attempts, last?.attemptLog.length], ['failed', 9, 9]);
  assert.equal(target.requests.length, 9);
});
