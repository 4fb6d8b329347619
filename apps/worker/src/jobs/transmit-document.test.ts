import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { pino } from 'pino';
import { seedTenant } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate } from '@ecf/fiscal-core';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { createTaxauthClient, type TTaxauthClient } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { createWorker } from '../worker.ts';

const XSD_DIRECTORY = new URL('../../../../../shared/taxauth/xsd/', import.meta.url);

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let simulatorDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let worker: ReturnType<typeof createWorker>;
let tenant: { id: string; rnc: string };
const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });

before(async () => {
  context = await openTestDatabase();
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({ databaseUrl: simulatorDatabase.url, xsdDirectory: XSD_DIRECTORY, logLevel: 'silent', processingDelayMs: 300, port: 0 });
  const clients = new Map<string, TTaxauthClient>();
  worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    certificateKeyring: keyring,
    taxauthClientFor: (environment) => {
      const client = clients.get(environment) ?? createTaxauthClient({ environment, baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl }, timeoutMs: 2000 });
      clients.set(environment, client);
      return client;
    },
  });
  await worker.start();
  tenant = await seedTenant(context.database);
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante de prueba' });
  await storeTenantCertificate(context.database, { tenantId: tenant.id, p12: certificate.p12, password: certificate.password }, keyring);
});
after(async () => {
  await worker.stop();
  await simulator.close();
  await simulatorDatabase.drop();
  await context.close();
});

/** A simplified E31 stored as the API stores it (the body text), queued for signing. */
async function seedQueued(encf: string) {
  const body = {
    type: 'E31',
    encf,
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-04-01T10:15:00-04:00',
    issuer: { rnc: tenant.rnc, legalName: 'Distribuidora Caribe Digital SRL', address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo' },
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
  return context.database.document.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      type: 31,
      encf,
      format: 'simplified',
      issueDate: new Date('2026-04-01'),
      totalAmount: '5310.00',
      submittedPayload: JSON.stringify(body),
      submittedAt: new Date('2026-04-01T14:15:00Z'),
    },
  });
}

async function waitForStatus(documentId: string, statuses: string[], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const document = await context.database.document.findUniqueOrThrow({ where: { id: documentId } });
    if (statuses.includes(document.status)) return document;
    if (Date.now() > deadline) throw new Error(`document still ${document.status} (lastError ${JSON.stringify(document.lastError)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('sign → transmit → poll through the worker: accepted, with every step in the event log', async () => {
  const document = await seedQueued(`E31${String(randomInt(1, 1_000_000_000)).padStart(10, '0')}`);
  // Only the signing job is sent: signing enqueues document.transmit in its own transaction.
  await worker.boss.send('document.sign', { documentId: document.id });
  const final = await waitForStatus(document.id, ['accepted', 'accepted_conditional', 'rejected', 'transmission_failed']);
  assert.equal(final.status, 'accepted', JSON.stringify({ lastError: final.lastError, messages: final.taxauthMessages }));
  assert.ok(final.trackId);
  assert.equal(final.lastError, null);
  const events = await context.database.documentEvent.findMany({ where: { documentId: document.id }, orderBy: { id: 'asc' } });
  assert.deepEqual(
    events.map((event) => event.type),
    ['signed', 'transmission_attempt', 'transmission_outcome', 'sent', 'accepted'],
  );
});

test('a transient failure through the worker: contingency and a retry job scheduled on the contingency schedule', async () => {
  const response = await fetch(`${simulator.baseUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'testecf', service: 'recepcion', fault: 'http_503', count: 1 }),
  });
  assert.equal(response.status, 201);
  const document = await seedQueued(`E31${String(randomInt(1, 1_000_000_000)).padStart(10, '0')}`);
  const before = Date.now();
  await worker.boss.send('document.sign', { documentId: document.id });
  const contingency = await waitForStatus(document.id, ['contingency']);
  assert.equal((contingency.lastError as { code: string }).code, 'TAXAUTH_UNAVAILABLE');
  // The retry is a created job about five minutes ahead.
  let scheduled: Array<{ start_after: Date }> = [];
  for (let tries = 0; tries < 50 && scheduled.length === 0; tries += 1) {
    scheduled = await context.database.$queryRawUnsafe<Array<{ start_after: Date }>>(
      `SELECT start_after FROM pgboss.job WHERE name = 'document.transmit' AND state = 'created' AND data->>'documentId' = $1`,
      document.id,
    );
    if (scheduled.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(scheduled.length, 1);
  const delaySeconds = ((scheduled[0]?.start_after.getTime() ?? 0) - before) / 1000;
  assert.ok(delaySeconds > 290 && delaySeconds < 320, `retry in ${delaySeconds} s`);
  const episodes = await context.database.taxauthEpisode.findMany({ where: { restoredAt: null } });
  assert.equal(episodes.length, 1);
});
