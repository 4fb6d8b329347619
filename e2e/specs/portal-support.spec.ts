// Support desk: the tax authority's reception fails (a simulator fault), a document emitted through
// the REST API goes to contingency, and a support user sees it on the desk and downloads its
// evidence bundle, whose manifest the test checks file by file (SHA-256 and size). The tenant's
// owner reads support's views in the audit log; another tenant's owner gets 404 for the bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser } from 'playwright-core';
import { seedApiKey } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, seedPortalUser, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

/** Today in Dominican time (UTC-4), `YYYY-MM-DD`. */
function dominicanToday(): string {
  return new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
}

function simplifiedE31(encf: string): Record<string, unknown> {
  const year = Number(dominicanToday().slice(0, 4));
  return {
    type: 'E31',
    encf,
    sequenceExpirationDate: `31-12-${year + 1}`,
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Cemento gris', quantity: 2, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
}

async function waitForStatus(documentId: string, status: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let current: string | undefined;
  while (Date.now() < deadline) {
    current = (await stackDatabase().document.findUnique({ where: { id: documentId } }))?.status;
    if (current === status) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  assert.fail(`document ${documentId} is ${current ?? 'absent'}, not ${status}`);
}

test('support sees a document in contingency after a simulator fault and downloads its evidence bundle', async () => {
  const { simulatorUrl, apiUrl, secrets } = stack();
  const { tenant, owner } = await seedPortalTenant({ tradeName: 'Distribuidora en Contingencia' });
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante de prueba' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  const { key } = await seedApiKey(stackDatabase(), { tenantId: tenant.id, environment: 'TesteCF' });

  // The e-CF reception of TesteCF answers 503 until the fault is cleared.
  const fault = await fetch(`${simulatorUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: 'testecf', service: 'recepcion', fault: 'http_503' }),
  });
  assert.equal(fault.status, 201, await fault.clone().text());
  const { id: faultId } = (await fault.json()) as { id: string };
  try {
    const encf = `E31${String(Date.now()).slice(-10)}`;
    const emitted = await fetch(`${apiUrl}/TesteCF/documentos-ecf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(simplifiedE31(encf)),
    });
    const emission = (await emitted.json()) as { documentId?: string };
    assert.equal(emitted.status, 202, JSON.stringify(emission));
    const documentId = emission.documentId;
    assert.ok(documentId);
    await waitForStatus(documentId, 'contingency');

    const support = await seedPortalUser({ name: 'Sonia Soporte', isSupport: true });
    const desk = await newPortalPage(browser);
    await signIn(desk.page, support);
    // Support belongs to no tenant: the portal opens on the account chooser, whose menu has the desk.
    await desk.page.goto(portalUrl('/'));
    await desk.page.waitForURL((url) => url.pathname === '/accounts');
    await desk.page
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Mesa de soporte' })
      .click();
    await desk.page.waitForURL((url) => url.pathname === '/support');
    await desk.page.getByRole('heading', { name: 'Mesa de soporte', level: 1 }).waitFor();
    const row = desk.page.getByRole('row', { name: new RegExp(encf) });
    await row.waitFor();
    const rowText = (await row.textContent()) ?? '';
    assert.match(rowText, /Distribuidora en Contingencia/);
    assert.match(rowText, /TesteCF/);
    // The outage episode is on the timeline, open.
    await desk.page.getByText('La DGII no responde').waitFor();
    await checkPage(desk.page, 'support-desk');

    // By keyboard, as a support agent tabbing through the desk would: the row's countdown ticks every
    // second, and Playwright's pointer check kept finding the cell, not the link, mid-update.
    const zipLink = row.getByRole('link', { name: /Descargar ZIP/ });
    await zipLink.focus();
    const [download] = await Promise.all([
      desk.page.waitForEvent('download'),
      desk.page.keyboard.press('Enter'),
    ]);
    assert.equal(download.suggestedFilename(), `evidencia-${encf}-TesteCF.zip`);
    const files = unzipSync(new Uint8Array(await readFile(await download.path())));
    const manifestBytes = files['manifest.json'];
    assert.ok(manifestBytes, 'manifest.json is in the bundle');
    const manifest = JSON.parse(strFromU8(manifestBytes)) as {
      documentId: string;
      encf: string;
      generatedAt: string;
      files: Array<{ name: string; size: number; sha256: string }>;
    };
    assert.equal(manifest.documentId, documentId);
    assert.equal(manifest.encf, encf);
    assert.ok(!Number.isNaN(Date.parse(manifest.generatedAt)));
    assert.deepEqual(
      manifest.files.map((file) => file.name).sort(),
      Object.keys(files)
        .filter((name) => name !== 'manifest.json')
        .sort(),
      'the manifest lists every file of the ZIP',
    );
    for (const name of ['signed.xml', 'document.json', 'events.json', 'buyer-email-attempts.json'])
      assert.ok(files[name], `${name} is in the bundle`);
    for (const file of manifest.files) {
      const content = files[file.name];
      assert.ok(content, file.name);
      assert.equal(content.byteLength, file.size, `size of ${file.name}`);
      assert.equal(
        createHash('sha256').update(content).digest('hex'),
        file.sha256,
        `SHA-256 of ${file.name}`,
      );
    }
    const events = JSON.parse(strFromU8(files['events.json'] ?? new Uint8Array())) as Array<{ type: string }>;
    assert.ok(events.some((event) => event.type === 'contingency'));
    assertNoConsoleErrors(desk.problems);

    // The tenant's owner reads support's views (the desk's list and the bundle) in the audit log.
    const views = await stackDatabase().portalAuditEntry.findMany({
      where: { tenantId: tenant.id, action: 'support.viewed', actorUserId: support.id },
    });
    const seen = new Set(views.map((view) => view.targetId));
    assert.ok(seen.has('support.contingency'), [...seen].join(', '));
    assert.ok(seen.has('documents.evidence'), [...seen].join(', '));
    const ownerSide = await newPortalPage(browser);
    await signIn(ownerSide.page, owner);
    await ownerSide.page.goto(portalUrl('/audit-log'));
    await ownerSide.page.getByText('Consulta: Documentos · paquete de evidencia').first().waitFor();
    assert.ok(
      await ownerSide.page
        .getByText('Consulta: Mesa de soporte · documentos en contingencia')
        .first()
        .isVisible(),
    );

    // The owner downloads the same bundle; another tenant's owner gets 404 for it.
    const mine = await ownerSide.context.request.get(portalUrl(`/api/documents/${documentId}/evidence`));
    assert.equal(mine.status(), 200);
    assert.match(mine.headers()['content-disposition'] ?? '', /^attachment; filename="evidencia-/);
    const stranger = await seedPortalTenant({ tradeName: 'Otra Cuenta' });
    const strangerSide = await newPortalPage(browser);
    await signIn(strangerSide.page, stranger.owner);
    const refused = await strangerSide.context.request.get(
      portalUrl(`/api/documents/${documentId}/evidence`),
    );
    assert.equal(refused.status(), 404);
    for (const side of [desk, ownerSide, strangerSide]) await side.context.close();
  } finally {
    await fetch(`${simulatorUrl}/_sim/faults/${faultId}`, { method: 'DELETE' });
  }
});
