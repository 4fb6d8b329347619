// @ecf/sdk against the running service (API, worker, simulator of the stack), not a mock:
// - its operations are exactly the served document's, but the few it names as not for clients;
// - every one of its methods is called at least once (a Proxy records the calls; the last test
//   fails on any method never called), with the direct account's and the Partner's real flows
//   where a success is reachable in a test stack (emit, wait, download, link, upload a certificate,
//   webhooks…) and, elsewhere, a refusal that must be an EcfApiError whose code the served
//   document declares for that operation and status (never a 5xx, never ROUTE_NOT_FOUND);
// - verifyWebhook accepts what the worker really delivered, signed by the service's signer, with
//   the current secret alone and with the previous one alone during a rotation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NOT_IN_SDK } from '@ecf/contract';
import { sampleInvoice } from '@ecf/example-erp-integration';
import { ALL_SCOPES, seedApiKey } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import {
  EcfApiError,
  EcfClient,
  OPERATIONS,
  PartnerClient,
  verifyWebhook,
  WebhookVerificationError,
  type TOperationId,
  type TPartnerWebhookEvent,
} from '@ecf/sdk';
import {
  addBrowserOrigin,
  createCertificateKeyring,
  createPartnerKey,
  createRiLinkToken,
  importTaxpayerRegistry,
  storeTenantCertificate,
} from '@ecf/services';
import { closeDatabase, seedPartnerAdmin, seedPortalTenant, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';
import { until } from '../support/until.ts';

type TServedOperation = { operationId: string; responses: Record<string, { 'x-error-codes'?: string[] }> };
type TServedDocument = { paths: Record<string, Record<string, TServedOperation> & { servers?: unknown }> };

const called = new Set<string>();
/** The client, recording every SDK method called through it (bound to the real client: its private fields). */
function recording<T extends object>(client: T): T {
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof property === 'string' && property in OPERATIONS && typeof value === 'function') {
        called.add(property);
        return (value as (...args: unknown[]) => unknown).bind(target);
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let served: Map<string, TServedOperation>;
/**
 * Awaits an SDK call that may succeed or be refused, as the state of a test stack allows: a
 * refusal must be an EcfApiError of a status below 500 whose code the served document declares for
 * this operation and status. Returns the answer, or the error.
 */
async function settled<T>(operationId: TOperationId, call: Promise<T>): Promise<T | EcfApiError> {
  try {
    return await call;
  } catch (error) {
    assert.ok(error instanceof EcfApiError, `${operationId}: ${String(error)}`);
    assert.ok(error.status < 500, `${operationId}: ${error.message}`);
    assert.notEqual(error.code, 'ROUTE_NOT_FOUND', `${operationId}: the SDK's path reached no route`);
    const declared = served.get(operationId)?.responses[String(error.status)]?.['x-error-codes'] ?? [];
    assert.ok(
      declared.includes(error.code),
      `${operationId}: ${error.status} ${error.code} is not declared (${declared.join(', ')})`,
    );
    return error;
  }
}

let lastEncf = 0;
/** A fresh eNCF of `type` (time-based: specs share the stack). */
function nextEncf(type: string): string {
  lastEncf = Math.max(lastEncf + 1, Date.now() % 10_000_000_000);
  return `E${type}${String(lastEncf).padStart(10, '0')}`;
}
/** The ERP example's invoice (an E31 of today), numbered here. */
const invoice = sampleInvoice;

/** A webhook receiver on 127.0.0.1 answering 200 and keeping each request's raw bytes. */
type TDelivery = { headers: IncomingHttpHeaders; body: Buffer };
let receiver: Server | undefined;
async function startReceiver(): Promise<{ url: string; deliveries: TDelivery[] }> {
  const deliveries: TDelivery[] = [];
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(200).end('ok');
    });
  });
  const listening = receiver;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/partner-events`, deliveries };
}

const keyring = () =>
  createCertificateKeyring({ currentKey: stack().secrets['CERTIFICATE_MASTER_KEY'] ?? '' });

/** RNCs of the taxpayer registry that no account holds: the Partner links them through the SDK. */
const registeredRncs = [0, 1].map(() => `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`);
const [registeredRnc = '', otherRnc = ''] = registeredRncs;
before(async () => {
  // First: the taxpayer registry, which linking an account through the API needs.
  const report = await importTaxpayerRegistry({
    database: stackDatabase(),
    source: Readable.from(
      registeredRncs.map((rnc) =>
        Buffer.from(
          `${rnc}|DISTRIBUIDORA ${rnc} SRL|DISTRIBUIDORA|VENTA|||||01/01/2000|ACTIVO|NORMAL\n`,
          'latin1',
        ),
      ),
    ),
    fileName: 'registro-sdk.txt',
  });
  assert.equal(report.rows, 2, JSON.stringify(report));
  const document = (await (await fetch(`${stack().apiUrl}/openapi.json`)).json()) as TServedDocument;
  served = new Map();
  for (const item of Object.values(document.paths))
    for (const [method, operation] of Object.entries(item as Record<string, TServedOperation>))
      if (method !== 'servers' && method !== 'parameters') served.set(operation.operationId, operation);
});
after(async () => {
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await closeDatabase();
});

test("the SDK's operations are the served document's, but those it names as not for clients, at the same method and path", () => {
  const offered = new Set(Object.keys(OPERATIONS));
  const expected = [...served.keys()].filter((id) => !(id in NOT_IN_SDK)).sort();
  assert.deepEqual(
    [...offered].sort(),
    expected,
    'a route without an SDK method (or a method without a route)',
  );
  for (const id of Object.keys(NOT_IN_SDK))
    assert.ok(served.has(id), `${id} is named as not in the SDK but not served`);
});

test('a direct account: health, emit with wait, status, lists page by page, XML and PDF, the buyer link, sequences, annulments, receiving and certification', async () => {
  const { apiUrl } = stack();
  const { tenant } = await seedPortalTenant({ tradeName: 'Comercial con SDK' });
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante SDK' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: keyring(),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  const { key } = await seedApiKey(stackDatabase(), {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ALL_SCOPES,
  });
  const ecf = recording(new EcfClient({ apiKey: key, environment: 'TesteCF', baseUrl: apiUrl }));

  assert.equal((await ecf.health()).status, 'ok');
  assert.equal((await ecf.readiness()).status, 'ready');
  assert.match(await ecf.metrics(), /^# (HELP|TYPE) /m);
  assert.equal(((await ecf.openapi()) as { openapi: string }).openapi, '3.1.0');

  const firstEncf = nextEncf('31');
  const first = invoice(firstEncf);
  const preflight = await ecf.submitDocument({ validate: 'true', body: first });
  assert.equal(preflight.status, 'validated');
  assert.equal(preflight.documentId, undefined);
  const emitted = await ecf.submitDocument({ body: first }, { wait: 15 });
  assert.ok(emitted.documentId);
  const replay = await ecf.submitDocument({ body: first });
  assert.equal(replay.documentId, emitted.documentId, 'the same eNCF and content answer the first document');
  const documentId = emitted.documentId;
  const final = await until('the document to be accepted', async () => {
    const batch = await ecf.statusBatch({ body: { documentReferences: [documentId] } });
    const [found] = batch.found;
    return found && ['accepted', 'accepted_conditional'].includes(found.status) ? found : undefined;
  });
  assert.equal(final.encf, firstEncf);

  const second = await ecf.submitDocument({ body: invoice(nextEncf('31')) });
  const page = await ecf.listDocuments({ limit: '1' });
  assert.equal(page.items.length, 1);
  assert.ok(page.nextCursor, 'two documents, one per page');
  const listed: string[] = [];
  for await (const item of ecf.paginate('listDocuments', { limit: '1' })) listed.push(item.documentId);
  assert.deepEqual(new Set(listed), new Set([documentId, second.documentId]));

  const xml = await ecf.documentXml({ documentReference: firstEncf });
  assert.match(xml.contentType, /xml/);
  assert.match(await xml.text(), /<ECF[\s>][\s\S]*<Signature/);
  const pdf = await ecf.documentPdf({ documentReference: documentId });
  assert.equal(pdf.filename, `${tenant.rnc}${firstEncf}.pdf`);
  const pdfBytes = await pdf.bytes();
  assert.equal(Buffer.from(pdfBytes.subarray(0, 5)).toString(), '%PDF-');
  // The buyer's link, as the buyer's e-mail carries it (signed with the stack's RI_LINK_SECRET).
  const { token } = createRiLinkToken(
    { documentId, environment: 'TesteCF', issuedAt: new Date() },
    stack().secrets['RI_LINK_SECRET'] ?? '',
  );
  const buyerPdf = await ecf.printedLink({ token });
  assert.equal(Buffer.from((await buyerPdf.bytes()).subarray(0, 5)).toString(), '%PDF-');

  assert.ok(Array.isArray((await ecf.contingency()).items));
  // The year in the Dominican Republic (UTC-4).
  const year = Number(new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 4));
  const range = await settled(
    'registerSequence',
    ecf.registerSequence({
      body: {
        type: '32',
        from: 'E320000000001',
        to: 'E320000001000',
        sequenceExpirationDate: `${year + 1}-12-31`,
      },
    }),
  );
  assert.ok(!(range instanceof EcfApiError), range instanceof EcfApiError ? range.message : '');
  assert.equal((await ecf.listSequences()).items.length, 1);

  const annulled = nextEncf('32');
  const ranges = [{ type: '32', from: annulled, to: annulled }];
  const prevalidation = await ecf.prevalidateAnnulment({ body: { ranges } });
  assert.equal(prevalidation.ok, true);
  const annulment = await ecf.sendAnnulment({ body: { ranges, reason: 'Talonario dañado' } });
  const again = await settled(
    'sendAnnulment',
    ecf.sendAnnulment({ body: { ranges, reason: 'Talonario dañado' } }),
  );
  assert.ok(
    again instanceof EcfApiError,
    'a new Idempotency-Key for the same numbers: refused, not annulled twice',
  );
  assert.equal(
    (await ecf.getAnnulment({ annulmentId: annulment.annulmentId })).annulmentId,
    annulment.annulmentId,
  );
  const annulments: string[] = [];
  for await (const item of ecf.paginate('listAnnulments', {})) annulments.push(item.annulmentId);
  assert.deepEqual(annulments, [annulment.annulmentId]);
  assert.equal((await ecf.listAnnulments({ limit: '5' })).items.length, 1);
  await settled(
    'reconcileAnnulment',
    ecf.reconcileAnnulment({ annulmentId: annulment.annulmentId, body: { outcome: 'accepted' } as never }),
  );
  await settled(
    'reconcileReceiverDelivery',
    ecf.reconcileReceiverDelivery({ documentId, body: { outcome: 'delivered' } as never }),
  );

  // Receiving: nothing was received by this new tenant; unknown ids are typed 404s.
  const unknown = randomUUID();
  assert.deepEqual((await ecf.listReceivedDocuments({ limit: '10' })).items, []);
  assert.deepEqual((await ecf.listReceivedApprovals({})).items, []);
  for (const [id, call] of [
    ['getReceivedDocument', () => ecf.getReceivedDocument({ inboundDocumentId: unknown })],
    ['getReceivedDocumentXml', () => ecf.getReceivedDocumentXml({ inboundDocumentId: unknown })],
    ['getReceivedApproval', () => ecf.getReceivedApproval({ inboundDocumentId: unknown })],
    ['getReceivedApprovalXml', () => ecf.getReceivedApprovalXml({ inboundDocumentId: unknown })],
    ['getCommercialApproval', () => ecf.getCommercialApproval({ inboundId: unknown })],
    [
      'submitCommercialApproval',
      () => ecf.submitCommercialApproval({ inboundId: unknown, body: { decision: 'accepted' } as never }),
    ],
    [
      'reconcileCommercialApproval',
      () => ecf.reconcileCommercialApproval({ inboundId: unknown, body: {} as never }),
    ],
  ] as const) {
    const refused = await settled(id, (call as () => Promise<unknown>)());
    assert.ok(refused instanceof EcfApiError && refused.status >= 400, `${id} refused`);
  }

  // Certification (CerteCF): a case that has not started; each step answers as the contract says.
  const { key: certKey } = await seedApiKey(stackDatabase(), {
    tenantId: tenant.id,
    environment: 'CerteCF',
    scopes: ALL_SCOPES,
  });
  const cert = recording(new EcfClient({ apiKey: certKey, environment: 'CerteCF', baseUrl: apiUrl }));
  const certification = await cert.getCertificationCase();
  assert.equal(certification.ok, true);
  await settled(
    'prevalidateCertification',
    cert.prevalidateCertification({ body: { workbookBase64: 'bm8gZXMgdW4gbGlicm8=' } }),
  );
  await settled(
    'startCertificationRun',
    cert.startCertificationRun({ body: { workbookBase64: 'bm8gZXMgdW4gbGlicm8=' } }),
  );
  await settled('getCertificationApprovals', cert.getCertificationApprovals());
  await settled('sendCertificationApprovals', cert.sendCertificationApprovals({ body: {} as never }));
  await settled('restartCertification', cert.restartCertification({ body: {} as never }));
  await settled('recordCertificationAttestation', cert.recordCertificationAttestation({ body: {} as never }));
  await settled('resendCertificationDocument', cert.resendCertificationDocument({ documentId: unknown }));
  await settled('getCertificationRun', cert.getCertificationRun({ runId: unknown }));
  await settled('getCertificationEvidence', cert.getCertificationEvidence({ runId: unknown }));
});

test('a Partner: link an account, upload its certificate, emit in TesteCF, production refusals, certification, billing and webhooks verified with verifyWebhook', async () => {
  const { apiUrl } = stack();
  const { partner } = await seedPartnerAdmin();
  await addBrowserOrigin({
    database: stackDatabase(),
    partnerId: partner.id,
    origin: 'https://erp.example.com',
  });
  const { key } = await createPartnerKey({
    database: stackDatabase(),
    partnerId: partner.id,
    name: 'sdk',
    profile: 'full',
  });
  const client = recording(new PartnerClient({ partnerKey: key, baseUrl: apiUrl }));

  const externalTenantId = `erp-${randomUUID()}`;
  // A second account of the same Partner, linked through the SDK from the registry's RNC (PUT: twice is once).
  const link = {
    externalTenantId,
    body: {
      rnc: registeredRnc,
      legalName: `Distribuidora ${registeredRnc} SRL`,
      address: 'Av. Winston Churchill 10, Santo Domingo',
    },
  };
  const linked = await client.linkFiscalAccount(link);
  const id = linked.fiscalAccount.id;
  const relinked = await client.linkFiscalAccount(link);
  assert.equal(relinked.fiscalAccount.id, id, 'PUT by external id: the same account');
  const other = await client.linkFiscalAccount({
    externalTenantId: `erp-${randomUUID()}`,
    body: { rnc: otherRnc, legalName: `Distribuidora ${otherRnc} SRL` },
  });
  assert.equal((await client.listFiscalAccounts({})).total, 2);
  const accounts: string[] = [];
  for await (const account of client.paginate('listFiscalAccounts', { limit: '1' }))
    accounts.push(account.id);
  assert.deepEqual(accounts.sort(), [id, other.fiscalAccount.id].sort(), 'two pages of one');
  assert.equal((await client.getFiscalAccount({ id })).fiscalAccount.externalTenantId, externalTenantId);
  assert.equal((await client.getFiscalAccountStatus({ id })).fiscalAccountId, id);
  await client.updateFiscalAccountProfile({ id, body: { phone: '809-555-0100' } });

  // The certificate: a session for the ERP's page, the upload with its token (no Partner key).
  const session = await client.createCertificateUploadSession({
    id,
    body: { browserOrigin: 'https://erp.example.com' },
  });
  const certificate = createTestCertificate({ rnc: registeredRnc, commonName: 'Firmante Partner' });
  const browser = recording(new PartnerClient({ baseUrl: apiUrl }));
  const installed = await browser.uploadCertificate(
    {
      uploadId: session.uploadId,
      uploadToken: session.uploadToken,
      file: certificate.p12,
      password: certificate.password,
    },
    { headers: { origin: 'https://erp.example.com' } },
  );
  assert.equal(installed.ok, true);
  assert.equal((await client.getCertificate({ id })).ok, true);
  await settled(
    'createCertificateRotationRequest',
    client.createCertificateRotationRequest({
      id,
      body: { browserOrigin: 'https://erp.example.com' },
    }),
  );

  // Webhooks first, so the events of what follows reach the receiver.
  const inbox = await startReceiver();
  const created = await client.createWebhookEndpoint({ body: { name: 'ERP', url: inbox.url } });
  const endpointId = created.endpoint.id;
  const firstSecret = created.signingSecret;
  assert.ok(firstSecret);
  assert.equal((await client.listWebhookEndpoints()).items.length, 1);
  await client.updateWebhookEndpoint({ endpointId, body: { name: 'ERP principal' } });

  const encf = nextEncf('31');
  const emitted = await client.submitTestecfDocument({ id, body: { document: invoice(encf) } }, { wait: 15 });
  assert.equal(emitted.encf, encf);
  const documentId = emitted.documentId;
  assert.ok(documentId);
  await until('the TesteCF document to be final', async () => {
    const { found } = await client.testecfDocumentStatusBatch({ id, body: { documentIds: [documentId] } });
    return found[0] && ['accepted', 'accepted_conditional'].includes(found[0].status) ? found[0] : undefined;
  });
  assert.equal((await client.getTestecfDocument({ id, documentId })).document.documentId, documentId);
  assert.match(await (await client.testecfDocumentXml({ id, documentId })).text(), /<ECF[\s>]/);
  assert.equal(
    Buffer.from(
      (await (await client.testecfDocumentPdf({ id, documentId })).bytes()).subarray(0, 5),
    ).toString(),
    '%PDF-',
  );

  // Production is not active for a new account: every production route refuses as declared.
  assert.equal((await client.getProduction({ id })).state, 'not_requested');
  const unknown = randomUUID();
  await settled(
    'submitProductionDocument',
    client.submitProductionDocument({ id, body: { document: invoice(nextEncf('31')) } }),
  );
  await settled(
    'productionDocumentStatusBatch',
    client.productionDocumentStatusBatch({ id, body: { documentIds: [unknown] } }),
  );
  await settled('getProductionDocument', client.getProductionDocument({ id, documentId: unknown }));
  await settled('productionDocumentXml', client.productionDocumentXml({ id, documentId: unknown }));
  await settled('productionDocumentPdf', client.productionDocumentPdf({ id, documentId: unknown }));
  const ranges = [{ type: '32', from: 'E320000000001', to: 'E320000000001' }];
  await settled(
    'prevalidateProductionAnnulment',
    client.prevalidateProductionAnnulment({ id, body: { ranges } }),
  );
  await settled('sendProductionAnnulment', client.sendProductionAnnulment({ id, body: { ranges } }));
  await settled('listProductionAnnulments', client.listProductionAnnulments({ id }));
  await settled('getProductionAnnulment', client.getProductionAnnulment({ id, annulmentId: unknown }));
  await settled('listProductionSequences', client.listProductionSequences({ id }));
  await settled(
    'registerProductionSequence',
    client.registerProductionSequence({
      id,
      body: { type: '31', from: 'E310000000001', to: 'E310000000002', sequenceExpirationDate: '2030-12-31' },
    }),
  );
  await settled('listProductionInboundDocuments', client.listProductionInboundDocuments({ id }));
  await settled(
    'submitProductionCommercialApproval',
    client.submitProductionCommercialApproval({ id, inboundDocumentId: unknown, body: {} as never }),
  );
  await settled('requestProductionActivation', client.requestProductionActivation({ id }));

  // Certification of the account.
  await settled('getTaxauthRegistration', client.getTaxauthRegistration({ id }));
  await settled('signCertificationXml', client.signCertificationXml({ id, body: {} as never }));
  await settled('uploadCertificationTestSet', client.uploadCertificationTestSet({ id, body: {} }));
  assert.ok(Array.isArray((await client.listCertificationTestSets({ id })).items));
  const officialSets = await client.listOfficialSets();
  assert.ok(Array.isArray(officialSets.items));
  // A case of an official set when the deployment has them, else of a test set ref nobody uploaded.
  const certificationCase = await settled(
    'createCertificationCase',
    client.createCertificationCase({
      id,
      body: { officialSetRef: officialSets.items[0]?.ref ?? 'sin-conjunto' },
    }),
  );
  const caseId = certificationCase instanceof EcfApiError ? unknown : certificationCase.case.caseId;
  await settled('partnerGetCertificationCase', client.partnerGetCertificationCase({ id, caseId }));
  await settled(
    'partnerRecordCertificationAttestation',
    client.partnerRecordCertificationAttestation({ id, caseId, body: {} as never }),
  );
  await settled(
    'partnerStartCertificationRun',
    client.partnerStartCertificationRun({ id, caseId, body: {} }),
  );
  await settled('listCertificationRuns', client.listCertificationRuns({ id, caseId }));
  await settled(
    'partnerGetCertificationRun',
    client.partnerGetCertificationRun({ id, caseId, runId: unknown }),
  );
  await settled(
    'partnerGetCertificationEvidence',
    client.partnerGetCertificationEvidence({ id, caseId, runId: unknown }),
  );
  await settled(
    'getCertificationPrintedPdfs',
    client.getCertificationPrintedPdfs({ id, caseId, runId: unknown }),
  );
  await settled(
    'getCertificationConsumerInvoices',
    client.getCertificationConsumerInvoices({ id, caseId, runId: unknown }),
  );
  await settled(
    'getCertificationConsumerSummaries',
    client.getCertificationConsumerSummaries({ id, caseId, runId: unknown }),
  );
  await settled(
    'changeCertificationOfficialSet',
    client.changeCertificationOfficialSet({ id, caseId, body: {} as never }),
  );
  await settled(
    'partnerRestartCertification',
    client.partnerRestartCertification({ id, caseId, body: {} as never }),
  );
  await settled(
    'partnerSendCertificationApprovals',
    client.partnerSendCertificationApprovals({ id, caseId, body: {} as never }),
  );
  await settled('partnerGetCertificationApprovals', client.partnerGetCertificationApprovals({ id, caseId }));
  await settled(
    'partnerResendCertificationDocument',
    client.partnerResendCertificationDocument({ id, caseId, documentId: unknown }),
  );
  await settled('closeCertificationCase', client.closeCertificationCase({ id, caseId }));
  await settled('createCertificationSession', client.createCertificationSession({ id, body: {} as never }));

  const usage = await client.getBillingUsage({});
  assert.equal(usage.ok, true);

  // Webhooks: the document's events arrive signed with the first secret.
  const documentEvent = await until('a document.state_changed delivery', async () =>
    inbox.deliveries.find((delivery) => delivery.headers['svc-event-type'] === 'document.state_changed'),
  );
  const verified = await verifyWebhook<TPartnerWebhookEvent>({
    rawBody: documentEvent.body,
    headers: documentEvent.headers,
    secrets: [firstSecret],
  });
  assert.equal(verified.event.fiscalAccountId, id);
  assert.equal(verified.event.resource.kind, 'document');
  await assert.rejects(
    verifyWebhook({
      rawBody: Buffer.concat([documentEvent.body, Buffer.from(' ')]),
      headers: documentEvent.headers,
      secrets: [firstSecret],
    }),
    (error: unknown) => error instanceof WebhookVerificationError && error.reason === 'no_matching_signature',
  );

  // A rotation: the test event is signed with both secrets; either one alone verifies it.
  const rotated = await client.rotateWebhookSecret({ endpointId, body: { overlapSeconds: 3600 } });
  const secondSecret = rotated.signingSecret;
  assert.ok(secondSecret);
  assert.notEqual(secondSecret, firstSecret);
  const before = inbox.deliveries.length;
  await client.testWebhookEndpoint({ endpointId, body: { fiscalAccountId: id, environment: 'testecf' } });
  const testEvent = await until('the webhook.test delivery', async () =>
    inbox.deliveries.slice(before).find((delivery) => delivery.headers['svc-event-type'] === 'webhook.test'),
  );
  assert.equal(
    String(testEvent.headers['svc-signature']).match(/v1=/g)?.length,
    2,
    'two v1 during the overlap',
  );
  for (const secrets of [[secondSecret], [firstSecret], ['whsec_otro', firstSecret]]) {
    const checked = await verifyWebhook({ rawBody: testEvent.body, headers: testEvent.headers, secrets });
    assert.equal(checked.eventType, 'webhook.test');
  }
  const deliveries = await client.listWebhookDeliveries({ limit: '50' });
  const delivery = deliveries.items.find((item) => item.eventType === 'webhook.test');
  assert.ok(delivery, 'the delivery is listed');
  assert.equal(
    (await client.getWebhookDelivery({ deliveryId: delivery.deliveryId })).delivery.deliveryId,
    delivery.deliveryId,
  );
  // Only a failed delivery is replayed: a succeeded one is a typed 409 with its status.
  const replay = await settled(
    'replayWebhookDelivery',
    client.replayWebhookDelivery({ deliveryId: delivery.deliveryId }),
  );
  assert.ok(replay instanceof EcfApiError && replay.code === 'WEBHOOK_REPLAY_NOT_ALLOWED');
  assert.equal(replay.details['status'], 'succeeded');
  await client.retireWebhookEndpoint({ endpointId });
});

test('every method of the SDK was called at least once against the running service', () => {
  const never = Object.keys(OPERATIONS).filter((id) => !called.has(id));
  assert.deepEqual(never, [], 'SDK methods no test called');
});
