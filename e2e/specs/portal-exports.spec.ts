// Exports (issue 27 item 8): an accountant downloads the CSV and the Excel file of a month of issued
// documents from the documents page (Playwright's download event), with the amounts from the signed
// XML and an exact totals row; a large export (over 2,000 rows) shows "Preparando… N %" while the
// worker builds it, then downloads; the owner exports the audit log; a partner_admin walks the
// billing months and reads the quota meter and the billing link. Each state passes axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, Download, Page } from 'playwright-core';
import { artifactData } from '@ecf/db';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import {
  closeDatabase,
  seedPartnerAdmin,
  seedPartnerFiscalAccount,
  seedPortalTenant,
  stackDatabase,
} from '../support/seed.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

/** The CSV's lines split on commas (these rows quote nothing) after its BOM. */
async function csvOf(download: Download): Promise<string[][]> {
  const bytes = await readFile(await download.path());
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
  return bytes
    .subarray(3)
    .toString('utf8')
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

/** Fills the export form of the page and clicks Exportar, returning the download it starts. */
async function exportFile(page: Page, options: { month?: string; format: 'CSV' | 'Excel'; scope?: RegExp }) {
  const form = page.getByRole('form', { name: 'Exportar' });
  if (options.scope) await form.getByLabel(options.scope).check();
  if (options.month) await form.getByLabel('Mes', { exact: true }).fill(options.month);
  await form.getByLabel(options.format === 'CSV' ? /CSV \(Excel/ : /Excel \(\.xlsx\)/).check();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    form.getByRole('button', { name: 'Exportar' }).click(),
  ]);
  return download;
}

test('CSV and Excel of a month from the documents page, a large export with its progress, the audit log export', async () => {
  const { tenant, owner, members } = await seedPortalTenant({
    tradeName: 'Exportadora Prueba',
    members: [{ name: 'Carla Contadora', role: 'accountant' }],
  });
  const accountant = members[0];
  assert.ok(accountant);
  const database = stackDatabase();
  // October 2026: three accepted E31 with their signed XML (the export reads the amounts there),
  // and one of September 30 that the month leaves out.
  const documents = [
    {
      encf: 'E310000000501',
      day: '2026-10-01',
      buyer: 'Ferretería Los Pinos SRL',
      taxable: '1000.10',
      itbis: '180.02',
      total: '1180.12',
    },
    {
      encf: 'E310000000502',
      day: '2026-10-15',
      buyer: 'Colmado Ñandú',
      taxable: '2000.20',
      itbis: '360.04',
      total: '2360.24',
    },
    {
      encf: 'E310000000503',
      day: '2026-10-31',
      buyer: 'Farmacia Central',
      taxable: '0.10',
      itbis: '0.02',
      total: '0.12',
    },
    {
      encf: 'E310000000504',
      day: '2026-09-30',
      buyer: 'Fuera del mes',
      taxable: '5.00',
      itbis: '0.90',
      total: '5.90',
    },
  ];
  for (const [index, row] of documents.entries()) {
    const document = await database.document.create({
      data: {
        tenantId: tenant.id,
        environment: 'TesteCF',
        type: 31,
        encf: row.encf,
        status: 'accepted',
        format: 'simplified',
        issueDate: new Date(row.day),
        totalAmount: row.total,
        buyerRnc: '101672919',
        submittedPayload: {},
        submittedAt: new Date(Date.parse('2026-11-01T12:00:00Z') + index * 60_000),
      },
    });
    await database.artifact.create({
      data: artifactData({
        tenantId: tenant.id,
        documentId: document.id,
        kind: 'signed_xml',
        contentType: 'application/xml',
        content:
          `<ECF><Encabezado><IdDoc><TipoeCF>31</TipoeCF><eNCF>${row.encf}</eNCF></IdDoc>` +
          `<Comprador><RNCComprador>101672919</RNCComprador><RazonSocialComprador>${row.buyer}</RazonSocialComprador></Comprador>` +
          `<Totales><MontoGravadoTotal>${row.taxable}</MontoGravadoTotal><TotalITBIS>${row.itbis}</TotalITBIS>` +
          `<MontoTotal>${row.total}</MontoTotal></Totales></Encabezado></ECF>`,
      }),
    });
  }
  // August 2026: 5,000 documents (over the 2,000 built in the request): the worker builds that one.
  await database.document.createMany({
    data: Array.from({ length: 5_000 }, (_, index) => ({
      tenantId: tenant.id,
      environment: 'TesteCF' as const,
      type: 32,
      encf: `E32${String(700_000 + index).padStart(10, '0')}`,
      status: 'accepted' as const,
      format: 'simplified' as const,
      issueDate: new Date('2026-08-10'),
      totalAmount: '100.01',
      submittedPayload: {},
      submittedAt: new Date(Date.parse('2026-08-10T12:00:00Z') + index * 1000),
    })),
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, accountant);
  await page.goto(portalUrl('/TesteCF/documents'));
  await page.getByRole('heading', { name: 'Documentos emitidos' }).waitFor();

  // CSV of October: three rows, newest first, and the totals row exact to the cent.
  const csv = await exportFile(page, { month: '2026-10', format: 'CSV' });
  assert.equal(csv.suggestedFilename(), 'emitidos-TesteCF-2026-10.csv');
  const rows = await csvOf(csv);
  assert.deepEqual(rows[0]?.slice(0, 3), ['e-NCF', 'Tipo', 'Fecha de emisión']);
  assert.deepEqual(
    rows.slice(1).map((row) => [row[0], row[4], row[6], row[8], row[9]]),
    [
      ['E310000000503', 'Farmacia Central', '0.10', '0.02', '0.12'],
      ['E310000000502', 'Colmado Ñandú', '2000.20', '360.04', '2360.24'],
      ['E310000000501', 'Ferretería Los Pinos SRL', '1000.10', '180.02', '1180.12'],
      ['Totales', '', '3000.40', '540.08', '3540.48'],
    ],
  );
  assert.equal(rows[4]?.[1], '3 documentos');
  await page.getByRole('link', { name: /Descargar emitidos-TesteCF-2026-10\.csv/ }).waitFor();
  await checkPage(page, 'exports-documents-csv');

  // Excel of the same month: a workbook whose sheet holds numeric cells and the same totals.
  const xlsx = await exportFile(page, { month: '2026-10', format: 'Excel' });
  assert.equal(xlsx.suggestedFilename(), 'emitidos-TesteCF-2026-10.xlsx');
  const parts = unzipSync(new Uint8Array(await readFile(await xlsx.path())));
  const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
  assert.match(sheet, /<c r="G5" s="3"><v>3000\.40<\/v><\/c>/);
  assert.match(sheet, /<c r="J5" s="3"><v>3540\.48<\/v><\/c>/);
  assert.ok(sheet.includes('Colmado Ñandú'));

  // August: 5,000 rows, built by the worker while the panel shows its progress, then downloaded.
  const form = page.getByRole('form', { name: 'Exportar' });
  await form.getByLabel('Mes', { exact: true }).fill('2026-08');
  await form.getByLabel(/CSV \(Excel/).check();
  const large = page.waitForEvent('download', { timeout: 90_000 });
  await form.getByRole('button', { name: 'Exportar' }).click();
  await page.getByText(/Preparando… \d+ %/).waitFor({ timeout: 30_000 });
  await page.getByRole('progressbar', { name: 'Progreso de la exportación' }).waitFor();
  await checkPage(page, 'exports-documents-progress');
  const largeDownload = await large;
  assert.equal(largeDownload.suggestedFilename(), 'emitidos-TesteCF-2026-08.csv');
  const largeRows = await csvOf(largeDownload);
  assert.equal(largeRows.length, 1 + 5_000 + 1);
  assert.deepEqual(largeRows.at(-1)?.slice(0, 2), ['Totales', '5000 documentos']);
  assert.equal(largeRows.at(-1)?.[9], '500050.00');
  const exportRow = await database.portalExport.findFirstOrThrow({
    where: { tenantId: tenant.id, fileName: 'emitidos-TesteCF-2026-08.csv' },
  });
  assert.deepEqual([exportRow.status, exportRow.rowsDone, exportRow.rowsTotal], ['ready', 5_000, 5_000]);
  assertNoConsoleErrors(problems);

  // The accountant's file is theirs alone: the owner of the same tenant gets 404 for it.
  const ownerPage = await newPortalPage(browser);
  await signIn(ownerPage.page, owner);
  const foreign = await ownerPage.page.context().request.get(portalUrl(`/api/exports/${exportRow.id}`));
  assert.equal(foreign.status(), 404);

  // The owner exports the audit log (all of it, one action): the accountant's three exports are there.
  await ownerPage.page.goto(portalUrl('/audit-log'));
  await ownerPage.page.getByRole('heading', { name: 'Registro de auditoría' }).waitFor();
  await ownerPage.page
    .getByRole('form', { name: 'Exportar' })
    .getByLabel('Acción')
    .selectOption('export.created');
  const audit = await exportFile(ownerPage.page, { format: 'CSV', scope: /Todo el registro/ });
  assert.equal(audit.suggestedFilename(), 'auditoria-todo.csv');
  const auditText = (await readFile(await audit.path())).toString('utf8');
  const auditLines = auditText.split('\r\n').filter((line) => line !== '');
  assert.equal(auditLines.length, 1 + 3);
  assert.ok(
    auditLines.slice(1).every((line) => line.includes('Exportó datos') && line.includes('Carla Contadora')),
  );
  await checkPage(ownerPage.page, 'exports-audit-log');
  assertNoConsoleErrors(ownerPage.problems);
  await ownerPage.context.close();
});

test('Partner billing: the month picker (previous, next, the list) and the quota meter with the billing link', async () => {
  const database = stackDatabase();
  const { partner, admin } = await seedPartnerAdmin();
  await database.partner.update({ where: { id: partner.id }, data: { plan: 'growth' } });
  const first = await seedPartnerFiscalAccount(partner.id);
  const second = await seedPartnerFiscalAccount(partner.id);
  const month = new Date(Date.now() - 4 * 3_600_000).toISOString().slice(0, 7);
  const [year = 0, number = 1] = month.split('-').map(Number);
  const previous = new Date(Date.UTC(year, number - 2, 1)).toISOString().slice(0, 7);
  await database.partnerUsageCounter.createMany({
    data: [
      { partnerId: partner.id, month, tenantId: first.id, accepted: 1_000 },
      { partnerId: partner.id, month, tenantId: second.id, accepted: 234 },
      { partnerId: partner.id, month: previous, tenantId: first.id, accepted: 77 },
    ],
  });
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, admin);
  await page.goto(portalUrl('/partner/billing'));
  await page.getByRole('heading', { name: 'Consumo' }).waitFor();
  const meter = page.getByRole('meter', { name: 'Cuota del plan usada' });
  assert.equal(await meter.getAttribute('aria-valuetext'), '1,234 de 10,000');
  assert.equal(await meter.getAttribute('value'), '1234');
  await page.getByText('1,234 de 10,000 e-CF aceptados').waitFor();
  await page.getByText('Quedan 8,766 e-CF en este mes.').waitFor();
  assert.equal(
    await page.getByRole('link', { name: 'Ver facturas y pagos' }).getAttribute('href'),
    'https://billing.example.com',
  );
  // No month after the current one.
  assert.equal(
    await page.getByRole('navigation', { name: 'Elegir el mes' }).getByRole('link', { name: /→$/ }).count(),
    0,
  );
  await checkPage(page, 'partner-billing');

  // Previous month by its link, then back to the current one through the list.
  await page.getByRole('navigation', { name: 'Elegir el mes' }).getByRole('link', { name: /^←/ }).click();
  await page.waitForURL(new RegExp(`month=${previous}`));
  await page.getByText('77 de 10,000 e-CF aceptados').waitFor();
  await page.getByRole('navigation', { name: 'Elegir el mes' }).getByRole('link', { name: /→$/ }).waitFor();
  await page.getByLabel('Mes', { exact: true }).selectOption(month);
  await page.getByRole('button', { name: 'Ver' }).click();
  await page.waitForURL(new RegExp(`month=${month}`));
  await page.getByText('1,234 de 10,000 e-CF aceptados').waitFor();
  assertNoConsoleErrors(problems);
});
