// Account and overview: an owner edits the profile (a bad phone fails on its field and saves
// nothing), turns buyer e-mail on for TesteCF and sets a payment term; an accountant sees the
// account read-only; the overview, where `/` lands, counts the tenant's documents and warns about
// contingency and the certificate. Each page passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { seedDocument } from '@ecf/db';
import { launchBrowser } from '../support/browser.ts';
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

let sequence = 0;
const encf = () => `E31${String(Date.now() % 1_000_000_000).padStart(9, '0')}${(sequence += 1)}`.slice(0, 13);

test('an owner edits the profile and the settings; a bad phone shows its field error and saves nothing', async () => {
  const { owner, tenant, members } = await seedPortalTenant({
    tradeName: 'Colmado La Esquina',
    members: [{ name: 'Clara Contadora', role: 'accountant' }],
  });
  const side = await newPortalPage(browser);
  await signIn(side.page, owner);
  await side.page.goto(portalUrl('/account'));
  await side.page.getByRole('heading', { name: 'Cuenta', level: 1 }).waitFor();
  await checkPage(side.page, 'account-owner');

  const profile = side.page.getByRole('form', { name: 'Perfil de la cuenta' });
  await profile.getByLabel('Razón social').fill('Colmado La Esquina SRL');
  await profile.getByLabel('Teléfono 1').fill('809-555-0101');
  await profile.getByLabel('Teléfono 2').fill('8095550102');
  await profile.getByRole('button', { name: 'Guardar perfil' }).click();
  await profile.getByText('Use el formato 809-555-0101 (NNN-NNN-NNNN).').waitFor();
  assert.equal(await profile.getByLabel('Teléfono 2').getAttribute('aria-invalid'), 'true');
  const unchanged = await stackDatabase().tenant.findUniqueOrThrow({ where: { id: tenant.id } });
  assert.equal(unchanged.legalName, tenant.legalName);
  assert.deepEqual(unchanged.phones, tenant.phones);
  await checkPage(side.page, 'account-phone-error');

  await profile.getByLabel('Teléfono 2').fill('829-555-0102');
  await profile.getByRole('button', { name: 'Guardar perfil' }).click();
  await profile.getByText('Perfil guardado.').waitFor();
  const saved = await stackDatabase().tenant.findUniqueOrThrow({ where: { id: tenant.id } });
  assert.equal(saved.legalName, 'Colmado La Esquina SRL');
  assert.deepEqual(saved.phones, ['809-555-0101', '829-555-0102']);

  const settings = side.page.getByRole('form', { name: 'Configuración de la cuenta' });
  await settings.getByLabel('TesteCF (pruebas)').check();
  await settings.getByLabel('Plazo de pago (días)').fill('400');
  await settings.getByRole('button', { name: 'Guardar configuración' }).click();
  await settings.getByText('El plazo no puede pasar de 365 días.').waitFor();
  await settings.getByLabel('Plazo de pago (días)').fill('30');
  await settings.getByRole('button', { name: 'Guardar configuración' }).click();
  await settings.getByText('Configuración guardada.').waitFor();
  const configured = await stackDatabase().tenant.findUniqueOrThrow({ where: { id: tenant.id } });
  assert.deepEqual(configured.buyerEmailEnvironments, ['TesteCF']);
  assert.equal(configured.paymentTermDays, 30);
  assert.equal(configured.deferredSendAuthorized, false);
  // The environments table says it too, after the refresh.
  await side.page.getByRole('row', { name: /TesteCF \(pruebas\).*Activado/ }).waitFor();
  await checkPage(side.page, 'account-saved');
  const audit = await stackDatabase().portalAuditEntry.findMany({
    where: { tenantId: tenant.id, action: 'account.updated' },
  });
  assert.deepEqual(audit.map((entry) => entry.targetId).sort(), ['profile', 'settings']);
  // The two refusals above are the server's 400 answers the browser logs; nothing else may appear.
  assertNoConsoleErrors(side.problems.filter((problem) => !problem.includes('status of 400 (Bad Request)')));
  assert.equal(side.problems.length, 2);

  // An accountant reads the same account, with nothing to change.
  const accountant = members[0];
  assert.ok(accountant);
  const reader = await newPortalPage(browser);
  await signIn(reader.page, accountant);
  await reader.page.goto(portalUrl('/account'));
  await reader.page.getByText('Colmado La Esquina SRL').waitFor();
  for (const name of ['Perfil de la cuenta', 'Configuración de la cuenta'])
    assert.equal(await reader.page.getByRole('form', { name }).count(), 0);
  assert.equal(await reader.page.getByRole('main').getByRole('textbox').count(), 0);
  await reader.page.getByText('30 días').waitFor();
  await checkPage(reader.page, 'account-accountant');
  assertNoConsoleErrors(reader.problems);
  for (const context of [side.context, reader.context]) await context.close();
});

test('the overview, where / lands, counts the documents and warns about contingency and the certificate', async () => {
  const { owner, tenant } = await seedPortalTenant();
  const database = stackDatabase();
  for (const status of ['accepted', 'accepted', 'accepted_conditional', 'rejected'] as const)
    await seedDocument(database, { tenantId: tenant.id, encf: encf(), status });
  await seedDocument(database, {
    tenantId: tenant.id,
    encf: encf(),
    status: 'contingency',
    contingencySince: new Date(),
  });

  const side = await newPortalPage(browser);
  await signIn(side.page, owner);
  await side.page.goto(portalUrl('/'));
  await side.page.waitForURL((url) => url.pathname === '/TesteCF/overview');
  await side.page.getByRole('heading', { name: 'Resumen', level: 1 }).waitFor();
  await side.page.getByRole('alert').filter({ hasText: 'Hay 1 documento en contingencia' }).waitFor();
  await side.page.getByRole('alert').filter({ hasText: 'No hay certificado activo' }).waitFor();
  const totals = side.page.getByRole('list', { name: 'Totales' });
  assert.match((await totals.textContent()) ?? '', /Hoy5/);
  const accepted = side.page.getByRole('row', { name: /^Aceptado \d/ });
  assert.match((await accepted.textContent()) ?? '', /Aceptado22/);
  await side.page.getByText('Ver los datos como tabla').click();
  await side.page.getByRole('table', { name: 'Documentos aceptados por día' }).waitFor();
  await checkPage(side.page, 'overview');

  // A certificate that expires in 10 days: the warning says when.
  await database.tenantCertificate.create({
    data: {
      tenantId: tenant.id,
      subject: 'CN=Prueba e2e',
      serialNumber: randomUUID(),
      validFrom: new Date(Date.now() - 86_400_000),
      validTo: new Date(Date.now() + 10.5 * 86_400_000),
      keyId: 'e2e',
      encryptedP12: Buffer.from('not a real certificate'),
      encryptedPassword: Buffer.from('not a real password'),
    },
  });
  await side.page.reload();
  await side.page.getByRole('alert').filter({ hasText: 'El certificado vence pronto' }).waitFor();
  assert.match(
    (await side.page.getByRole('alert').filter({ hasText: 'El certificado vence pronto' }).textContent()) ??
      '',
    /en 10 días/,
  );
  assert.equal(await side.page.getByText('No hay certificado activo').count(), 0);
  await checkPage(side.page, 'overview-certificate-expiring');

  // Another environment has none of these documents.
  await side.page.goto(portalUrl('/CerteCF/overview'));
  await side.page.getByText('No hay documentos en los últimos 30 días.').waitFor();
  assert.equal(await side.page.getByRole('alert').filter({ hasText: 'contingencia' }).count(), 0);
  assertNoConsoleErrors(side.problems);
  await side.context.close();
});
