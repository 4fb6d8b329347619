// The loop that proves receiving (issue 18): two tenants of the same deployment trade through the
// tax authority simulator's directory, which publishes our own reception routes for both.
// A issues an E31 to B through the REST API; the worker signs and sends it, the simulator accepts
// it, and A's receiver delivery finds B's URL (ours) in the directory; B's reception answers a
// signed ARECF, which A stores (`sent`). The worker is SIGKILLed once in the middle (the stack's
// supervisor starts it again, as a process manager would): nothing is lost or sent twice. Then B's
// accountant accepts the e-CF in the portal: the ACECF reaches the simulator and A's approval route,
// and A sees the received approval, matched to its document, in the API and in its portal.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { seedApiKey, sqlPoolOf } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

function dominicanToday(): string {
  return new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** SIGKILLs the stack's worker (its whole process group) and waits for its supervisor to restart it. */
async function killWorker(): Promise<void> {
  const { workerPidFile } = stack();
  const pid = Number(readFileSync(workerPidFile, 'utf8'));
  process.kill(-pid, 'SIGKILL');
  await waitFor('the worker to be started again', async () => {
    const current = Number(readFileSync(workerPidFile, 'utf8'));
    return current !== pid ? current : undefined;
  });
}

async function seedTrader(tradeName: string) {
  const { secrets } = stack();
  const seeded = await seedPortalTenant({
    tradeName,
    members: [{ name: 'Carla Contable', role: 'accountant' }],
  });
  const certificate = createTestCertificate({
    rnc: seeded.tenant.rnc,
    commonName: `Firmante ${tradeName}`,
  });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({
      currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '',
    }),
    tenantId: seeded.tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  const { key } = await seedApiKey(stackDatabase(), {
    tenantId: seeded.tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read', 'tenant:admin'],
  });
  return { ...seeded, key };
}

test('A issues to B, B receives it with a signed ARECF, accepts it in the portal, and A receives the approval', async () => {
  const { apiUrl, simulatorUrl } = stack();
  const seller = await seedTrader('Suplidora del Cibao');
  const buyer = await seedTrader('Ferretería Los Pinos');
  // The directory publishes our reception routes for both tenants (what they register in the
  // tax authority's directory: docs/receiving.md).
  const base = `${apiUrl}/TesteCF`;
  const directory = await fetch(`${simulatorUrl}/_sim/directory`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(
      [seller, buyer].map(({ tenant }) => ({
        rnc: tenant.rnc,
        name: tenant.legalName,
        receptionUrl: base,
        commercialApprovalUrl: base,
      })),
    ),
  });
  assert.equal(directory.status, 204);

  const encf = `E31${String(Date.now()).slice(-10)}`;
  const year = Number(dominicanToday().slice(0, 4));
  const emitted = await fetch(`${apiUrl}/TesteCF/documentos-ecf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': seller.key },
    body: JSON.stringify({
      type: 'E31',
      encf,
      sequenceExpirationDate: `31-12-${year + 1}`,
      issueDate: dominicanToday(),
      buyer: { rnc: buyer.tenant.rnc, name: buyer.tenant.legalName },
      paymentType: 'card',
      incomeType: '01',
      lines: [
        {
          name: 'Cemento gris',
          quantity: 2,
          unitPrice: '450.00',
          itbisRate: 18,
          itemKind: 'good',
        },
      ],
    }),
  });
  assert.equal(emitted.status, 202, await emitted.clone().text());
  const documentId = ((await emitted.json()) as { documentId: string }).documentId;
  assert.ok(documentId);

  // The worker dies in the middle (signed or sent, before the delivery to B), once.
  const pool = sqlPoolOf(stackDatabase());
  await waitFor('the document to be signed', async () => {
    const { rows } = await pool.query<{ status: string }>(
      'SELECT status::text FROM documents WHERE id = $1',
      [documentId],
    );
    return rows[0] && rows[0].status !== 'queued_for_signing' ? rows[0].status : undefined;
  });
  await killWorker();

  // A's delivery to B ends `sent` with B's signed ARECF stored.
  const delivery = await waitFor(
    "A's receiver delivery to be sent",
    async () => {
      const { rows } = await pool.query<{
        status: string;
        arecf: string | null;
      }>(
        'SELECT status::text, arecf_artifact_id::text AS arecf FROM receiver_deliveries WHERE document_id = $1',
        [documentId],
      );
      return rows[0]?.status === 'sent' ? rows[0] : undefined;
    },
    120_000,
  );
  assert.ok(delivery.arecf);
  const { rows: documentRows } = await pool.query<{ status: string }>(
    'SELECT status::text FROM documents WHERE id = $1',
    [documentId],
  );
  assert.equal(documentRows[0]?.status, 'accepted');
  // Sent once: the simulator received the eNCF once, B received it once.
  const { rows: receptions } = await pool.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM inbound_documents WHERE tenant_id = $1 AND encf = $2 AND status = 'received'`,
    [buyer.tenant.id, encf],
  );
  assert.equal(receptions[0]?.count, '1');

  // B lists it through its API.
  const received = await fetch(`${apiUrl}/TesteCF/documentos-recibidos?encf=${encf}`, {
    headers: { 'x-api-key': buyer.key },
  });
  assert.equal(received.status, 200, await received.clone().text());
  const items = (
    (await received.json()) as {
      items: Array<{ inboundDocumentId: string; issuerRnc: string }>;
    }
  ).items;
  assert.equal(items.length, 1);
  assert.equal(items[0]?.issuerRnc, seller.tenant.rnc);
  const inboundDocumentId = items[0]?.inboundDocumentId ?? '';

  // B's accountant accepts it in the portal.
  const accountant = buyer.members[0];
  assert.ok(accountant);
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, accountant);
  await page.goto(portalUrl('/TesteCF/received'));
  await page.getByRole('link', { name: encf }).click();
  await page.waitForURL((url) => url.pathname === `/TesteCF/received/${inboundDocumentId}`);
  const form = page.getByRole('form', {
    name: 'Aprobación comercial del e-CF',
  });
  await form.waitFor();
  await checkPage(page, 'received-loop-unanswered');
  await form.getByRole('button', { name: 'Aceptar' }).click();
  await page
    .getByRole('dialog', { name: '¿Aceptar este e-CF?' })
    .getByRole('button', { name: 'Aceptar' })
    .click();
  await page.getByText('Recibida por el emisor').waitFor({ timeout: 60_000 });
  await checkPage(page, 'received-loop-accepted');
  assertNoConsoleErrors(problems);

  // A received the approval on its own route, matched to the document it issued.
  const approval = await waitFor("A's received approval", async () => {
    const answer = await fetch(`${apiUrl}/TesteCF/aprobaciones-comerciales-recibidas?encf=${encf}`, {
      headers: { 'x-api-key': seller.key },
    });
    assert.equal(answer.status, 200, await answer.clone().text());
    const body = (await answer.json()) as {
      items: Array<{
        documentId: string | null;
        decision: string | null;
        status: string;
        correspondence: { result: string };
      }>;
    };
    return body.items[0];
  });
  assert.equal(approval.status, 'received');
  assert.equal(approval.decision, 'accepted');
  assert.equal(approval.documentId, documentId);
  assert.equal(approval.correspondence.result, 'matched');
  // The simulator has the ACECF too (sent to the tax authority before the issuer).
  const { rows: sent } = await pool.query<{
    taxauth: string;
    dispatch: string;
  }>(
    `SELECT taxauth_status AS taxauth, dispatch_status::text AS dispatch FROM commercial_approvals
      WHERE inbound_document_id = $1 AND superseded_at IS NULL`,
    [inboundDocumentId],
  );
  assert.deepEqual(sent[0], { taxauth: 'accepted', dispatch: 'sent' });
});
