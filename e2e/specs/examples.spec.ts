// The two integration examples of the repository (examples/), run as written against the running
// stack (API, worker, simulator): what their READMEs show is what runs here.
// - erp-integration: preflight, issue with wait, final state, PDF saved, webhooks verified, a
//   duplicate event ignored, a forged one refused, a stale snapshot not overwriting the final state;
// - partner-onboarding: link from the registry, webhook endpoint, certificate-upload session (the
//   customer's browser uploads with the token), test set and case, followed by verified webhooks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { readCertificationWorkbook } from '@ecf/certification-sets';
import { seedApiKey } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { runErpIntegration, sampleInvoice } from '@ecf/example-erp-integration';
import { onboardCustomer } from '@ecf/example-partner-onboarding';
import { PartnerClient } from '@ecf/sdk';
import {
  addBrowserOrigin,
  createCertificateKeyring,
  createPartnerKey,
  createWebhookEndpoint,
  importTaxpayerRegistry,
  signWebhookBody,
  storeTenantCertificate,
} from '@ecf/services';
import { freePort } from '../support/processes.ts';
import { closeDatabase, seedPartnerAdmin, seedPortalTenant, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';
import { until } from '../support/until.ts';

const ARTIFACTS = path.join(import.meta.dirname, '..', 'artifacts');
const closers: Array<() => Promise<void>> = [];
let output: string;
before(() => {
  output = mkdtempSync(path.join(tmpdir(), 'ecf-examples-'));
});
after(async () => {
  for (const close of closers) await close();
  rmSync(output, { recursive: true, force: true });
  await closeDatabase();
});

/** Closes a receiver, its keep-alive connections (the worker's, fetch's) included. */
function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const EXAMPLES = path.join(import.meta.dirname, '..', '..', 'examples');

test("each example's README shows its code verbatim: what the reader copies is what runs here", () => {
  for (const directory of ['erp-integration', 'partner-onboarding']) {
    const file = `${directory}.ts`;
    const readme = readFileSync(path.join(EXAMPLES, directory, 'README.md'), 'utf8');
    const code = readFileSync(path.join(EXAMPLES, directory, file), 'utf8');
    assert.ok(
      readme.includes(`\`\`\`ts\n${code}\`\`\``),
      `${directory}/README.md does not show ${file} as it is`,
    );
  }
});

const keyring = () =>
  createCertificateKeyring({ currentKey: stack().secrets['CERTIFICATE_MASTER_KEY'] ?? '' });

/** A delivery signed by the service's own signer (the endpoint's secret is known to the ERP). */
function signed(body: object, secret: string) {
  const raw = JSON.stringify(body);
  const signature = signWebhookBody({
    body: raw,
    secrets: [secret],
    timestampSeconds: Math.floor(Date.now() / 1000),
  });
  return { raw, headers: { 'content-type': 'application/json', 'svc-signature': signature } };
}

test('the ERP integration example issues, waits, saves the PDF and applies each verified webhook once', async () => {
  const { apiUrl } = stack();
  const { tenant } = await seedPortalTenant({ tradeName: 'ERP de Ejemplo' });
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante ERP' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: keyring(),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  const { key } = await seedApiKey(stackDatabase(), { tenantId: tenant.id, environment: 'TesteCF' });
  // What the developer does in the portal: an endpoint for the ERP's receiver (the secret shown once).
  const port = await freePort();
  const { signingSecret } = await createWebhookEndpoint({
    database: stackDatabase(),
    tenantId: tenant.id,
    environment: 'TesteCF',
    name: 'ERP',
    url: `http://127.0.0.1:${port}/ecf-webhooks`,
    eventTypes: 'all',
    keyring: keyring(),
    allowPrivateTargets: true,
  });

  const lines: string[] = [];
  const encf = `E31${String(Date.now() % 10_000_000_000).padStart(10, '0')}`;
  const run = await runErpIntegration(
    {
      baseUrl: apiUrl,
      apiKey: key,
      environment: 'TesteCF',
      webhookSecrets: [signingSecret],
      webhookPort: port,
      outputDirectory: output,
      log: (line) => lines.push(line),
    },
    sampleInvoice(encf),
  );
  closers.push(() => closed(run.receiver));
  assert.equal(run.status, 'accepted', lines.join('\n'));
  assert.ok(run.pdfPath);
  assert.equal(readFileSync(run.pdfPath).subarray(0, 5).toString(), '%PDF-');
  assert.equal(path.basename(run.pdfPath), `${tenant.rnc}${encf}.pdf`);

  // The worker's deliveries reach the receiver: the document's accepted state among them.
  await until('the accepted document event', () =>
    lines.find((line) => line === `webhook document.state_changed ${encf}: accepted`),
  );
  assert.equal(run.store.invoices.get(run.documentId)?.status, 'accepted');
  const applied = run.store.appliedEvents.size;

  const receiverUrl = `http://127.0.0.1:${port}/ecf-webhooks`;
  const post = (delivery: { raw: string; headers: Record<string, string> }) =>
    fetch(receiverUrl, { method: 'POST', headers: delivery.headers, body: delivery.raw });
  const event = (id: string, status: string) => ({
    id,
    type: 'document.state_changed',
    createdAt: new Date().toISOString(),
    tenantId: tenant.id,
    environment: 'TesteCF',
    correlationId: null,
    document: { id: run.documentId, type: 'E31', encf, status, trackId: null },
    data: { severity: 'info', message: 'snapshot', payload: {} },
  });
  // A late snapshot of a non-final state: the status batch is asked, the final state stays.
  const late = randomUUID();
  assert.equal((await post(signed(event(late, 'sent'), signingSecret))).status, 200);
  assert.equal(run.store.invoices.get(run.documentId)?.status, 'accepted');
  assert.ok(lines.includes(`webhook document.state_changed ${encf}: accepted`));
  // The same event again: 200, nothing applied twice.
  assert.equal((await post(signed(event(late, 'sent'), signingSecret))).status, 200);
  assert.ok(lines.includes(`webhook document.state_changed ${late}: duplicate, ignored`));
  assert.equal(run.store.appliedEvents.size, applied + 1);
  // Another secret: refused, nothing applied.
  assert.equal((await post(signed(event(randomUUID(), 'rejected'), 'whsec_falso'))).status, 400);
  assert.ok(lines.includes('webhook refused: no_matching_signature'));
  assert.equal(run.store.invoices.get(run.documentId)?.status, 'accepted');

  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, 'erp-integration-output.txt'), `${lines.join('\n')}\n`);
});

test('the Partner onboarding example links, subscribes, opens the upload, creates the case and follows both by webhooks', async () => {
  const { apiUrl } = stack();
  const { partner } = await seedPartnerAdmin();
  const browserOrigin = 'https://erp.example.com';
  await addBrowserOrigin({ database: stackDatabase(), partnerId: partner.id, origin: browserOrigin });
  const { key } = await createPartnerKey({
    database: stackDatabase(),
    partnerId: partner.id,
    name: 'erp',
    profile: 'full',
  });
  const rnc = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  await importTaxpayerRegistry({
    database: stackDatabase(),
    source: Readable.from([
      Buffer.from(`${rnc}|COMERCIAL ${rnc} SRL|COMERCIAL|VENTA|||||01/01/2000|ACTIVO|NORMAL`, 'latin1'),
    ]),
    fileName: 'registro-ejemplo.txt',
  });
  // The customer's test set: the tax authority's model set, its rows as JSON for the customer's RNC.
  const model = await readCertificationWorkbook({
    content: readFileSync(
      new URL(import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx')),
    ),
  });
  assert.ok(model.ok && model.workbook.kind === 'ecf_set', 'the model workbook reads');
  const { workbook } = model;
  const rowsOf = (rows: typeof workbook.ecf) =>
    rows.map((row) =>
      Object.fromEntries(
        Object.entries(row.values).map(([column, value]) => [column, value.replaceAll('132641566', rnc)]),
      ),
    );

  const port = await freePort();
  const lines: string[] = [];
  const onboarded = await onboardCustomer(
    {
      baseUrl: apiUrl,
      partnerKey: key,
      webhookUrl: `http://127.0.0.1:${port}/partner-events`,
      webhookPort: port,
      browserOrigin,
      log: (line) => lines.push(line),
    },
    {
      externalTenantId: `cliente-${randomUUID()}`,
      rnc,
      legalName: `Comercial ${rnc} SRL`,
      testSet: { set: { ecf: rowsOf(workbook.ecf), rfce: rowsOf(workbook.rfce) } },
    },
  );
  closers.push(() => closed(onboarded.receiver));
  assert.ok(
    lines.some((line) => line.startsWith(`certification case ${onboarded.caseId}: in_progress`)),
    lines.join('\n'),
  );

  // The customer's browser uploads the certificate with the session's token (no Partner key).
  const certificate = createTestCertificate({ rnc, commonName: 'Firmante Cliente' });
  const browser = new PartnerClient({ baseUrl: apiUrl });
  await browser.uploadCertificate(
    {
      uploadId: onboarded.session.uploadId,
      uploadToken: onboarded.session.uploadToken,
      file: certificate.p12,
      password: certificate.password,
    },
    { headers: { origin: browserOrigin } },
  );
  const validated = await onboarded.events.next((event) => event.type === 'certificate.validated');
  assert.equal(validated.fiscalAccountId, onboarded.id);
  const caseEvent = await onboarded.events.next(
    (event) => event.type === 'certification.state_changed' && event.resource.id === onboarded.caseId,
  );
  assert.equal(caseEvent.environment, 'certecf');
  assert.ok(lines.some((line) => line.startsWith('event certificate.validated (certificate validated')));
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(path.join(ARTIFACTS, 'partner-onboarding-output.txt'), `${lines.join('\n')}\n`);
});
