// The fan-out: one delivery per subscribed ACTIVE or PAUSED endpoint whose stored eventTypes list
// the type (Versioning 4: a type an endpoint did not subscribe to is never sent to it), with the
// exact body stored; jobs only for active endpoints; a second run adds nothing.
import { randomUUID } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { changeDocument } from '../persistence/documents/change-document.ts';
import { closeEpisode, openEpisode } from '../persistence/transmission/episodes.ts';
import { insertTestEndpoint, recordingEnqueue } from '../../test/webhook-engine.ts';
import { DIRECT_WEBHOOK_EVENT_TYPES, expandWebhookEventTypes } from '@ecf/contract';
import { fanOutWebhookEvents, webhookEndpointsFor } from './fan-out-webhook-events.ts';
import { ZDirectWebhookPayload, ZPartnerWebhookPayload } from './payloads.ts';

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

test('outage episodes reach Partner endpoints once per affected account and environment; the restore goes to the same accounts', async () => {
  const partner = await context.database.partner.create({ data: { name: 'Outage Partner SRL' } });
  const quiet = await context.database.partner.create({ data: { name: 'No endpoint SRL' } });
  const account = async (rnc: string, owner: string, externalTenantId: string) => {
    const tenant = await seedTenant(context.database, { rnc });
    await context.database.tenant.update({
      where: { id: tenant.id },
      data: { partnerId: owner, externalTenantId },
    });
    return tenant;
  };
  const certify = (tenantId: string) =>
    context.database.tenantCertificate.create({
      data: {
        tenantId,
        subject: 'CN=Cliente',
        serialNumber: randomUUID(),
        validFrom: new Date('2026-01-01T00:00:00Z'),
        validTo: new Date('2027-01-01T00:00:00Z'),
        keyId: 'k',
        encryptedP12: Buffer.from('p12'),
        encryptedPassword: Buffer.from('pw'),
      },
    });
  // Affected: can send in the environment (an active certificate; in eCF, production active too).
  const live = await account('102000011', partner.id, 'erp-live');
  const testing = await account('102000012', partner.id, 'erp-testing');
  const bare = await account('102000013', partner.id, 'erp-bare');
  const unwatched = await account('102000014', quiet.id, 'erp-unwatched');
  await context.database.tenant.update({ where: { id: live.id }, data: { productionState: 'active' } });
  const testingCertificate = await certify(testing.id);
  await certify(live.id);
  await certify(unwatched.id);
  const endpoint = await context.database.webhookEndpoint.create({
    data: {
      id: randomUUID(),
      system: 'partner',
      partnerId: partner.id,
      environment: null,
      name: 'outages',
      url: 'https://partner.example.com/outages',
      eventTypes: ['taxauth.service_degraded', 'taxauth.service_restored'],
      secretKeyId: 'k',
      encryptedSecret: Buffer.from('x'),
    },
  });
  // A Partner-managed account may also have a portal endpoint: it gets the environment-wide row only.
  const portal = await insertTestEndpoint(context.database, {
    tenantId: live.id,
    environment: 'CerteCF',
    eventTypes: ['taxauth.service_degraded', 'taxauth.service_restored'],
  });
  const pool = sqlPoolOf(context.database);
  const enqueue = recordingEnqueue();
  await fanOutWebhookEvents({ database: context.database, enqueue, now });

  const opened = new Date('2026-11-25T09:00:00.000Z');
  await openEpisode(pool, {
    environment: 'CerteCF',
    service: 'recepcion',
    code: 'TAXAUTH_UNAVAILABLE',
    at: opened,
  });
  await openEpisode(pool, { environment: 'eCF', service: 'recepcion', code: 'TAXAUTH_TIMEOUT', at: opened });
  // Between the two: who is affected changes; the restore still goes to the accounts the degradation went to.
  await context.database.tenantCertificate.update({
    where: { id: testingCertificate.id },
    data: { active: false, revokedAt: new Date() },
  });
  await certify(bare.id);
  await fanOutWebhookEvents({ database: context.database, enqueue, now });
  for (const environment of ['CerteCF', 'eCF'] as const)
    await closeEpisode(pool, {
      environment,
      service: 'recepcion',
      at: new Date('2026-11-25T09:30:00.000Z'),
      requestedAt: new Date('2026-11-25T09:30:00.000Z'),
    });
  await fanOutWebhookEvents({ database: context.database, enqueue, now });

  const deliveries = await context.database.webhookDelivery.findMany({
    where: { endpointId: endpoint.id },
    include: { event: true },
    orderBy: { event: { sequence: 'asc' } },
  });
  const payloads = deliveries.map((delivery) =>
    ZPartnerWebhookPayload.parse(JSON.parse(Buffer.from(delivery.body).toString('utf8'))),
  );
  assert.deepEqual(
    payloads.map((payload) => [payload.type, payload.environment, payload.externalTenantId]).sort(),
    [
      ['taxauth.service_degraded', 'certecf', 'erp-live'],
      ['taxauth.service_degraded', 'certecf', 'erp-testing'],
      ['taxauth.service_degraded', 'production', 'erp-live'],
      ['taxauth.service_restored', 'certecf', 'erp-live'],
      ['taxauth.service_restored', 'certecf', 'erp-testing'],
      ['taxauth.service_restored', 'production', 'erp-live'],
    ].sort(),
  );
  const episodes = await context.database.taxauthEpisode.findMany({ where: { degradedSince: opened } });
  const episodeOf = (environment: string) => episodes.find((episode) => episode.environment === environment)!;
  for (const [index, payload] of payloads.entries()) {
    const account = payload.externalTenantId === 'erp-live' ? live : testing;
    const environment = payload.environment === 'production' ? 'eCF' : 'CerteCF';
    assert.equal(payload.fiscalAccountId, account.id);
    assert.equal(deliveries[index]!.tenantId, account.id);
    // An outage is no request's doing.
    assert.equal(payload.correlationId, null);
    const restored = payload.type === 'taxauth.service_restored';
    assert.deepEqual(payload.resource, {
      kind: 'taxauth_service',
      id: episodeOf(environment).id,
      state: restored ? 'restored' : 'degraded',
    });
    assert.equal(payload.data['taxauthEnvironment'], environment);
    assert.equal(payload.data['code'], environment === 'eCF' ? 'TAXAUTH_TIMEOUT' : 'TAXAUTH_UNAVAILABLE');
    assert.equal(payload.data['degradedSince'], restored ? opened.toISOString() : undefined);
  }
  // stateVersion orders each account's episode: the restore comes after its degradation.
  const versionOf = (type: string, account: string, environment: string) =>
    payloads.find(
      (payload) =>
        payload.type === type && payload.externalTenantId === account && payload.environment === environment,
    )!.stateVersion;
  assert.ok(
    versionOf('taxauth.service_restored', 'erp-live', 'certecf') >
      versionOf('taxauth.service_degraded', 'erp-live', 'certecf'),
  );
  // The portal endpoint of a Partner's account: once per episode (the environment-wide row), not per account row.
  const portalDeliveries = await context.database.webhookDelivery.findMany({
    where: { endpointId: portal.id },
    include: { event: true },
  });
  assert.deepEqual(portalDeliveries.map((delivery) => delivery.eventType).sort(), [
    'taxauth.service_degraded',
    'taxauth.service_restored',
  ]);
  assert.ok(portalDeliveries.every((delivery) => delivery.event.tenantId === null));
  // A Partner without endpoints: no rows for its accounts at all.
  assert.equal(
    await context.database.webhookEvent.count({
      where: { tenantId: unwatched.id, type: { startsWith: 'taxauth.' } },
    }),
    0,
  );
});
