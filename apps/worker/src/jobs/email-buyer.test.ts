import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { seedTenant } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, type TXsdValidators } from '@ecf/fiscal-core';
import { startMailCatcher, type TMailCatcher } from '@ecf/mail-catcher';
import { BUYER_EMAIL_EVENT_TYPES, checkRiLinkToken, createCertificateKeyring, loadXsdValidators, storeTenantCertificate } from '@ecf/services';
import { createTaxauthClient, type TTaxauthClient } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { createWorker } from '../worker.ts';

const XSD_DIRECTORY = new URL('../../../../../shared/taxauth/xsd/', import.meta.url);
const LINK_SECRET = 'worker-test-ri-link-secret-0123456789abcdef';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let simulatorDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let worker: ReturnType<typeof createWorker>;
let xsdValidators: TXsdValidators;
let smtpPort: number;
let catcher: TMailCatcher | undefined;
const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });

before(async () => {
  // A port with nobody listening yet: the SMTP server is "down" until a test starts the catcher on it.
  const probe = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  smtpPort = probe.smtpPort;
  await probe.close();
  context = await openTestDatabase();
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({ databaseUrl: simulatorDatabase.url, xsdDirectory: XSD_DIRECTORY, logLevel: 'silent', processingDelayMs: 100, port: 0 });
  xsdValidators = await loadXsdValidators(fileURLToPath(XSD_DIRECTORY));
  const clients = new Map<string, TTaxauthClient>();
  worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
    certificateKeyring: keyring,
    xsdValidators,
    taxauthClientFor: (environment) => {
      const client = clients.get(environment) ?? createTaxauthClient({ environment, baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl }, timeoutMs: 2000 });
      clients.set(environment, client);
      return client;
    },
    queueOverrides: { retryDelay: 1 },
    pollingIntervalSeconds: 0.5,
    buyerEmail: {
      transport: { host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true, connectionTimeout: 2000 },
      from: 'Facturación electrónica <no-reply@ecf.test>',
      publicBaseUrl: 'http://127.0.0.1:3000',
      linkSecret: LINK_SECRET,
    },
  });
  await worker.start();
});
after(async () => {
  await worker.stop();
  await catcher?.close();
  await simulator.close();
  await simulatorDatabase.drop();
  xsdValidators.dispose();
  await context.close();
});

async function tenantWithCertificate(buyerEmailEnvironments: Array<'TesteCF' | 'CerteCF' | 'eCF'>) {
  const tenant = await seedTenant(context.database);
  await context.database.tenant.update({ where: { id: tenant.id }, data: { buyerEmailEnvironments } });
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante de prueba' });
  await storeTenantCertificate(context.database, { tenantId: tenant.id, p12: certificate.p12, password: certificate.password }, keyring);
  return tenant;
}

/** Submits an E31 with a buyer e-mail as the API stores it and starts its pipeline (document.sign). */
async function issue(tenant: { id: string; rnc: string }) {
  const encf = `E31${String(randomInt(1, 1_000_000_000)).padStart(10, '0')}`;
  const body = {
    type: 'E31',
    encf,
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-04-01T10:15:00-04:00',
    issuer: { rnc: tenant.rnc, legalName: 'Distribuidora Caribe Digital SRL', address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo' },
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL', email: 'compras@lospinos.com.do' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
  const document = await context.database.document.create({
    data: { tenantId: tenant.id, environment: 'TesteCF', type: 31, encf, format: 'simplified', issueDate: new Date('2026-04-01'), totalAmount: '5310.00', buyerRnc: '101672919', submittedPayload: JSON.stringify(body) },
  });
  await worker.boss.send('document.sign', { documentId: document.id });
  return document;
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

const emailEvents = (documentId: string) =>
  context.database.documentEvent.findMany({ where: { documentId, type: { startsWith: 'buyer_email' } }, orderBy: { id: 'asc' } });

test('through the worker: accepted → document.email-buyer; SMTP down is retried without holding the document; the buyer gets the link', async () => {
  const tenant = await tenantWithCertificate(['TesteCF']);
  const document = await issue(tenant);
  // The fiscal pipeline finishes while the SMTP server is down.
  const accepted = await waitFor(() => context.database.document.findUniqueOrThrow({ where: { id: document.id } }), (row) => row.status === 'accepted');
  assert.equal(accepted.status, 'accepted', JSON.stringify(accepted.lastError));
  const failed = await waitFor(() => emailEvents(document.id), (events) => events.length >= 2);
  assert.ok(failed.length >= 2, 'each failed attempt is in the event log');
  assert.deepEqual(failed.slice(0, 2).map((event) => [event.type, (event.data as { attempt: number }).attempt]), [
    [BUYER_EMAIL_EVENT_TYPES.FAILED, 1],
    [BUYER_EMAIL_EVENT_TYPES.FAILED, 2],
  ]);
  assert.equal((await context.database.document.findUniqueOrThrow({ where: { id: document.id } })).status, 'accepted');

  catcher = await startMailCatcher({ smtpPort, httpPort: 0 });
  const message = await catcher.waitForMessage((candidate) => candidate.subject.includes(document.encf), 30_000);
  assert.deepEqual(message.envelopeTo, ['compras@lospinos.com.do']);
  const token = /http:\/\/127\.0\.0\.1:3000\/ri\/(\S+)/.exec(message.text ?? '')?.[1];
  assert.ok(token, message.text ?? '');
  const check = checkRiLinkToken(token, LINK_SECRET, new Date());
  assert.equal(check.status, 'valid');
  assert.equal(check.status === 'valid' && check.payload.documentId, document.id);
  const events = await waitFor(() => emailEvents(document.id), (rows) => rows.at(-1)?.type === BUYER_EMAIL_EVENT_TYPES.SENT);
  assert.equal(events.at(-1)?.type, BUYER_EMAIL_EVENT_TYPES.SENT);
  assert.equal((events.at(-1)?.data as { attempt: number }).attempt, events.length);
});

test('through the worker: an account without buyer e-mail in the environment gets no job and no message', async () => {
  const tenant = await tenantWithCertificate(['CerteCF']);
  const document = await issue(tenant);
  const accepted = await waitFor(() => context.database.document.findUniqueOrThrow({ where: { id: document.id } }), (row) => row.status === 'accepted');
  assert.equal(accepted.status, 'accepted');
  const [jobs] = await context.database.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM pgboss.job WHERE name = 'document.email-buyer' AND data->>'documentId' = ${document.id}`;
  assert.equal(Number(jobs?.count), 0);
  assert.deepEqual(await emailEvents(document.id), []);
});
