import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { seedTenant } from '@ecf/db';
import { createTestDatabase, openTestDatabase } from '@ecf/db/testing';
import { buildArecfXml, createTestCertificate, loadCertificate, signXml, verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
import { createCertificateKeyring, loadXsdValidators, storeTenantCertificate } from '@ecf/services';
import { createTaxauthClient, type TTaxauthClient } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { createWorker } from '../worker.ts';

const XSD_DIRECTORY = new URL('../../../../../shared/taxauth/xsd/', import.meta.url);
const BUYER_RNC = '201000101';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let simulatorDatabase: Awaited<ReturnType<typeof createTestDatabase>>;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
let worker: ReturnType<typeof createWorker>;
let xsdValidators: TXsdValidators;
let buyerServer: http.Server;
const receptions: Array<{ fileName: string | undefined; contentLength: string | undefined }> = [];
let tenant: { id: string; rnc: string };
const keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });

/** The buyer's reception endpoint: answers every e-CF with an ARECF "received" signed by the buyer. */
function startBuyer(): Promise<string> {
  const generated = createTestCertificate({ rnc: BUYER_RNC, commonName: 'Comprador de prueba' });
  const loaded = loadCertificate({ privateKeyPem: generated.privateKeyPem, certificatePem: generated.certificatePem });
  if (!loaded.success) throw new Error('buyer certificate');
  const certificate = loaded.data;
  buyerServer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receptions.push({ fileName: /filename="([^"]+)"/.exec(body)?.[1], contentLength: request.headers['content-length'] });
      const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1] ?? '';
      const arecf = buildArecfXml({ rncEmisor: field('RNCEmisor'), rncComprador: field('RNCComprador'), encf: field('eNCF'), estado: 'received', acknowledgedAt: '01-04-2026 10:20:00' });
      if (!arecf.success || request.url !== `/${BUYER_RNC}/fe/recepcion/api/ecf`) {
        response.writeHead(400).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(signXml(arecf.data, certificate).xml);
    });
  });
  return new Promise((resolve) => buyerServer.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(buyerServer.address() as AddressInfo).port}`)));
}

before(async () => {
  const buyerBaseUrl = await startBuyer();
  context = await openTestDatabase();
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: XSD_DIRECTORY,
    logLevel: 'silent',
    processingDelayMs: 100,
    port: 0,
    directory: [{ rnc: BUYER_RNC, name: 'Ferretería Los Pinos SRL', receptionUrl: `${buyerBaseUrl}/${BUYER_RNC}` }],
  });
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
  xsdValidators.dispose();
  await new Promise<void>((resolve) => buyerServer.close(() => resolve()));
  await context.close();
});

test('through the worker: signed, sent, accepted, then delivered to the buyer with its ARECF kept', async () => {
  const encf = `E31${String(randomInt(1, 1_000_000_000)).padStart(10, '0')}`;
  const body = {
    type: 'E31',
    encf,
    sequenceExpirationDate: '31-12-2027',
    issueDate: '2026-04-01T10:15:00-04:00',
    issuer: { rnc: tenant.rnc, legalName: 'Distribuidora Caribe Digital SRL', address: 'Av. Winston Churchill 1099, Piantini, Santo Domingo' },
    buyer: { rnc: BUYER_RNC, name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
  const document = await context.database.document.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      type: 31,
      encf,
      format: 'simplified',
      issueDate: new Date('2026-04-01'),
      totalAmount: '5310.00',
      buyerRnc: BUYER_RNC,
      submittedPayload: JSON.stringify(body),
    },
  });
  await worker.boss.send('document.sign', { documentId: document.id });

  const deadline = Date.now() + 30_000;
  let delivery = await context.database.receiverDelivery.findUnique({ where: { documentId: document.id } });
  while (delivery?.status !== 'sent' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    delivery = await context.database.receiverDelivery.findUnique({ where: { documentId: document.id } });
  }
  const final = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(final.status, 'accepted', JSON.stringify(final.lastError));
  assert.equal(delivery?.status, 'sent', JSON.stringify(delivery));
  assert.equal(delivery.attempts, 1);
  const artifact = await context.database.artifact.findUniqueOrThrow({ where: { id: delivery.arecfArtifactId ?? '' } });
  const verified = verifyXmlSignature(Buffer.from(artifact.content).toString('utf8'));
  assert.ok(verified.valid && verified.certificate.holderId === BUYER_RNC);
  assert.deepEqual(receptions.map((reception) => reception.fileName), [`${tenant.rnc}${encf}.xml`]);
  const events = await context.database.documentEvent.findMany({ where: { documentId: document.id }, orderBy: { id: 'asc' } });
  assert.deepEqual(
    events.map((event) => event.type),
    ['signed', 'transmission_attempt', 'transmission_outcome', 'sent', 'accepted', 'receiver_delivery_attempt', 'receiver_delivery_outcome'],
  );
});
