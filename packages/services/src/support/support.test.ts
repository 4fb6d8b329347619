import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedDocument, seedTenant, seedUser } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { acknowledgeOperatorNotification } from './acknowledge-operator-notification.ts';
import { findContingencyAcrossTenants } from './find-contingency-across-tenants.ts';
import { findOperatorNotifications } from './find-operator-notifications.ts';
import { findOutageEpisodes } from './find-outage-episodes.ts';
import { findUncertainDeliveries } from './find-uncertain-deliveries.ts';
import { getDocumentScope } from './get-document-scope.ts';
import { reconcileDeliveryForSupport } from './reconcile-delivery-for-support.ts';
import {
  BUYERS,
  openReceiverHarness,
  signedArecf,
  type TReceiverHarness,
} from '../../test/receiver-harness.ts';
import { newEncf } from '../../test/transmission-harness.ts';

let harness: TReceiverHarness;
before(async () => {
  harness = await openReceiverHarness();
});
after(async () => {
  await harness.close();
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

test("contingency across tenants: every tenant's documents, with tenant, environment and next attempt", async () => {
  const other = await seedTenant(harness.database, { tradeName: 'Otra Empresa' });
  const nextAttemptAt = '2026-04-01T12:10:00.000Z';
  const lastError = { code: 'TAXAUTH_UNAVAILABLE', message: 'no answer', nextAttemptAt, failures: 2 };
  const mine = await seedDocument(harness.database, {
    tenantId: harness.tenant.id,
    encf: newEncf('31'),
    status: 'contingency',
    contingencySince: new Date('2026-04-01T11:00:00Z'),
    lastError,
  });
  const theirs = await seedDocument(harness.database, {
    tenantId: other.id,
    encf: newEncf('32'),
    environment: 'CerteCF',
    status: 'contingency',
    contingencySince: new Date('2026-04-01T10:00:00Z'),
    lastError: { code: 'TAXAUTH_UNAVAILABLE', message: 'timeout' },
  });
  await seedDocument(harness.database, { tenantId: other.id, encf: newEncf('31'), status: 'accepted' });

  const all = await findContingencyAcrossTenants({ database: harness.database });
  const ids = all.map((item) => item.documentId);
  assert.ok(ids.indexOf(theirs.id) < ids.indexOf(mine.id), 'longest waiting first');
  const item = all.find((candidate) => candidate.documentId === mine.id);
  assert.deepEqual(item, {
    documentId: mine.id,
    encf: mine.encf,
    type: 'E31',
    status: 'contingency',
    since: '2026-04-01T11:00:00.000Z',
    attempts: 0,
    lastError: 'no answer',
    lastDeferredAt: null,
    environment: 'TesteCF',
    tenant: { id: harness.tenant.id, rnc: harness.tenant.rnc, name: 'Empresa de Prueba' },
    nextAttemptAt,
  });
  const otherItem = all.find((candidate) => candidate.documentId === theirs.id);
  assert.equal(otherItem?.tenant.name, 'Otra Empresa');
  assert.equal(otherItem?.environment, 'CerteCF');
  assert.equal(otherItem?.nextAttemptAt, null);
  assert.equal(all.length, 2, 'only documents in contingency');

  const certOnly = await findContingencyAcrossTenants({ database: harness.database, environment: 'CerteCF' });
  assert.deepEqual(
    certOnly.map((entry) => entry.documentId),
    [theirs.id],
  );
});

test('outage episodes: open ones and recent ones, newest first, with their duration', async () => {
  const now = new Date('2026-04-01T12:00:00Z');
  await harness.database.taxauthEpisode.createMany({
    data: [
      {
        environment: 'CerteCF',
        service: 'recepcion',
        code: 'TAXAUTH_UNAVAILABLE',
        degradedSince: new Date('2026-03-31T10:00:00Z'),
        restoredAt: new Date('2026-03-31T11:30:00Z'),
      },
      {
        environment: 'TesteCF',
        service: 'recepcionfc',
        code: 'TAXAUTH_TIMEOUT',
        degradedSince: new Date('2026-04-01T11:00:00Z'),
      },
      {
        environment: 'eCF',
        service: 'recepcion',
        code: 'TAXAUTH_UNAVAILABLE',
        degradedSince: new Date('2026-01-01T10:00:00Z'),
        restoredAt: new Date('2026-01-01T10:05:00Z'),
      },
    ],
  });
  const episodes = await findOutageEpisodes({ database: harness.database, now: () => now });
  assert.deepEqual(
    episodes.map((episode) => [episode.environment, episode.service, episode.code, episode.open]),
    [
      ['TesteCF', 'recepcionfc', 'TAXAUTH_TIMEOUT', true],
      ['CerteCF', 'recepcion', 'TAXAUTH_UNAVAILABLE', false],
    ],
  );
  assert.equal(episodes[0]?.restoredAt, null);
  assert.equal(episodes[0]?.durationSeconds, 3600);
  assert.equal(episodes[1]?.restoredAt, '2026-03-31T11:30:00.000Z');
  assert.equal(episodes[1]?.durationSeconds, 5400);
});

test('operator notifications of the last 72 hours; acknowledging is idempotent (the first one stays)', async () => {
  const now = new Date('2026-04-01T12:00:00Z');
  const support = await seedUser(harness.database, { passwordHash: 'x', isSupport: true, name: 'Soporte' });
  const otherSupport = await seedUser(harness.database, { passwordHash: 'x', isSupport: true });
  const document = await seedDocument(harness.database, {
    tenantId: harness.tenant.id,
    encf: newEncf('31'),
    status: 'contingency',
  });
  const recent = await harness.database.operatorNotification.create({
    data: {
      kind: 'contingency_72h',
      tenantId: harness.tenant.id,
      documentId: document.id,
      data: { message: 'e-CF sin llegar a la DGII por 72 horas' },
      createdAt: new Date('2026-04-01T08:00:00Z'),
    },
  });
  const operatorLevel = await harness.database.operatorNotification.create({
    data: { kind: 'other', data: {}, createdAt: new Date('2026-03-30T13:00:00Z') },
  });
  await harness.database.operatorNotification.create({
    data: { kind: 'old', data: {}, createdAt: new Date('2026-03-29T11:00:00Z') },
  });
  const listed = await findOperatorNotifications({ database: harness.database, now: () => now });
  assert.deepEqual(
    listed.map((notification) => notification.id),
    [recent.id, operatorLevel.id],
  );
  assert.equal(listed[0]?.message, 'e-CF sin llegar a la DGII por 72 horas');
  assert.deepEqual(listed[0]?.document, { id: document.id, encf: document.encf, environment: 'TesteCF' });
  assert.equal(listed[0]?.tenant?.id, harness.tenant.id);
  assert.equal(listed[1]?.tenant, null);
  assert.equal(listed[0]?.acknowledgedAt, null);

  const first = await acknowledgeOperatorNotification({
    database: harness.database,
    notificationId: recent.id,
    supportUserId: support.id,
    now: () => now,
  });
  assert.equal(first.acknowledged, true);
  assert.equal(first.notification.acknowledgedAt, now.toISOString());
  assert.deepEqual(first.notification.acknowledgedBy, {
    id: support.id,
    name: 'Soporte',
    email: support.email,
  });
  const again = await acknowledgeOperatorNotification({
    database: harness.database,
    notificationId: recent.id.toUpperCase(),
    supportUserId: otherSupport.id,
    now: () => new Date(now.getTime() + 60_000),
  });
  assert.equal(again.acknowledged, false);
  assert.deepEqual(again.notification, first.notification);

  for (const notificationId of ['00000000-0000-4000-8000-000000000000', 'not-an-id'])
    assert.equal(
      (
        await refusal(
          acknowledgeOperatorNotification({
            database: harness.database,
            notificationId,
            supportUserId: support.id,
          }),
        )
      ).code,
      'NOT_FOUND',
    );
});

test("uncertain deliveries of every tenant; reconciling checks the ARECF exactly like the API's use-case", async () => {
  const seeded = await harness.seedAcceptedDocument({ buyer: BUYERS.hang });
  await harness.database.receiverDelivery.update({
    where: { documentId: seeded.document.id },
    data: {
      status: 'uncertain',
      attempts: 6,
      targetUrl: harness.buyer.hostOf(BUYERS.hang),
      lastError: { message: 'no answer after 6 attempts' },
    },
  });
  const listed = await findUncertainDeliveries({ database: harness.database });
  const item = listed.find((delivery) => delivery.documentId === seeded.document.id);
  assert.ok(item);
  assert.equal(item.encf, seeded.document.encf);
  assert.equal(item.tenant.id, harness.tenant.id);
  assert.equal(item.buyerRnc, BUYERS.hang);
  assert.equal(item.attempts, 6);
  assert.equal(item.lastError, 'no answer after 6 attempts');

  const { xsdValidators } = harness;
  const reconcile = (arecfXml: string, documentId = seeded.document.id) =>
    reconcileDeliveryForSupport({
      database: harness.database,
      documentId,
      request: { outcome: 'sent', evidence: { arecfXml } },
      xsdValidators,
      now: harness.clock.now(),
    });
  // Another e-CF's ARECF: refused with the API's code and reason; nothing changes.
  const wrong = await refusal(
    reconcile(signedArecf({ rncEmisor: seeded.rncEmisor, rncComprador: BUYERS.hang, encf: newEncf('31') })),
  );
  assert.equal(wrong.code, 'RECEIVER_DELIVERY_EVIDENCE_INVALID');
  assert.equal(wrong.details['reason'], 'encf_mismatch');
  assert.equal((await refusal(reconcile('<no-es-un-arecf'))).details['reason'], 'not_xml');
  assert.equal((await harness.deliveryOf(seeded.document.id)).status, 'uncertain');

  const arecfXml = signedArecf({
    rncEmisor: seeded.rncEmisor,
    rncComprador: BUYERS.hang,
    encf: seeded.document.encf,
  });
  const done = await reconcile(arecfXml);
  assert.equal(done.tenantId, harness.tenant.id);
  assert.equal(done.reconciliation.receiverDelivery.status, 'sent');
  assert.ok(done.reconciliation.receiverDelivery.arecfArtifactId);
  assert.deepEqual(await reconcile(arecfXml), done, 'the same request again answers the same');
  assert.ok(
    !(await findUncertainDeliveries({ database: harness.database })).some(
      (delivery) => delivery.documentId === seeded.document.id,
    ),
  );
  assert.equal(
    (await refusal(reconcile(arecfXml, '00000000-0000-4000-8000-000000000000'))).code,
    'NOT_FOUND',
  );
});

test("a document's scope names its tenant and environment; unknown ids are NOT_FOUND", async () => {
  const document = await seedDocument(harness.database, {
    tenantId: harness.tenant.id,
    encf: newEncf('31'),
    environment: 'CerteCF',
  });
  assert.deepEqual(await getDocumentScope({ database: harness.database, documentId: document.id }), {
    documentId: document.id,
    tenantId: harness.tenant.id,
    environment: 'CerteCF',
  });
  for (const documentId of ['00000000-0000-4000-8000-000000000000', "1' OR '1'='1"])
    assert.equal(
      (await refusal(getDocumentScope({ database: harness.database, documentId }))).code,
      'NOT_FOUND',
    );
});
