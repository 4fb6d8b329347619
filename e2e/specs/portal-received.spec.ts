// Received documents (issue 18, task L): an accountant opens "Recibidos", filters by situation
// through the URL, opens a received e-CF (supplier, amounts, signer, validity, deadline) and
// downloads its XML exactly as the supplier sent it (byte-order mark included); "Aprobaciones
// recibidas" lists a customer's rejection with its reason. Another tenant gets not found for the
// page and the download. Each page passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { seedInbound } from '@ecf/db';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, stackDatabase } from '../support/seed.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

test('Recibidos: list, filter, item, XML as sent; Aprobaciones recibidas; not found for another tenant', async () => {
  const { tenant, members } = await seedPortalTenant({
    tradeName: 'Compradora Prueba',
    members: [{ name: 'Ana Contadora', role: 'accountant' }],
  });
  const accountant = members[0];
  assert.ok(accountant);
  const bytes = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from(
      '<?xml version="1.0" encoding="utf-8"?>\n<ECF xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>',
    ),
  ]);
  const pending = await seedInbound(stackDatabase(), {
    tenantId: tenant.id,
    buyerRnc: tenant.rnc,
    issuerName: 'Suplidora del Caribe SRL',
    issueDate: '2026-11-02',
    totalAmount: '25300.75',
    xml: bytes,
    signer: { holderId: '00112345678', subject: 'CN=Juan Firmante', matchesIssuer: false },
    taxauthValidity: {
      status: 'valid',
      codigo: 1,
      estado: 'Aceptado',
      checkedAt: '2026-11-03T12:00:00.000Z',
    },
  });
  await seedInbound(stackDatabase(), {
    tenantId: tenant.id,
    status: 'not_received',
    notReceivedCode: 2,
    notReceivedReason: 'La firma no es válida.',
    xml: null,
  });
  const approval = await seedInbound(stackDatabase(), {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    issuerRnc: tenant.rnc,
    buyerRnc: '101000001',
    decision: 'rejected',
    decisionReason: 'Mercancía incompleta',
    decidedAtText: '05-11-2026 10:00:00',
    correspondence: { result: 'ecf_not_found' },
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, accountant);
  await page.goto(portalUrl('/TesteCF/received'));
  await page.getByRole('heading', { name: 'Recibidos', level: 1 }).waitFor();
  const row = page.getByRole('row', { name: new RegExp(pending.encf) });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /RD\$ 25,300\.75/);
  assert.match((await row.textContent()) ?? '', /Pendiente de aprobación comercial/);
  await checkPage(page, 'received');

  await page.getByLabel('Situación').selectOption('not_received');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL((url) => url.searchParams.get('group') === 'not_received');
  assert.equal(await page.getByRole('row', { name: new RegExp(pending.encf) }).count(), 0);
  await page
    .getByRole('row', { name: /No recibido/ })
    .first()
    .waitFor();

  await page.goto(portalUrl(`/TesteCF/received/${pending.id}`));
  await page.getByRole('heading', { name: `Recibido ${pending.encf}` }).waitFor();
  await page.getByText('Suplidora del Caribe SRL').first().waitFor();
  await page.getByText('Válido (Aceptado)').waitFor();
  await page.getByText(/no es el emisor/).waitFor();
  await page.getByText(/Plazo para aceptar o rechazar/).waitFor();
  await checkPage(page, 'received-document');
  const xml = await page
    .context()
    .request.get(portalUrl(`/api/received/${pending.id}/xml?environment=TesteCF`));
  assert.equal(xml.status(), 200);
  assert.ok((await xml.body()).equals(bytes), 'the XML byte for byte, BOM included');
  assert.match(xml.headers()['content-disposition'] ?? '', new RegExp(`131880681${pending.encf}\\.xml`));

  await page.goto(portalUrl('/TesteCF/received-approvals'));
  await page.getByRole('heading', { name: 'Aprobaciones recibidas', level: 1 }).waitFor();
  const approvalRow = page.getByRole('row', { name: new RegExp(approval.encf) });
  await approvalRow.waitFor();
  assert.match((await approvalRow.textContent()) ?? '', /Rechazado/);
  await checkPage(page, 'received-approvals');
  await page.goto(portalUrl(`/TesteCF/received-approvals/${approval.id}`));
  await page.getByText('Mercancía incompleta').waitFor();
  await checkPage(page, 'received-approval');
  assertNoConsoleErrors(problems);

  const other = await seedPortalTenant({ tradeName: 'Otra Compradora' });
  const intruder = await newPortalPage(browser);
  await signIn(intruder.page, other.owner);
  const answer = await intruder.page.goto(portalUrl(`/TesteCF/received/${pending.id}`));
  assert.equal(answer?.status(), 404);
  const download = await intruder.page
    .context()
    .request.get(portalUrl(`/api/received/${pending.id}/xml?environment=TesteCF`));
  assert.equal(download.status(), 404);
  await intruder.context.close();
});
