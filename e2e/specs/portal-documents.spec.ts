// Documents and Try it: a developer runs the preflight on a broken example (a field error), emits
// a valid one in TesteCF and watches it reach `accepted` (simulator and worker running); the
// document's page shows each step, its PDF downloads, the list filters by status through the URL.
// Another tenant's owner gets not found for the document's page and its download. Each page passes
// axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
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

test('Try it: preflight errors on their fields, an emission that reaches accepted, its timeline, PDF and the filtered list; not found for another tenant', async () => {
  const { tenant, members } = await seedPortalTenant({
    tradeName: 'Distribuidora Prueba',
    members: [{ name: 'Dana Desarrolladora', role: 'developer' }],
  });
  const developer = members[0];
  assert.ok(developer);
  // The worker signs with the tenant's certificate (the stack's master key seals it).
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Prueba' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({ currentKey: stack().secrets.CERTIFICATE_MASTER_KEY ?? '' }),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, developer);
  await page.goto(portalUrl('/TesteCF/try-it'));
  await page.getByRole('heading', { name: 'Probar la emisión' }).waitFor();
  await checkPage(page, 'try-it');

  // A broken example: the preflight names the field.
  await page.getByLabel('Ejemplo').selectOption('e31-broken');
  await page.getByRole('button', { name: 'Cargar ejemplo' }).click();
  await page.getByRole('button', { name: 'Prevalidar' }).click();
  const errors = page.getByRole('table', { name: 'Errores por campo' });
  await errors.waitFor();
  const unitPrice = errors.getByRole('row', { name: /lines\[0\]\.unitPrice/ });
  assert.match((await unitPrice.textContent()) ?? '', /DECIMAL_FORMAT_INVALID/);
  await checkPage(page, 'try-it-preflight-errors');

  // A valid one: preflight passes, the emission reaches accepted while the page watches.
  await page.getByLabel('Ejemplo').selectOption('e31');
  await page.getByRole('button', { name: 'Cargar ejemplo' }).click();
  await page.getByRole('button', { name: 'Prevalidar' }).click();
  await page.getByText('pasó la prevalidación').waitFor();
  await page.getByRole('button', { name: 'Emitir en TesteCF' }).click();
  await page.getByText('fue recibido y se está firmando').waitFor();
  const status = page.getByTestId('try-it-status');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="try-it-status"]')?.getAttribute('data-status') === 'accepted',
    undefined,
    { timeout: 60_000 },
  );
  assert.match((await status.textContent()) ?? '', /Aceptado/);
  await checkPage(page, 'try-it-accepted');

  // The document's page: each step of its life on the timeline.
  await page.getByRole('link', { name: /Ver el documento/ }).click();
  await page.waitForURL(/\/TesteCF\/documents\/[0-9a-f-]{36}$/);
  const documentPath = new URL(page.url()).pathname;
  const documentId = documentPath.split('/').at(-1) ?? '';
  const timeline = page.getByRole('list', { name: 'Eventos del documento' });
  for (const step of [
    'Recibido por el servicio',
    'Firmado',
    'Intento de envío a la DGII',
    'Aceptado por la DGII',
  ])
    await timeline.getByText(step, { exact: true }).first().waitFor();
  const types = await timeline
    .locator('li[data-event-type]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-event-type')));
  for (const type of ['submitted', 'signed', 'transmission_attempt', 'accepted'])
    assert.ok(types.includes(type), `timeline lacks ${type}: ${types.join(', ')}`);
  await checkPage(page, 'document');

  // Downloads through the API's use-cases: a PDF, and the signed XML.
  const pdf = await page
    .context()
    .request.get(portalUrl(`/api/documents/${documentId}/pdf?environment=TesteCF`));
  assert.equal(pdf.status(), 200);
  assert.equal(pdf.headers()['content-type'], 'application/pdf');
  assert.equal((await pdf.body()).subarray(0, 5).toString('latin1'), '%PDF-');
  const xml = await page
    .context()
    .request.get(portalUrl(`/api/documents/${documentId}/xml?environment=TesteCF`));
  assert.equal(xml.status(), 200);
  assert.match((await xml.body()).toString('utf8'), /<ECF[\s>]/);

  // The list filters by status through the URL (a GET form).
  await page.goto(portalUrl('/TesteCF/documents'));
  await page.getByLabel('Estado').selectOption('accepted');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL((url) => url.searchParams.get('status') === 'accepted');
  const row = page.getByRole('row', { name: /E31\d{10}/ });
  await row.first().waitFor();
  assert.match((await row.first().textContent()) ?? '', /Aceptado/);
  assert.match((await row.first().textContent()) ?? '', /RD\$ 8,731\.00/);
  await checkPage(page, 'documents');
  await page.goto(portalUrl('/TesteCF/documents?status=rejected'));
  await page.getByText('Ningún comprobante coincide con los filtros.').waitFor();
  assertNoConsoleErrors(problems);

  // Another tenant's owner: not found, for the page and for the download.
  const other = await seedPortalTenant({ tradeName: 'Otra Empresa' });
  const intruder = await newPortalPage(browser);
  await signIn(intruder.page, other.owner);
  const answer = await intruder.page.goto(portalUrl(documentPath));
  assert.equal(answer?.status(), 404);
  await checkPage(intruder.page, 'document-not-found');
  const download = await intruder.page
    .context()
    .request.get(portalUrl(`/api/documents/${documentId}/pdf?environment=TesteCF`));
  assert.equal(download.status(), 404);
});
