// First steps (issue 27): a new account's overview lists its six first steps, all "Pendiente",
// each linking to where it is done; as the owner installs a certificate, creates a TesteCF key from
// the keys page's empty state, gets a test e-CF accepted and a webhook endpoint receives a test,
// the steps turn "Hecho"; with certification approved and production active the list collapses
// into one line. Empty lists say what to do next with one primary action that navigates, and eCF
// says production opens after certification until it is active. An accountant sees neither the key
// nor the webhook step, and no action they cannot take. Each page passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { seedDocument } from '@ecf/db';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, stackDatabase } from '../support/seed.ts';

let browser: Browser;
let server: Server | undefined;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await closeDatabase();
});

/** A local webhook receiver answering 200 (the stack allows private targets). */
async function startReceiver(): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/webhooks/ecf`;
}

/** The checklist's steps as "state · link text", in order. */
async function stepsOf(page: Page): Promise<string[]> {
  const items = page.getByRole('list', { name: 'Primeros pasos' }).getByRole('listitem');
  const texts: string[] = [];
  for (const item of await items.all()) {
    const state = ((await item.locator('span').first().textContent()) ?? '').trim();
    const link = ((await item.getByRole('link').textContent()) ?? '').trim();
    texts.push(`${state} · ${link}`);
  }
  return texts;
}

/** The scrolling region of the table named `caption` (where its empty state is), never its panel. */
function tableRegion(page: Page, caption: string) {
  return page.getByRole('table', { name: caption, exact: true }).locator('xpath=..');
}

/** Reloads the page until `done` holds (the worker delivers in the background). */
async function reloadUntil(page: Page, done: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await page.reload();
  }
  assert.fail(`timed out waiting for ${what}`);
}

let sequence = 0;
const encf = () => `E31${String(Date.now() % 1_000_000_000).padStart(9, '0')}${(sequence += 1)}`.slice(0, 13);

test('a new account follows its first steps from all pending to completed; empty lists lead to the next step', async () => {
  const receiverUrl = await startReceiver();
  const { owner, tenant } = await seedPortalTenant({ tradeName: 'Colmado Primeros Pasos' });
  const database = stackDatabase();
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  await page.goto(portalUrl('/TesteCF/overview'));
  await page.getByRole('heading', { name: 'Primeros pasos', level: 2 }).waitFor();
  assert.deepEqual(await stepsOf(page), [
    'Pendiente · Instalar el certificado de firma',
    'Pendiente · Crear una clave API de TesteCF',
    'Pendiente · Lograr un primer e-CF de prueba aceptado',
    'Pendiente · Recibir avisos por webhook',
    'Pendiente · Certificarse con la DGII (paso 1 de 15)',
    'Pendiente · Activar la producción (eCF)',
  ]);
  await page.getByText('0 de 6 hechos.').waitFor();
  await page.getByText('Paso 1 de 15: Registrado. Se hace en CerteCF.').waitFor();
  await checkPage(page, 'first-steps-pending');

  // Each step links to where it is done.
  const checklist = page.getByRole('list', { name: 'Primeros pasos' });
  await checklist.getByRole('link', { name: 'Instalar el certificado de firma' }).click();
  await page.waitForURL((url) => url.pathname === '/certificate');
  await page.goBack();
  await checklist.getByRole('link', { name: /Certificarse con la DGII/ }).click();
  await page.waitForURL((url) => url.pathname === '/CerteCF/certification');
  await page.goto(portalUrl('/TesteCF/overview'));

  // The certificate, installed (as an upload leaves it: active, valid for a year).
  await database.tenantCertificate.create({
    data: {
      tenantId: tenant.id,
      subject: 'CN=Primeros pasos e2e',
      serialNumber: randomUUID(),
      validFrom: new Date(Date.now() - 86_400_000),
      validTo: new Date(Date.now() + 365 * 86_400_000),
      keyId: 'e2e',
      encryptedP12: Buffer.from('not a real certificate'),
      encryptedPassword: Buffer.from('not a real password'),
    },
  });

  // The key: from the checklist to the keys page, whose empty state leads to the form.
  await checklist.getByRole('link', { name: 'Crear una clave API de TesteCF' }).click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/api-keys');
  const keys = tableRegion(page, 'Claves API de TesteCF (pruebas)');
  await keys.getByText('Aún no hay claves en este ambiente.').waitFor();
  await checkPage(page, 'first-steps-keys-empty');
  await keys.getByRole('link', { name: 'Crear una clave' }).click();
  await page.waitForURL((url) => url.hash === '#crear-clave');
  const keyForm = page.getByRole('form', { name: 'Crear una clave API' });
  assert.ok(await keyForm.isVisible());
  await keyForm.getByLabel(/^Nombre/).fill('ERP');
  await keyForm.getByRole('button', { name: 'Crear clave' }).click();
  await page.getByTestId('new-api-key').waitFor();

  // Documents: the empty list leads to "Probar"; filters that match nothing lead back to the list.
  await page.goto(portalUrl('/TesteCF/documents'));
  const documents = tableRegion(page, 'Documentos emitidos en TesteCF');
  await documents.getByText('Aún no ha emitido comprobantes en TesteCF.').waitFor();
  assert.equal(await page.getByText('No hay documentos con estos filtros.').count(), 0);
  await checkPage(page, 'first-steps-documents-empty');
  await documents.getByRole('link', { name: 'Probar una emisión' }).click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/try-it');
  await page.getByRole('heading', { name: 'Probar la emisión', level: 1 }).waitFor();
  const accepted = await seedDocument(database, { tenantId: tenant.id, encf: encf(), status: 'accepted' });
  await page.goto(portalUrl('/TesteCF/documents?status=rejected'));
  await documents.getByText('Ningún comprobante coincide con los filtros.').waitFor();
  await checkPage(page, 'first-steps-documents-filtered');
  await documents.getByRole('link', { name: 'Quitar filtros' }).click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/documents' && url.search === '');
  await page.getByRole('link', { name: accepted.encf }).waitFor();

  // Webhooks: the empty list leads to the form; a test delivered makes the endpoint "receiving".
  await page.goto(portalUrl('/TesteCF/webhooks'));
  const endpoints = tableRegion(page, 'Endpoints de webhooks de TesteCF');
  await endpoints.getByText('Aún no hay endpoints en este ambiente.').waitFor();
  await endpoints.getByRole('link', { name: 'Agregue un endpoint' }).click();
  await page.waitForURL((url) => url.hash === '#crear-endpoint');
  const hookForm = page.getByRole('form', { name: 'Crear un endpoint' });
  assert.ok(await hookForm.isVisible());
  await hookForm.getByLabel('Nombre').fill('ERP');
  await hookForm.getByLabel('URL').fill(receiverUrl);
  await hookForm.getByText('URL permitida.').waitFor();
  await hookForm.getByRole('button', { name: 'Crear endpoint' }).click();
  await page.getByRole('row', { name: /ERP/ }).waitFor();
  await page.getByRole('button', { name: 'Enviar prueba a ERP' }).click();
  await page.getByText('Prueba en cola para «ERP»').waitFor();

  await page.goto(portalUrl('/TesteCF/overview'));
  await reloadUntil(
    page,
    async () => (await stepsOf(page))[3] === 'Hecho · Recibir avisos por webhook',
    'the test delivery to succeed',
  );
  assert.deepEqual(await stepsOf(page), [
    'Hecho · Instalar el certificado de firma',
    'Hecho · Crear una clave API de TesteCF',
    'Hecho · Lograr un primer e-CF de prueba aceptado',
    'Hecho · Recibir avisos por webhook',
    'Pendiente · Certificarse con la DGII (paso 1 de 15)',
    'Pendiente · Activar la producción (eCF)',
  ]);
  await page.getByText('4 de 6 hechos.').waitFor();
  await checkPage(page, 'first-steps-progress');

  // eCF while production is not active: it says what opens it, and the empty list says so too.
  await page.goto(portalUrl('/eCF/documents'));
  const closed = page
    .getByRole('status')
    .filter({ hasText: 'La producción se abre después de la certificación' });
  await closed.waitFor();
  assert.equal(await page.getByText('Lo que haga aquí tiene efecto fiscal real.').count(), 0);
  await tableRegion(page, 'Documentos emitidos en eCF')
    .getByRole('link', { name: 'Ir a la certificación' })
    .waitFor();
  await checkPage(page, 'first-steps-ecf-closed');
  await closed.getByRole('link', { name: 'Ir a la certificación' }).click();
  await page.waitForURL((url) => url.pathname === '/CerteCF/certification');

  // Certified and in production: the checklist collapses into one line; eCF is production.
  await database.certificationCase.create({
    data: { tenantId: tenant.id, state: 'approved', step: 'finished', approvedAt: new Date() },
  });
  await database.tenant.update({ where: { id: tenant.id }, data: { productionState: 'active' } });
  await page.goto(portalUrl('/TesteCF/overview'));
  await page.getByText('Primeros pasos completados').waitFor();
  assert.equal(await page.getByRole('list', { name: 'Primeros pasos' }).count(), 0);
  await checkPage(page, 'first-steps-completed');
  await page.goto(portalUrl('/eCF/documents'));
  await page.getByRole('alert').filter({ hasText: 'Lo que haga aquí tiene efecto fiscal real.' }).waitFor();
  assert.equal(await page.getByText('La producción se abre después de la certificación').count(), 0);
  await tableRegion(page, 'Documentos emitidos en eCF')
    .getByRole('link', { name: 'Ver las claves de eCF' })
    .click();
  await page.waitForURL((url) => url.pathname === '/eCF/api-keys');
  assertNoConsoleErrors(problems);
  await page.context().close();
});

test('the other empty lists lead to their next step; an accountant gets no step or action they cannot take', async () => {
  const { owner, members } = await seedPortalTenant({
    members: [{ name: 'Clara Contadora', role: 'accountant' }],
  });
  const accountant = members[0];
  assert.ok(accountant);
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);

  // Each empty list: its message, and one primary action that goes where the next step is done.
  const cases = [
    {
      path: '/TesteCF/sequences',
      region: 'Rangos registrados',
      text: 'Todavía no hay rangos registrados en este ambiente.',
      action: 'Registrar un rango',
      lands: (url: URL) => url.hash === '#registrar-rango',
    },
    {
      path: '/TesteCF/annulments',
      region: 'Anulaciones enviadas',
      text: 'Todavía no se ha enviado ninguna anulación.',
      action: 'Anular rangos',
      lands: (url: URL) => url.hash === '#anular-rangos',
    },
    {
      path: '/TesteCF/annulments?status=uncertain',
      region: 'Anulaciones enviadas',
      text: 'No hay anulaciones en este estado.',
      action: 'Ver todas las anulaciones',
      lands: (url: URL) => url.pathname === '/TesteCF/annulments' && url.search === '',
    },
    {
      path: '/TesteCF/received',
      region: 'Documentos recibidos en TesteCF',
      text: 'Aún no ha recibido comprobantes en TesteCF.',
      action: 'Ver sus URL de recepción',
      lands: (url: URL) => url.pathname === '/CerteCF/certification',
    },
    {
      path: '/TesteCF/received?group=rejected',
      region: 'Documentos recibidos en TesteCF',
      text: 'Ningún comprobante recibido coincide con los filtros.',
      action: 'Quitar filtros',
      lands: (url: URL) => url.pathname === '/TesteCF/received' && url.search === '',
    },
    {
      path: '/TesteCF/received-approvals',
      region: 'Aprobaciones comerciales recibidas en TesteCF',
      text: 'Aún no ha recibido aprobaciones comerciales en TesteCF.',
      action: 'Ver sus comprobantes emitidos',
      lands: (url: URL) => url.pathname === '/TesteCF/documents',
    },
    {
      path: '/members',
      region: 'Invitaciones pendientes',
      text: 'No hay invitaciones pendientes.',
      action: 'Invitar a un miembro',
      lands: (url: URL) => url.hash === '#invitar',
    },
  ];
  for (const entry of cases) {
    await page.goto(portalUrl(entry.path));
    const region = tableRegion(page, entry.region);
    await region.getByText(entry.text).waitFor();
    const actions = region.getByRole('link');
    assert.equal(await actions.count(), 1, `${entry.path}: one action`);
    assert.equal(((await actions.textContent()) ?? '').trim(), entry.action);
    // A link styled as the primary button (the portal's primary colour, white text).
    assert.deepEqual(
      await actions.evaluate((link) => [
        getComputedStyle(link).backgroundColor,
        getComputedStyle(link).color,
      ]),
      ['rgb(11, 79, 156)', 'rgb(255, 255, 255)'],
    );
    await checkPage(page, `first-steps-empty${entry.path.replaceAll(/[/?=]/g, '-')}`);
    await actions.click();
    await page.waitForURL(entry.lands);
  }
  assertNoConsoleErrors(problems);
  await page.context().close();

  // An accountant: no key or webhook step (data of pages they may not read), no "Probar" action.
  const reader = await newPortalPage(browser);
  await signIn(reader.page, accountant);
  await reader.page.goto(portalUrl('/TesteCF/overview'));
  assert.deepEqual(await stepsOf(reader.page), [
    'Pendiente · Instalar el certificado de firma',
    'Pendiente · Lograr un primer e-CF de prueba aceptado',
    'Pendiente · Certificarse con la DGII (paso 1 de 15)',
    'Pendiente · Activar la producción (eCF)',
  ]);
  // Their first-document step leads to the documents list (they cannot use "Probar").
  await reader.page
    .getByRole('list', { name: 'Primeros pasos' })
    .getByRole('link', { name: 'Lograr un primer e-CF de prueba aceptado' })
    .click();
  await reader.page.waitForURL((url) => url.pathname === '/TesteCF/documents');
  const documents = tableRegion(reader.page, 'Documentos emitidos en TesteCF');
  await documents
    .getByText('Un propietario o un desarrollador de la cuenta puede probar una emisión.')
    .waitFor();
  assert.equal(await documents.getByRole('link').count(), 0);
  await checkPage(reader.page, 'first-steps-documents-accountant');
  await reader.page.goto(portalUrl('/members'));
  const invitations = tableRegion(reader.page, 'Invitaciones pendientes');
  await invitations.getByText('Un propietario de la cuenta puede invitar a más personas.').waitFor();
  assert.equal(await invitations.getByRole('link').count(), 0);
  assertNoConsoleErrors(reader.problems);
  await reader.context.close();
});
