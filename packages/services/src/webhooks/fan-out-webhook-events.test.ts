// The fan-out: one delivery per subscribed ACTIVE or PAUSED endpoint whose stored eventTypes list
// the type (Versioning 4: a type an endpoint did not subscribe to is never sent to it), with the
// exact body stored; jobs only for active endpoints; a second run adds nothing.
import { randomUUID } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { changeDocument } from '../persistence/change-document.ts';
import { openEpisode } from '../persistence/episodes.ts';
import { insertTestEndpoint, recordingEnqueue } from '../../test/webhook-engine.ts';
import { DIRECT_WEBHOOK_EVENT_TYPES, expandWebhookEventTypes } from './event-types.ts';
import { fanOutWebhookEvents, webhookEndpointsFor } from './fan-out-webhook-events.ts';
import { ZDirectWebhookPayload } from './payloads.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

const now = () => new Date('2026-11-25T10:00:00.000Z');

test('"all" is expanded at save time to the types that exist then', () => {
  assert.deepEqual(expandWebhookEventTypes('all'), [...DIRECT_WEBHOOK_EVENT_TYPES].sort());
  assert.deepEqual(expandWebhookEventTypes(['ecf.queued', 'ecf.queued']), ['ecf.queued']);
  // An endpoint saved with "all" before a type existed keeps the older list (Versioning 4).
  const old = expandWebhookEventTypes('all', ['ecf.queued', 'document.state_changed']);
  const routed = webhookEndpointsFor(
    { type: 'taxauth.service_degraded', tenantId: null, environment: 'eCF' },
    [
      {
        id: 'a',
        system: 'direct',
        tenantId: 't',
        partnerId: null,
        environment: 'eCF',
        eventTypes: old,
        status: 'active',
      },
    ],
  );
  assert.deepEqual(routed, []);
});

test('subscription rules: tenant, environment, type, status; paused waits without a job; retired and partner get nothing', async () => {
  const tenant = await seedTenant(context.database, { rnc: '102000001' });
  const other = await seedTenant(context.database, { rnc: '102000002' });
  const all = [...DIRECT_WEBHOOK_EVENT_TYPES];
  const active = await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: all });
  const paused = await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: ['document.state_changed'],
    status: 'paused',
  });
  // Saved before the outage types existed (Versioning 4): only what it listed.
  const older = await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: ['ecf.queued', 'document.state_changed'],
  });
  const retired = await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    eventTypes: all,
    status: 'retired',
  });
  const otherEnvironment = await insertTestEndpoint(context.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    eventTypes: all,
  });
  const otherTenant = await insertTestEndpoint(context.database, { tenantId: other.id, eventTypes: all });
  // A Partner endpoint: no deliveries for a direct account's events (no Partner manages it).
  const owner = await context.database.partner.create({ data: { name: 'Partner SRL' } });
  const partner = await context.database.webhookEndpoint.create({
    data: {
      id: randomUUID(),
      system: 'partner',
      partnerId: owner.id,
      environment: null,
      name: 'partner',
      url: 'https://partner.example.com/hook',
      eventTypes: all,
      secretKeyId: 'k',
      encryptedSecret: Buffer.from('x'),
    },
  });

  const enqueue = recordingEnqueue();
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf: 'E310000000101' });
  await changeDocument(sqlPoolOf(context.database), {
    documentId: document.id,
    from: ['queued_for_signing'],
    set: { status: 'signed' },
  });
  await openEpisode(sqlPoolOf(context.database), {
    environment: 'TesteCF',
    service: 'recepcion',
    code: 'TAXAUTH_UNAVAILABLE',
    at: now(),
  });
  const result = await fanOutWebhookEvents({ database: context.database, enqueue, now });
  assert.equal(result.events, 3);

  const deliveries = await context.database.webhookDelivery.findMany({ include: { event: true } });
  const byType = (type: string) =>
    deliveries
      .filter((delivery) => delivery.eventType === type)
      .map((delivery) => delivery.endpointId)
      .sort();
  assert.deepEqual(byType('ecf.queued'), [active.id, older.id].sort());
  assert.deepEqual(byType('document.state_changed'), [active.id, paused.id, older.id].sort());
  // An environment-wide event reaches every tenant's subscribed endpoint of that environment.
  assert.deepEqual(byType('taxauth.service_degraded'), [active.id, otherTenant.id].sort());
  for (const never of [retired.id, otherEnvironment.id, partner.id])
    assert.ok(!deliveries.some((delivery) => delivery.endpointId === never));

  // Jobs for the active endpoints' deliveries only; the paused one waits queued.
  const jobIds = enqueue.jobs.map((job) => (job.payload as { deliveryId: string }).deliveryId).sort();
  assert.deepEqual(
    jobIds,
    deliveries
      .filter((delivery) => delivery.endpointId !== paused.id)
      .map((delivery) => delivery.id)
      .sort(),
  );
  assert.ok(enqueue.jobs.every((job) => job.name === 'webhook.deliver'));
  assert.ok(deliveries.every((delivery) => delivery.status === 'queued' && delivery.attempts === 0));

  // Bodies: the direct payload, with each endpoint's own tenant.
  for (const delivery of deliveries) {
    const payload = ZDirectWebhookPayload.parse(JSON.parse(Buffer.from(delivery.body).toString('utf8')));
    assert.equal(payload.id, delivery.eventId);
    assert.equal(payload.type, delivery.eventType);
    assert.equal(payload.tenantId, delivery.tenantId);
    assert.equal(payload.createdAt, delivery.event.createdAt.toISOString());
  }
  const stateChanged = deliveries.find((delivery) => delivery.eventType === 'document.state_changed')!;
  const payload = ZDirectWebhookPayload.parse(JSON.parse(Buffer.from(stateChanged.body).toString('utf8')));
  assert.deepEqual(payload.document, {
    id: document.id,
    type: 'E31',
    encf: 'E310000000101',
    status: 'signed',
    trackId: null,
  });
  assert.equal(payload.data.payload.fromStatus, 'queued_for_signing');
  const degraded = deliveries.find((delivery) => delivery.endpointId === otherTenant.id)!;
  const degradedPayload = ZDirectWebhookPayload.parse(
    JSON.parse(Buffer.from(degraded.body).toString('utf8')),
  );
  assert.equal(degradedPayload.tenantId, other.id);
  assert.equal(degradedPayload.document, null);
  assert.equal(degradedPayload.data.severity, 'warning');

  // Every event is marked; a second run finds nothing and adds nothing.
  assert.equal(await context.database.webhookEvent.count({ where: { fannedOutAt: null } }), 0);
  const again = await fanOutWebhookEvents({ database: context.database, enqueue, now });
  assert.deepEqual(again, { events: 0, deliveries: 0 });
  assert.equal(await context.database.webhookDelivery.count(), deliveries.length);
});

test('an event fanned out twice (a crash between runs) still gets one delivery per endpoint', async () => {
  const tenant = await seedTenant(context.database, { rnc: '102000003' });
  await insertTestEndpoint(context.database, { tenantId: tenant.id, eventTypes: ['ecf.queued'] });
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf: 'E310000000102' });
  const enqueue = recordingEnqueue();
  await fanOutWebhookEvents({ database: context.database, enqueue, now });
  await context.database.webhookEvent.updateMany({
    where: { documentId: document.id },
    data: { fannedOutAt: null },
  });
  const second = await fanOutWebhookEvents({ database: context.database, enqueue, now });
  assert.deepEqual(second, { events: 1, deliveries: 0 });
  assert.equal(
    await context.database.webhookDelivery.count({ where: { event: { documentId: document.id } } }),
    1,
  );
  assert.equal(enqueue.jobs.length, 1);
});
