// The webhook engine end to end in a real worker (real pg-boss, real LISTEN): a document change
// commits its outbox row, the worker fans it out at once and its webhook.deliver job POSTs the
// signed body to a real local receiver (node:http on 127.0.0.1, WEBHOOKS_ALLOW_PRIVATE_TARGETS on).
// The daily certificate scan runs as its job on the worker's clock (moved past a certificate's end).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import {
  createCertificateKeyring,
  createPartner,
  createPartnerWebhookEndpoint,
  generateWebhookSecret,
  sealWebhookSecret,
  storeTenantCertificate,
  ZDirectWebhookPayload,
} from '@ecf/services';
import { readEnv } from './env.ts';
import { createWorker } from './worker.ts';

type TReceived = { headers: IncomingHttpHeaders; body: Buffer; at: number };

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let worker: ReturnType<typeof createWorker>;
let server: Server;
let receiverUrl: string;
const received: TReceived[] = [];
const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
/** How far ahead of the wall clock the worker's clock (`TJobContext.now`) runs; 0 but in one test. */
let clockShiftMs = 0;

before(async () => {
  context = await openTestDatabase();
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks), at: Date.now() });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    certificateKeyring: keyring,
    concurrency: 4,
    now: () => new Date(Date.now() + clockShiftMs),
    webhooks: {
      allowPrivateTargets: readEnv({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    },
  });
  await worker.start();
});
after(async () => {
  await worker.stop();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await context.close();
});

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function endpointFor(tenantId: string, eventTypes: string[]) {
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const sealed = sealWebhookSecret({ keyring, endpointId: id, secret });
  await context.database.webhookEndpoint.create({
    data: {
      id,
      tenantId,
      environment: 'TesteCF',
      name: 'local receiver',
      url: receiverUrl,
      eventTypes,
      secretKeyId: sealed.keyId,
      encryptedSecret: sealed.sealed,
    },
  });
  return { id, secret };
}

test('WEBHOOKS_ALLOW_PRIVATE_TARGETS is off unless set to true', () => {
  assert.equal(readEnv({}).WEBHOOKS_ALLOW_PRIVATE_TARGETS, false);
  assert.equal(readEnv({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOKS_ALLOW_PRIVATE_TARGETS, true);
  assert.throws(() => readEnv({ WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'yes' }), /WEBHOOKS_ALLOW_PRIVATE_TARGETS/);
});

test('a document created and changed: its events reach the receiver, signed, from the worker', async () => {
  const tenant = await seedTenant(context.database, { rnc: '104000001' });
  const endpoint = await endpointFor(tenant.id, ['ecf.queued', 'document.state_changed']);
  const started = Date.now();
  const document = await seedDocument(context.database, { tenantId: tenant.id, encf: 'E310000000201' });
  await sqlPoolOf(context.database).query(`UPDATE documents SET status = 'signed' WHERE id = $1`, [
    document.id,
  ]);

  await until('two deliveries', () => (received.length >= 2 ? true : undefined));
  const deliveries = await until('both deliveries succeeded', async () => {
    const rows = await context.database.webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      include: { attemptLog: true, event: true },
      orderBy: { event: { sequence: 'asc' } },
    });
    return rows.length === 2 && rows.every((row) => row.status === 'succeeded') ? rows : undefined;
  });
  assert.deepEqual(
    deliveries.map((delivery) => delivery.eventType),
    ['ecf.queued', 'document.state_changed'],
  );
  for (const delivery of deliveries) {
    const request = received.find((entry) => entry.headers['svc-event-id'] === delivery.eventId);
    assert.ok(request, 'the receiver got the event');
    assert.deepEqual(request.body, Buffer.from(delivery.body));
    const header = String(request.headers['svc-signature']);
    const t = /t=(\d+)/.exec(header)![1];
    const expected = createHmac('sha256', endpoint.secret).update(`${t}.`).update(request.body).digest('hex');
    assert.ok(header.includes(`v1=${expected}`), 'signed with the endpoint secret');
    const payload = ZDirectWebhookPayload.parse(JSON.parse(request.body.toString('utf8')));
    assert.equal(payload.document?.id, document.id);
    assert.equal(delivery.attempts, 1);
    assert.deepEqual(
      delivery.attemptLog.map((attempt) => [attempt.attempt, attempt.outcome, attempt.responseStatus]),
      [[1, 'succeeded', 200]],
    );
  }
  // From commit to the receiver within the latency goal (NOTIFY, fan-out, a 0.5 s poll at most).
  assert.ok(received[received.length - 1]!.at - started < 3000);
});

test('an outage episode reaches the subscribed endpoint once when it opens and once when it closes', async () => {
  const tenant = await seedTenant(context.database, { rnc: '104000002' });
  const endpoint = await endpointFor(tenant.id, ['taxauth.service_degraded', 'taxauth.service_restored']);
  const pool = sqlPoolOf(context.database);
  await pool.query(
    `INSERT INTO taxauth_episodes (id, environment, service, code, degraded_since) VALUES ($1, 'TesteCF', 'recepcion', 'TAXAUTH_UNAVAILABLE', now())`,
    [randomUUID()],
  );
  await pool.query(
    `UPDATE taxauth_episodes SET restored_at = now() WHERE environment = 'TesteCF' AND restored_at IS NULL`,
  );
  const deliveries = await until('the two episode deliveries', async () => {
    const rows = await context.database.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    return rows.length === 2 && rows.every((row) => row.status === 'succeeded') ? rows : undefined;
  });
  assert.deepEqual(deliveries.map((delivery) => delivery.eventType).sort(), [
    'taxauth.service_degraded',
    'taxauth.service_restored',
  ]);
});

test("certificate.expired: the daily scan job on a clock past the end of a Partner account's certificate announces it once per environment, however often it runs; a direct account's certificate is not", async () => {
  const partner = await createPartner({
    database: context.database,
    input: { name: `Partner ${randomUUID().slice(0, 8)}`, paidStatus: 'paid' },
  });
  const account = await seedTenant(context.database, { rnc: '104000031' });
  await context.database.tenant.update({
    where: { id: account.id },
    data: { partnerId: partner.id, externalTenantId: `ext-${randomUUID()}` },
  });
  const direct = await seedTenant(context.database, { rnc: '104000032' });
  const endpoint = await createPartnerWebhookEndpoint({
    database: context.database,
    partnerId: partner.id,
    name: 'ERP',
    url: `${receiverUrl}/certificates`,
    eventTypes: ['certificate.expired'],
    keyring,
    allowPrivateTargets: true,
  });
  const validTo = new Date(Date.now() + 10 * 86_400_000);
  const installed = [];
  for (const tenant of [account, direct]) {
    const generated = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante', validTo });
    installed.push(
      await storeTenantCertificate({
        database: context.database,
        keyring,
        tenantId: tenant.id,
        p12: generated.p12,
        password: generated.password,
      }),
    );
  }
  const certificate = installed[0];
  assert.ok(certificate);

  const scan = async () => {
    const id = await worker.boss.send('maintenance.certificate-expiry', {});
    assert.ok(id);
    const job = await until('the scan job', async () => {
      const current = await worker.boss.getJobById('maintenance.certificate-expiry', id);
      return current && ['completed', 'failed'].includes(current.state) ? current : undefined;
    });
    assert.equal(job.state, 'completed', JSON.stringify(job.output));
  };
  try {
    // The day after the certificate's end, and the day after that: the job runs twice.
    clockShiftMs = 11 * 86_400_000;
    await scan();
    clockShiftMs = 12 * 86_400_000;
    await scan();
  } finally {
    clockShiftMs = 0;
  }
  const events = await context.database.webhookEvent.findMany({
    where: { type: 'certificate.expired', tenantId: { in: [account.id, direct.id] } },
  });
  assert.deepEqual(events.map((event) => [event.tenantId, event.environment]).sort(), [
    [account.id, 'CerteCF'],
    [account.id, 'TesteCF'],
    [account.id, 'eCF'],
  ]);
  const stored = await context.database.tenantCertificate.findMany({
    where: { tenantId: { in: [account.id, direct.id] } },
  });
  assert.ok(
    stored.find((row) => row.tenantId === account.id)?.expiredNotifiedAt,
    'the certificate is marked announced',
  );
  assert.equal(stored.find((row) => row.tenantId === direct.id)?.expiredNotifiedAt, null);

  const deliveries = await until('three deliveries succeeded', async () => {
    const rows = await context.database.webhookDelivery.findMany({
      where: { endpointId: endpoint.endpoint.id },
    });
    return rows.length === 3 && rows.every((row) => row.status === 'succeeded') ? rows : undefined;
  });
  assert.equal(new Set(deliveries.map((delivery) => delivery.eventId)).size, 3);
  const bodies = received
    .filter((request) => request.headers['svc-event-type'] === 'certificate.expired')
    .map(
      (request) =>
        JSON.parse(request.body.toString('utf8')) as {
          schemaVersion: string;
          environment: string;
          fiscalAccountId: string;
          externalTenantId: string;
          resource: { kind: string; id: string; state: string };
        },
    );
  // One per environment (the Partner payload names them its own way).
  assert.equal(bodies.length, 3, JSON.stringify(bodies));
  assert.equal(new Set(bodies.map((body) => body.environment)).size, 3);
  for (const body of bodies) {
    assert.equal(body.schemaVersion, 'partner.webhook.v1');
    assert.equal(body.fiscalAccountId, account.id);
    assert.deepEqual(body.resource, { kind: 'certificate', id: certificate.id, state: 'expired' });
  }
});
