// The Partner portal's procedures (issue 20): the client-safe copies match the services' tables,
// a Partner's people see and change only their Partner's data, and tenant members none of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedTenant } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import {
  checkCertificationEmbedToken,
  createPartner,
  createPartnerKey,
  createPartnerWebhookEndpoint,
  sendPartnerTestWebhook,
  storeTenantCertificate,
} from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  TEST_CERTIFICATE_KEYRING,
  TEST_EMBED_SECRET,
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

test("a Partner's people work on their own Partner only; the key is shown once; billing by month", async () => {
  const world = await seedWorld(harness.database);
  const admin = callerOf(harness, world.sessions.partnerAdmin);
  const created = await admin.partner.createKey({ name: 'ERP', profile: 'runtime' });
  assert.match(created.key, /^ecfp_/);
  const { keys } = await admin.partner.keys();
  assert.equal(keys.length, 1);
  assert.ok(!JSON.stringify(keys).includes(created.key), 'never the key again');
  // Another Partner's key: not found, exactly like none.
  const other = await createPartner({ database: harness.database, input: { name: 'Otro' } });
  const foreign = await createPartnerKey({ database: harness.database, partnerId: other.id, name: 'x' });
  const refused = await trpcFailureOf(admin.partner.revokeKey({ keyId: foreign.row.id }));
  assert.equal(refused.code, 'NOT_FOUND');
  // Origins: exact HTTPS only.
  const badOrigin = await trpcFailureOf(admin.partner.addOrigin({ origin: 'http://erp.example.com' }));
  assert.equal(badOrigin.code, 'BAD_REQUEST');
  const wildcard = await trpcFailureOf(admin.partner.addOrigin({ origin: 'https://*.example.com' }));
  assert.equal(wildcard.code, 'BAD_REQUEST');
  assert.equal((wildcard.cause as { code?: string } | undefined)?.code, 'INVALID_BROWSER_ORIGIN');
  await admin.partner.addOrigin({ origin: 'https://erp.example.com' });
  assert.deepEqual(
    (await admin.partner.origins()).origins.map((row) => row.origin),
    ['https://erp.example.com'],
  );
  // The developer may not register origins nor read billing (the table says so).
  const developer = callerOf(harness, world.sessions.partnerDeveloper);
  assert.equal(
    (await trpcFailureOf(developer.partner.addOrigin({ origin: 'https://x.example.com' }))).code,
    'FORBIDDEN',
  );
  const usage = await admin.partner.billing({ month: '2020-01' });
  assert.equal(usage.accepted, 0);
  // A tenant owner is no Partner's person.
  assert.equal(
    (await trpcFailureOf(callerOf(harness, world.sessions.owner).partner.accounts())).code,
    'FORBIDDEN',
  );
  // The session shows the Partner pages to its people.
  const current = await admin.session.current();
  assert.ok(current.capabilities.includes('partner.billing.read'));
});

/** An account of `partnerId` (a tenant linked to it). */
async function linkedAccount(partnerId: string): Promise<{ id: string; rnc: string }> {
  const tenant = await seedTenant(harness.database, { tradeName: 'Cliente del Partner' });
  await harness.database.tenant.update({
    where: { id: tenant.id },
    data: { partnerId, externalTenantId: `erp-${randomUUID()}` },
  });
  return { id: tenant.id, rnc: tenant.rnc };
}

test("an account's detail: certificate expiry, certification step, the link and the upload session", async () => {
  const world = await seedWorld(harness.database);
  const admin = callerOf(harness, world.sessions.partnerAdmin);
  const { id: accountId, rnc } = await linkedAccount(world.partner.id);

  const fresh = await admin.partner.account({ accountId });
  assert.equal(fresh.account.id, accountId);
  assert.equal(fresh.certificate, null);
  assert.equal(fresh.certification.stepNumber, 1);
  assert.equal(fresh.certification.stepTitle, 'Registrado');
  assert.equal(fresh.certification.state, 'not_started');
  assert.doesNotMatch(fresh.certification.nextAction ?? '', /aquí/);

  // A certificate valid ~a year: its days left are counted from now.
  const generated = createTestCertificate({ rnc, commonName: 'Firmante Cliente' });
  await storeTenantCertificate({
    database: harness.database,
    tenantId: accountId,
    p12: generated.p12,
    password: generated.password,
    keyring: TEST_CERTIFICATE_KEYRING,
  });
  const withCertificate = await admin.partner.account({ accountId });
  assert.ok(withCertificate.certificate);
  const expected = Math.floor((withCertificate.certificate.validTo.getTime() - Date.now()) / 86_400_000);
  assert.ok(Math.abs(withCertificate.certificate.daysLeft - expected) <= 1);
  assert.ok(withCertificate.certificate.subject.length > 0);

  // Links need a registered origin: unknown is 422, not an origin is 400 (their codes for the form).
  const unknown = await trpcFailureOf(
    admin.partner.createCertificationLink({ accountId, browserOrigin: 'https://otro.example.com' }),
  );
  assert.equal((unknown.cause as { code?: string } | undefined)?.code, 'BROWSER_ORIGIN_NOT_ALLOWED');
  const malformed = await trpcFailureOf(
    admin.partner.createUploadSession({ accountId, browserOrigin: 'erp.example.com/x' }),
  );
  assert.equal((malformed.cause as { code?: string } | undefined)?.code, 'INVALID_BROWSER_ORIGIN');
  await admin.partner.addOrigin({ origin: 'https://erp.example.com' });

  const link = await admin.partner.createCertificationLink({
    accountId,
    browserOrigin: 'https://erp.example.com',
  });
  const token = new URL(link.url).pathname.replace('/embed/certification/', '');
  assert.equal(new URL(link.url).origin, 'http://127.0.0.1:3001');
  const claims = checkCertificationEmbedToken({ token, now: new Date(), secret: TEST_EMBED_SECRET });
  assert.equal(claims.tenantId, accountId);
  assert.equal(claims.origin, 'https://erp.example.com');
  assert.ok(Date.parse(link.expiresAt) - Date.now() > 14 * 60_000);

  const upload = await admin.partner.createUploadSession({
    accountId,
    browserOrigin: 'https://erp.example.com',
  });
  assert.match(upload.uploadToken, /^ecfu_/);
  assert.equal(
    upload.uploadUrl,
    `http://127.0.0.1:3000/partner/v1/certificate-upload-sessions/${upload.uploadId}`,
  );
  assert.equal(upload.maxAttempts, 5);
  const stored = await harness.database.certificateUploadSession.findUniqueOrThrow({
    where: { id: upload.uploadId },
  });
  assert.equal(stored.tenantId, accountId);
  assert.ok(!JSON.stringify(stored).includes(upload.uploadToken), 'only the token hash is kept');

  // Another Partner's account: not found, exactly like none, for reading and for sessions.
  const other = await createPartner({ database: harness.database, input: { name: 'Otro' } });
  const foreign = (await linkedAccount(other.id)).id;
  // One call at a time: a list of started promises would leave the later ones rejecting unheard
  // while the first is awaited (node:test fails the test on that unhandled rejection).
  for (const call of [
    () => admin.partner.account({ accountId: foreign }),
    () =>
      admin.partner.createCertificationLink({ accountId: foreign, browserOrigin: 'https://erp.example.com' }),
    () => admin.partner.createUploadSession({ accountId: foreign, browserOrigin: 'https://erp.example.com' }),
  ])
    assert.equal((await trpcFailureOf(call())).code, 'NOT_FOUND');
});

test("a delivery's detail lists its attempts; another Partner's delivery is not found", async () => {
  const world = await seedWorld(harness.database);
  const admin = callerOf(harness, world.sessions.partnerAdmin);
  const { endpoint } = await createPartnerWebhookEndpoint({
    database: harness.database,
    partnerId: world.partner.id,
    name: 'ERP',
    url: `http://127.0.0.1:9/partner-${randomUUID()}`,
    keyring: TEST_CERTIFICATE_KEYRING,
    allowPrivateTargets: true,
  });
  const { deliveryId } = await sendPartnerTestWebhook({
    database: harness.database,
    partnerId: world.partner.id,
    endpointId: endpoint.id,
    account: { fiscalAccountId: world.tenant.id, externalTenantId: 'matriz' },
    environment: 'TesteCF',
    enqueue: harness.webhooks.enqueue,
  });
  await harness.database.webhookDeliveryAttempt.createMany({
    data: [
      {
        deliveryId,
        attempt: 1,
        startedAt: new Date('2026-11-27T10:00:00Z'),
        durationMs: 120,
        outcome: 'retry',
        responseStatus: 503,
        responseExcerpt: 'Servicio no disponible',
        error: null,
      },
      {
        deliveryId,
        attempt: 2,
        startedAt: new Date('2026-11-27T10:01:00Z'),
        durationMs: 10_000,
        outcome: 'retry',
        responseStatus: null,
        responseExcerpt: null,
        error: 'timeout',
      },
    ],
  });
  const { delivery, endpoint: shown } = await admin.partner.delivery({ deliveryId });
  assert.equal(delivery.id, deliveryId);
  assert.equal(delivery.eventType, 'webhook.test');
  assert.deepEqual(
    delivery.attemptLog.map((attempt) => [attempt.attempt, attempt.responseStatus, attempt.error]),
    [
      [1, 503, null],
      [2, null, 'timeout'],
    ],
  );
  assert.equal(delivery.attemptLog[0]?.responseExcerpt, 'Servicio no disponible');
  assert.equal(shown?.name, 'ERP');

  const other = await seedWorld(harness.database);
  const stranger = callerOf(harness, other.sessions.partnerAdmin);
  assert.equal((await trpcFailureOf(stranger.partner.delivery({ deliveryId }))).code, 'NOT_FOUND');
});
