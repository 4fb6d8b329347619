import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildArecfXml,
  createTestCertificate,
  loadCertificate,
  signXml,
  verifyXmlSignature,
} from '@ecf/fiscal-core';
import { openPipelineHarness, type TPipelineHarness } from '../../test/pipeline-harness.ts';

const BUYER_RNC = '201000101';

let buyerServer: http.Server;
const receptions: Array<{ fileName: string | undefined; contentLength: string | undefined }> = [];
let harness: TPipelineHarness;
let tenant: { id: string; rnc: string };

/** The buyer's reception endpoint: answers every e-CF with an ARECF "received" signed by the buyer. */
function startBuyer(): Promise<string> {
  const generated = createTestCertificate({ rnc: BUYER_RNC, commonName: 'Comprador de prueba' });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('buyer certificate');
  const certificate = loaded.data;
  buyerServer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receptions.push({
        fileName: /filename="([^"]+)"/.exec(body)?.[1],
        contentLength: request.headers['content-length'],
      });
      const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1] ?? '';
      const arecf = buildArecfXml({
        rncEmisor: field('RNCEmisor'),
        rncComprador: field('RNCComprador'),
        encf: field('eNCF'),
        estado: 'received',
        acknowledgedAt: '01-04-2026 10:20:00',
      });
      if (!arecf.success || request.url !== `/${BUYER_RNC}/fe/recepcion/api/ecf`) {
        response.writeHead(400).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.end(signXml(arecf.data, certificate).xml);
    });
  });
  return new Promise((resolve) =>
    buyerServer.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(buyerServer.address() as AddressInfo).port}`),
    ),
  );
}

before(async () => {
  const buyerBaseUrl = await startBuyer();
  harness = await openPipelineHarness({
    processingDelayMs: 100,
    xsd: true,
    directory: [
      { rnc: BUYER_RNC, name: 'Ferretería Los Pinos SRL', receptionUrl: `${buyerBaseUrl}/${BUYER_RNC}` },
    ],
  });
  tenant = await harness.tenantWithCertificate();
});
after(async () => {
  await harness.close();
  await new Promise<void>((resolve) => buyerServer.close(() => resolve()));
});

test('through the worker: signed, sent, accepted, then delivered to the buyer with its ARECF kept', async () => {
  const document = await harness.seedQueuedE31(tenant, { rnc: BUYER_RNC, name: 'Ferretería Los Pinos SRL' });
  const { encf } = document;
  await harness.worker.boss.send('document.sign', { documentId: document.id });

  const deadline = Date.now() + 30_000;
  let delivery = await harness.database.receiverDelivery.findUnique({ where: { documentId: document.id } });
  while (delivery?.status !== 'sent' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    delivery = await harness.database.receiverDelivery.findUnique({ where: { documentId: document.id } });
  }
  const final = await harness.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(final.status, 'accepted', JSON.stringify(final.lastError));
  assert.equal(delivery?.status, 'sent', JSON.stringify(delivery));
  assert.equal(delivery.attempts, 1);
  const artifact = await harness.database.artifact.findUniqueOrThrow({
    where: { id: delivery.arecfArtifactId ?? '' },
  });
  const verified = verifyXmlSignature(Buffer.from(artifact.content).toString('utf8'));
  assert.ok(verified.valid && verified.certificate.holderId === BUYER_RNC);
  assert.deepEqual(
    receptions.map((reception) => reception.fileName),
    [`${tenant.rnc}${encf}.xml`],
  );
  const events = await harness.database.documentEvent.findMany({
    where: { documentId: document.id },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    events.map((event) => event.type),
    [
      'signed',
      'transmission_attempt',
      'transmission_outcome',
      'sent',
      'accepted',
      'receiver_delivery_attempt',
      'receiver_delivery_outcome',
    ],
  );
});
