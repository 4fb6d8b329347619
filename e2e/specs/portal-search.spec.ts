// Search (issue 27): an accountant searches the issued list by e-NCF prefix, by the buyer's RNC or
// name and by an amount range through the URL, reads the total, pages forward and back; the
// header's "Ir a e-NCF o TrackId" opens an issued document (another environment) and a received
// one, and says so when nothing matches. Then "Recibidos" by the supplier's name and an amount
// range, annulments by e-NCF, support's tenant search on /accounts and a Partner's account search.
// Each state passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import {
  closeDatabase,
  seedPartnerAdmin,
  seedPartnerFiscalAccount,
  seedPortalTenant,
  seedPortalUser,
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

/** The e-NCF column of the list, top to bottom. */
async function listedEncfs(page: Page): Promise<string[]> {
  const table = page.getByRole('table', { name: /Documentos emitidos en/ });
  return (await table.locator('tbody th').allTextContents()).map((text) => text.trim());
}

test('search by e-NCF prefix, RNC and amount range, the total, next and previous pages, and Ir a e-NCF o TrackId', async () => {
  const { tenant, members } = await seedPortalTenant({
    tradeName: 'Buscadora Prueba',
    members: [{ name: 'Carla Contadora', role: 'accountant' }],
  });
  const accountant = members[0];
  assert.ok(accountant);
  // 24 documents in TesteCF a minute apart: E310000000201..224 (amounts 10.00..240.00, the even ones
  // to one buyer), E320000000301..303 besides, one in CerteCF and one received e-CF in eCF.
  const base = Date.parse('2026-11-20T12:00:00Z');
  const rows = Array.from({ length: 24 }, (_, index) => ({
    tenantId: tenant.id,
    environment: 'TesteCF' as const,
    type: 31,
    encf: `E3100000002${String(index + 1).padStart(2, '0')}`,
    status: 'accepted' as const,
    format: 'simplified' as const,
    issueDate: new Date('2026-11-20'),
    totalAmount: `${(index + 1) * 10}.00`,
    buyerRnc: index % 2 === 1 ? '131234567' : '101672919',
    buyerName: index % 2 === 1 ? 'Juan Pérez Comercial' : 'Ferretería Ochoa',
    submittedPayload: {},
    submittedAt: new Date(base + index * 60_000),
  }));
  for (let index = 1; index <= 3; index += 1)
    rows.push({
      ...rows[0]!,
      type: 32,
      encf: `E32000000030${index}`,
      submittedAt: new Date(base - index * 60_000),
    });
  await stackDatabase().document.createMany({ data: rows });
  const certe = await stackDatabase().document.create({
    data: {
      ...rows[0]!,
      environment: 'CerteCF',
      encf: 'E310000000900',
      trackId: `buscar-${tenant.id}`,
    },
  });
  const received = await stackDatabase().inboundDocument.create({
    data: {
      tenantId: tenant.id,
      environment: 'eCF',
      kind: 'ecf',
      status: 'received',
      issuerRnc: '131234567',
      issuerName: 'Proveedor Prueba',
      encf: 'E310000000950',
      ecfType: 31,
    },
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, accountant);
  await page.goto(portalUrl('/TesteCF/documents'));
  await page.getByRole('heading', { name: 'Documentos emitidos' }).waitFor();
  await page.getByText('27 comprobantes').waitFor();

  // e-NCF prefix, in lower case: the 24 E31, newest first; 10 a page.
  await page.getByLabel('Buscar').fill('e31000000020');
  await page.getByLabel('Por página').selectOption('10');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL(/q=e31000000020/);
  await page.getByText('9 comprobantes').waitFor();
  assert.deepEqual(await listedEncfs(page), [
    'E310000000209',
    'E310000000208',
    'E310000000207',
    'E310000000206',
    'E310000000205',
    'E310000000204',
    'E310000000203',
    'E310000000202',
    'E310000000201',
  ]);
  assert.equal(await page.getByRole('link', { name: 'Anterior' }).count(), 0);
  await checkPage(page, 'documents-search-prefix');

  // The buyer's RNC with its dashes: its 12 documents, over two pages; forward, then back.
  await page.getByLabel('Buscar').fill('131-23456-7');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL(/q=131-23456-7/);
  await page.getByText('12 comprobantes').waitFor();
  const firstPage = await listedEncfs(page);
  assert.equal(firstPage.length, 10);
  assert.equal(firstPage[0], 'E310000000224');
  await page.getByRole('link', { name: 'Página siguiente' }).click();
  await page.waitForURL(/cursor=/);
  assert.deepEqual(await listedEncfs(page), ['E310000000204', 'E310000000202']);
  assert.equal(await page.getByLabel('Buscar').inputValue(), '131-23456-7');
  await checkPage(page, 'documents-search-rnc-second-page');
  await page.getByRole('link', { name: 'Anterior' }).click();
  await page.waitForURL(/before=/);
  assert.deepEqual(await listedEncfs(page), firstPage);
  assert.equal(await page.getByRole('link', { name: 'Anterior' }).count(), 0);

  // An amount range (decimal text, bounds included) with the type filter.
  await page.goto(portalUrl('/TesteCF/documents?amountMin=50&amountMax=80.00&limit=10'));
  await page.getByText('4 comprobantes').waitFor();
  assert.deepEqual(await listedEncfs(page), [
    'E310000000208',
    'E310000000207',
    'E310000000206',
    'E310000000205',
  ]);
  assert.equal(await page.getByLabel('Monto mínimo').inputValue(), '50');
  // A reversed range, and a search text that is none of them (too short for a name), say what is wrong.
  await page.goto(portalUrl('/TesteCF/documents?amountMin=90&amountMax=80'));
  await page.getByText('El monto mínimo no puede ser mayor que el máximo.').waitFor();
  // Part of the buyer's name, any case: the 12 documents of Juan Pérez.
  await page.goto(portalUrl('/TesteCF/documents?q=juan+p%C3%A9rez'));
  await page.getByText('12 comprobantes').waitFor();
  assert.equal((await listedEncfs(page))[0], 'E310000000224');
  await page.goto(portalUrl('/TesteCF/documents?q=ab'));
  await page.getByText(/Busque por e-NCF/).waitFor();
  await checkPage(page, 'documents-search-invalid');

  // The header box: an issued document in CerteCF by its TrackId, a received one by its e-NCF.
  const jump = page.getByRole('search', { name: 'Ir a un comprobante' });
  await jump.getByLabel('Ir a e-NCF o TrackId').fill(`buscar-${tenant.id}`);
  await jump.getByRole('button', { name: 'Ir' }).click();
  await page.waitForURL(new RegExp(`/CerteCF/documents/${certe.id}$`));
  await page.getByText('E310000000900').first().waitFor();
  await jump.getByLabel('Ir a e-NCF o TrackId').fill('e310000000950');
  await jump.getByRole('button', { name: 'Ir' }).click();
  await page.waitForURL(new RegExp(`/eCF/received/${received.id}$`));
  // The shell follows: eCF is the current environment, "Recibidos" the current entry.
  assert.equal(
    await page.getByRole('navigation', { name: 'Entorno' }).locator('[aria-current="page"]').textContent(),
    'eCF',
  );
  assert.equal(
    await page.getByRole('navigation', { name: 'Principal' }).locator('[aria-current="page"]').textContent(),
    'Recibidos',
  );
  // Nothing with that e-NCF in this account: said on the field, the page stays.
  await jump.getByLabel('Ir a e-NCF o TrackId').fill('E319999999999');
  await jump.getByRole('button', { name: 'Ir' }).click();
  await page.getByText('No encontramos ningún comprobante con ese e-NCF o TrackId en esta cuenta.').waitFor();
  assert.match(page.url(), new RegExp(`/eCF/received/${received.id}$`));
  await checkPage(page, 'document-jump-not-found');
  assertNoConsoleErrors(problems);
});

/** The first column of a table (its row headers), top to bottom. */
async function rowHeaders(page: Page, table: RegExp | string): Promise<string[]> {
  return (await page.getByRole('table', { name: table }).locator('tbody th').allTextContents()).map((text) =>
    text.trim(),
  );
}

test('Recibidos by supplier name and amount, annulments by e-NCF, support tenant search, Partner account search', async () => {
  const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
  const { tenant, owner } = await seedPortalTenant({ tradeName: `Receptora ${stamp}` });
  const database = stackDatabase();
  // Received in TesteCF: three from "Distribuidora Corripio" (100, 200, 300), one from another supplier.
  const base = Date.parse('2026-11-20T12:00:00Z');
  for (const [index, [name, rnc, amount]] of [
    ['Distribuidora Corripio', '131880681', '100.00'],
    ['Ferretería Ochoa', '101010101', '150.00'],
    ['distribuidora corripio', '131880681', '200.00'],
    ['Distribuidora Corripio', '131880681', '300.00'],
  ].entries())
    await database.inboundDocument.create({
      data: {
        tenantId: tenant.id,
        environment: 'TesteCF',
        kind: 'ecf',
        status: 'received',
        issuerRnc: rnc!,
        issuerName: name!,
        encf: `E31000000040${index + 1}`,
        ecfType: 31,
        totalAmount: amount!,
        receivedAt: new Date(base + index * 60_000),
      },
    });
  // Two accepted annulments: E310000000550-559 and E320000000100.
  for (const [type, first, last] of [
    ['31', 550, 559],
    ['32', 100, 100],
  ] as const) {
    const encfOf = (number: number) => `E${type}${String(number).padStart(10, '0')}`;
    await database.annulment.create({
      data: {
        tenantId: tenant.id,
        environment: 'TesteCF',
        idempotencyKey: `buscar-${type}-${stamp}`,
        requestFingerprint: 'f'.repeat(64),
        request: { ranges: [{ type, from: encfOf(first), to: encfOf(last) }], reason: 'Serie retirada' },
        state: 'accepted',
        ranges: {
          create: [
            {
              tenantId: tenant.id,
              environment: 'TesteCF',
              type: Number(type),
              prefix: `E${type}`,
              firstEncf: encfOf(first),
              lastEncf: encfOf(last),
              firstNumber: first,
              lastNumber: last,
              active: true,
            },
          ],
        },
      },
    });
  }

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  // Recibidos: part of the supplier's name in any case, then an amount range with it.
  await page.goto(portalUrl('/TesteCF/received?q=DISTRIBUIDORA+corripio'));
  await page.getByText('3 comprobantes recibidos').waitFor();
  assert.deepEqual(await rowHeaders(page, /Documentos recibidos en/), [
    'E310000000404',
    'E310000000403',
    'E310000000401',
  ]);
  await page.getByLabel('Monto mínimo').fill('150');
  await page.getByLabel('Monto máximo').fill('250.00');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL(/amountMin=150/);
  await page.getByText('1 comprobante recibido').waitFor();
  assert.deepEqual(await rowHeaders(page, /Documentos recibidos en/), ['E310000000403']);
  await checkPage(page, 'received-search');

  // Annulments: the one whose range holds the e-NCF; a text that is no e-NCF says so on its field.
  await page.goto(portalUrl('/TesteCF/annulments'));
  await page.getByText('2 anulaciones').waitFor();
  await page.getByLabel('Buscar por e-NCF').fill('e310000000555');
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await page.waitForURL(/q=e310000000555/);
  await page.getByText('1 anulación').waitFor();
  assert.match(
    (await page.getByRole('table', { name: 'Anulaciones enviadas' }).locator('tbody').textContent()) ?? '',
    /E310000000550 – E310000000559/,
  );
  await checkPage(page, 'annulments-search');
  await page.goto(portalUrl('/TesteCF/annulments?q=Corripio'));
  await page.getByText('Busque por e-NCF o su inicio (p. ej. E310000000001 o E31).').first().waitFor();

  // Support: any tenant by part of its name or the start of its RNC.
  const support = await seedPortalUser({ name: 'Sonia Soporte', isSupport: true });
  const { page: supportPage, problems: supportProblems } = await newPortalPage(browser);
  await signIn(supportPage, support);
  await supportPage.goto(portalUrl('/accounts'));
  await supportPage.getByLabel('Buscar cuenta', { exact: true }).fill(`receptora ${stamp}`);
  await supportPage.getByRole('button', { name: 'Buscar', exact: true }).click();
  await supportPage.waitForURL(/q=receptora/);
  await supportPage.getByText('1 cuenta', { exact: true }).waitFor();
  assert.deepEqual(await rowHeaders(supportPage, 'Cuentas disponibles'), [`Receptora ${stamp}`]);
  await checkPage(supportPage, 'accounts-support-search');
  await supportPage.goto(portalUrl(`/accounts?q=${tenant.rnc.slice(0, 7)}`));
  assert.ok((await rowHeaders(supportPage, 'Cuentas disponibles')).includes(`Receptora ${stamp}`));

  // A Partner: its own accounts only, by part of the name or the start of the RNC.
  const { partner, admin } = await seedPartnerAdmin();
  const account = await seedPartnerFiscalAccount(partner.id);
  await seedPartnerFiscalAccount(partner.id);
  const { page: partnerPage, problems: partnerProblems } = await newPortalPage(browser);
  await signIn(partnerPage, admin);
  await partnerPage.goto(portalUrl(`/partner/accounts?q=${account.rnc}`));
  await partnerPage.getByText('1 cuenta encontrada').waitFor();
  assert.deepEqual(await rowHeaders(partnerPage, 'Cuentas fiscales del Partner'), [
    `Cliente ${account.rnc} SRL`,
  ]);
  await partnerPage.goto(portalUrl('/partner/accounts?q=Receptora'));
  await partnerPage.getByText(/Ninguna cuenta coincide/).waitFor();
  await checkPage(partnerPage, 'partner-accounts-search');
  assertNoConsoleErrors(problems);
  assertNoConsoleErrors(supportProblems);
  assertNoConsoleErrors(partnerProblems);
});
