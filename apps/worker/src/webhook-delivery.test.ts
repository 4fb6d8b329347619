// The webhook engine end to end in a real worker (real pg-boss, real LISTEN): a document change
// commits its outbox row, the worker fans it out at once and its webhook.deliver job POSTs the
// signed body to a real local receiver (node:http on 127.0.0.1, WEBHOOKS_ALLOW_PRIVATE_TARGETS on).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import {
  createCertificateKeyring,
  generateWebhookSecret,
  sealWebhookSecret,
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
