// The overview's "Primeros pasos" against the real database: a new account has every step
// pending; each step turns done from its own facts (and only the session tenant's, only usable
// ones: an expired certificate, a revoked key or a retired endpoint do not count); an accountant
// never gets the steps of pages they may not read; support's read is audited.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedDocument } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import {
  createWebhookEndpoint,
  findAuditEntries,
  sendTestWebhook,
  storeTenantCertificate,
} from '@ecf/services';
import { seedOpenCase } from '../../../test/certification-seed.ts';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  TEST_CERTIFICATE_KEYRING,
  type TPortalHarness,
  type TWorld,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

let sequence = 0;
const encf = () => `E31${String((Date.now() % 100_000_000) * 10 + (sequence += 1)).padStart(10, '0')}`;

/** The owner's checklist as `key: state` (the certification step and production state appended). */
async function checklistOf(world: TWorld, role: 'owner' | 'accountant' | 'support' = 'owner') {
  const answer = await callerOf(harness, world.sessions[role]).overview.firstSteps();
  return {
    complete: answer.complete,
    steps: answer.steps.map((step) =>
      step.key === 'certification'
        ? `${step.key}: ${step.state} ${step.step}/${step.steps} ${step.stepTitle}`
        : step.key === 'production'
          ? `${step.key}: ${step.state} ${step.productionState}`
          : `${step.key}: ${step.state}`,
    ),
  };
}

async function installCertificate(world: TWorld, tenantId = world.tenant.id) {
  const generated = createTestCertificate({ rnc: world.tenant.rnc, commonName: 'Firmante Primeros Pasos' });
  await storeTenantCertificate({
    database: harness.database,
    tenantId,
    p12: generated.p12,
    password: generated.password,
    keyring: TEST_CERTIFICATE_KEYRING,
  });
}

async function createEndpoint(world: TWorld, tenantId = world.tenant.id): Promise<string> {
  const { endpoint } = await createWebhookEndpoint({
    database: harness.database,
    tenantId,
    environment: 'TesteCF',
    name: 'Receptor',
    url: 'http://127.0.0.1:9/hook',
    eventTypes: 'all',
    keyring: TEST_CERTIFICATE_KEYRING,
    allowPrivateTargets: true,
  });
  return endpoint.id;
}

async function deliverSuccessfully(world: TWorld, endpointId: string, tenantId = world.tenant.id) {
  const { deliveryId } = await sendTestWebhook({
    database: harness.database,
    tenantId,
    endpointId,
    enqueue: harness.webhooks.enqueue,
  });
  await harness.database.webhookDelivery.update({
    where: { id: deliveryId },
    data: { status: 'succeeded', attempts: 1, completedAt: new Date() },
  });
}

test('a new account has every step pending; each turns done from its own facts, then the list is complete', async () => {
  const world = await seedWorld(harness.database);
  assert.deepEqual(await checklistOf(world), {
    complete: false,
    steps: [
      'certificate: pending',
      'apiKey: pending',
      'testDocument: pending',
      'webhook: pending',
      'certification: pending 1/15 Registrado',
      'production: pending not_requested',
    ],
  });

  // Another account's progress never counts for this one.
  await installCertificate(world, world.otherTenant.id);
  await seedApiKey(harness.database, { tenantId: world.otherTenant.id, environment: 'TesteCF' });
  await seedDocument(harness.database, { tenantId: world.otherTenant.id, encf: encf(), status: 'accepted' });
  await deliverSuccessfully(world, await createEndpoint(world, world.otherTenant.id), world.otherTenant.id);
  assert.ok((await checklistOf(world)).steps.slice(0, 4).every((step) => step.endsWith(': pending')));

  // Keys, documents and endpoints of another environment are not the TesteCF steps (webhooks: any).
  await seedApiKey(harness.database, { tenantId: world.tenant.id, environment: 'CerteCF' });
  await seedDocument(harness.database, {
    tenantId: world.tenant.id,
    environment: 'CerteCF',
    encf: encf(),
    status: 'accepted',
  });
  assert.deepEqual((await checklistOf(world)).steps.slice(1, 3), [
    'apiKey: pending',
    'testDocument: pending',
  ]);

  await installCertificate(world);
  await seedApiKey(harness.database, { tenantId: world.tenant.id, environment: 'TesteCF' });
  const sent = await seedDocument(harness.database, {
    tenantId: world.tenant.id,
    encf: encf(),
    status: 'sent',
  });
  const endpointId = await createEndpoint(world);
  await seedOpenCase(harness.database, world.tenant.id, ['registered', 'data_tests_ecf']);
  await harness.database.certificationCase.updateMany({
    where: { tenantId: world.tenant.id },
    data: { step: 'data_tests_commercial_approval' },
  });
  assert.deepEqual((await checklistOf(world)).steps, [
    'certificate: done',
    'apiKey: done',
    'testDocument: in_progress',
    'webhook: in_progress',
    'certification: in_progress 3/15 Pruebas de datos aprobación comercial',
    'production: pending not_requested',
  ]);

  await harness.database.document.update({
    where: { id: sent.id },
    data: { status: 'accepted_conditional' },
  });
  await deliverSuccessfully(world, endpointId);
  await harness.database.tenant.update({
    where: { id: world.tenant.id },
    data: { productionState: 'pending' },
  });
  const progressed = await checklistOf(world);
  assert.deepEqual(progressed.steps.slice(2), [
    'testDocument: done',
    'webhook: done',
    'certification: in_progress 3/15 Pruebas de datos aprobación comercial',
    'production: in_progress pending',
  ]);
  assert.equal(progressed.complete, false);

  await harness.database.certificationCase.updateMany({
    where: { tenantId: world.tenant.id },
    data: { state: 'approved', step: 'finished', approvedAt: new Date() },
  });
  await harness.database.tenant.update({
    where: { id: world.tenant.id },
    data: { productionState: 'active' },
  });
  assert.deepEqual(await checklistOf(world), {
    complete: true,
    steps: [
      'certificate: done',
      'apiKey: done',
      'testDocument: done',
      'webhook: done',
      'certification: done 15/15 Finalizado',
      'production: done active',
    ],
  });
});

test('only usable things count: an expired certificate, a revoked key, a retired endpoint', async () => {
  const world = await seedWorld(harness.database);
  await installCertificate(world);
  await harness.database.tenantCertificate.updateMany({
    where: { tenantId: world.tenant.id },
    data: { validTo: new Date(Date.now() - 60_000) },
  });
  const { record } = await seedApiKey(harness.database, {
    tenantId: world.tenant.id,
    environment: 'TesteCF',
  });
  await harness.database.apiKey.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
  const endpointId = await createEndpoint(world);
  await deliverSuccessfully(world, endpointId);
  await harness.database.webhookEndpoint.update({
    where: { id: endpointId },
    data: { status: 'retired', retiredAt: new Date() },
  });
  // Production active without a case here (certified before): certification counts as done.
  await harness.database.tenant.update({
    where: { id: world.tenant.id },
    data: { productionState: 'active' },
  });
  assert.deepEqual((await checklistOf(world)).steps, [
    'certificate: pending',
    'apiKey: pending',
    'testDocument: pending',
    'webhook: pending',
    'certification: done 15/15 Finalizado',
    'production: done active',
  ]);
});

test('an accountant never gets the key and webhook steps; support gets all of them, audited', async () => {
  const world = await seedWorld(harness.database);
  await seedApiKey(harness.database, { tenantId: world.tenant.id, environment: 'TesteCF' });
  const accountant = await checklistOf(world, 'accountant');
  assert.deepEqual(accountant.steps, [
    'certificate: pending',
    'testDocument: pending',
    'certification: pending 1/15 Registrado',
    'production: pending not_requested',
  ]);
  assert.ok(!JSON.stringify(accountant).includes('apiKey'));

  const support = await checklistOf(world, 'support');
  assert.equal(support.steps[1], 'apiKey: done');
  assert.equal(support.steps.length, 6);
  const { items } = await findAuditEntries({ database: harness.database, tenantId: world.tenant.id });
  assert.ok(
    items.some(
      (entry) =>
        entry.action === 'support.viewed' &&
        JSON.stringify(entry).includes('overview.firstSteps') &&
        entry.actor?.id === world.users.support.id,
    ),
  );
});
