// The webhooks procedures: the URL answered as typed, the secret once (never listed, never
// audited), a refused URL on its field, support reads (audited) but never acts, another tenant's
// endpoints and deliveries NOT_FOUND, and the client-safe event types matching the engine's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { findAuditEntries } from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test('a developer checks a URL as typed, creates an endpoint (secret once), pauses, tests, rotates and retires it', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  // The harness runs with WEBHOOKS_ALLOW_PRIVATE_TARGETS on (local receivers); metadata stays refused.
  assert.deepEqual(await developer.webhooks.checkUrl({ url: 'http://127.0.0.1:9/hook' }), {
    ok: true,
    code: null,
    message: null,
  });
  const metadata = await developer.webhooks.checkUrl({ url: 'http://169.254.169.254/latest' });
  assert.equal(metadata.ok, false);
  assert.equal(metadata.code, 'address_not_public');
  assert.match(metadata.message ?? '', /no es pública/);
  assert.equal((await developer.webhooks.checkUrl({ url: 'erp.example' })).code, 'url_invalid');

  const refused = await trpcFailureOf(
    developer.webhooks.create({
      environment: 'TesteCF',
      name: 'ERP',
      url: 'https://user:pw@127.0.0.1/hook',
      eventTypes: 'all',
    }),
  );
  assert.equal(refused.code, 'BAD_REQUEST');
  const details = (refused.cause as { details?: { issues?: Array<{ path: string; code: string }> } }).details;
  assert.deepEqual(
    details?.issues?.map((issue) => [issue.path, issue.code]),
    [['url', 'credentials_in_url']],
  );
  // Bad input is a field error, never a 500.
  assert.equal(
    (
      await trpcFailureOf(
        developer.webhooks.create({ environment: 'TesteCF', name: '', url: '', eventTypes: [] }),
      )
    ).code,
    'BAD_REQUEST',
  );

  const created = await developer.webhooks.create({
    environment: 'TesteCF',
    name: 'ERP',
    url: 'http://127.0.0.1:9/hook',
    eventTypes: ['document.state_changed'],
  });
  assert.match(created.signingSecret, /^whsec_/);
  const listed = await developer.webhooks.list({ environment: 'TesteCF' });
  assert.deepEqual(
    listed.endpoints.map((endpoint) => [endpoint.name, endpoint.status, endpoint.eventTypes]),
    [['ERP', 'active', ['document.state_changed']]],
  );
  assert.equal(listed.canManage, true);
  assert.ok(!JSON.stringify(listed).includes(created.signingSecret));
  assert.deepEqual((await developer.webhooks.list({ environment: 'eCF' })).endpoints, []);

  const endpointId = created.endpoint.id;
  assert.equal((await developer.webhooks.update({ endpointId, status: 'paused' })).status, 'paused');
  const test = await developer.webhooks.sendTest({ endpointId });
  const { items } = await developer.webhooks.deliveries({ environment: 'TesteCF', endpointId });
  assert.deepEqual(
    items.map((delivery) => [delivery.id, delivery.eventType, delivery.status, delivery.attempts]),
    [[test.deliveryId, 'webhook.test', 'queued', 0]],
  );
  // An endpoint of TesteCF is not found under eCF.
  assert.equal(
    (await trpcFailureOf(developer.webhooks.get({ environment: 'eCF', endpointId }))).code,
    'NOT_FOUND',
  );
  const rotated = await developer.webhooks.rotateSecret({ endpointId, overlapSeconds: 3600 });
  assert.notEqual(rotated.signingSecret, created.signingSecret);
  assert.ok(rotated.endpoint.previousSecretExpiresAt);
  const again = await trpcFailureOf(developer.webhooks.rotateSecret({ endpointId, overlapSeconds: 0 }));
  assert.equal(again.code, 'CONFLICT');
  assert.equal((again.cause as { code?: string }).code, 'WEBHOOK_ROTATION_IN_PROGRESS');
  const retired = await developer.webhooks.retire({ endpointId });
  assert.equal(retired.failedDeliveries, 1);
  const late = await trpcFailureOf(developer.webhooks.update({ endpointId, name: 'Otro' }));
  assert.equal((late.cause as { code?: string }).code, 'WEBHOOK_ENDPOINT_RETIRED');
  const replay = await trpcFailureOf(developer.webhooks.replay({ deliveryId: test.deliveryId }));
  assert.equal((replay.cause as { code?: string }).code, 'WEBHOOK_REPLAY_NOT_ALLOWED');

  const audit = await findAuditEntries({ database: harness.database, tenantId: world.tenant.id });
  assert.deepEqual(
    audit.items
      .filter((entry) => entry.action.startsWith('webhook.'))
      .map((entry) => [entry.action, entry.actor?.id]),
    [
      ['webhook.retired', world.users.developer.id],
      ['webhook.secret_rotated', world.users.developer.id],
      ['webhook.test_sent', world.users.developer.id],
      ['webhook.updated', world.users.developer.id],
      ['webhook.created', world.users.developer.id],
    ],
  );
  const text = JSON.stringify(audit.items);
  assert.ok(!text.includes(created.signingSecret) && !text.includes(rotated.signingSecret));
});

test('support reads endpoints and deliveries (each view audited) but cannot act; another tenant gets NOT_FOUND', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const { endpoint } = await owner.webhooks.create({
    environment: 'CerteCF',
    name: 'ERP',
    url: 'http://127.0.0.1:9/hook',
    eventTypes: 'all',
  });
  const { deliveryId } = await owner.webhooks.sendTest({ endpointId: endpoint.id });

  const support = callerOf(harness, world.sessions.support);
  const seen = await support.webhooks.list({ environment: 'CerteCF' });
  assert.deepEqual(
    seen.endpoints.map((item) => item.id),
    [endpoint.id],
  );
  assert.equal(seen.canManage, false);
  await support.webhooks.deliveries({ environment: 'CerteCF', endpointId: endpoint.id });
  assert.equal(
    (await trpcFailureOf(support.webhooks.sendTest({ endpointId: endpoint.id }))).code,
    'FORBIDDEN',
  );
  const views = await harness.database.portalAuditEntry.count({
    where: { tenantId: world.tenant.id, action: 'support.viewed', targetId: { startsWith: 'webhooks.' } },
  });
  assert.equal(views, 2);

  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  for (const call of [
    () => intruder.webhooks.get({ environment: 'CerteCF', endpointId: endpoint.id }),
    () => intruder.webhooks.deliveries({ environment: 'CerteCF', endpointId: endpoint.id }),
    () => intruder.webhooks.update({ endpointId: endpoint.id, status: 'paused' }),
    () => intruder.webhooks.rotateSecret({ endpointId: endpoint.id, overlapSeconds: 0 }),
    () => intruder.webhooks.sendTest({ endpointId: endpoint.id }),
    () => intruder.webhooks.retire({ endpointId: endpoint.id }),
    () => intruder.webhooks.replay({ deliveryId }),
  ])
    assert.equal((await trpcFailureOf(call())).code, 'NOT_FOUND');
  assert.deepEqual((await intruder.webhooks.list({ environment: 'CerteCF' })).endpoints, []);
  assert.equal(
    (await owner.webhooks.get({ environment: 'CerteCF', endpointId: endpoint.id })).endpoint.status,
    'active',
  );
});
