// Tenancy: the tenant always comes from the session. A member of one tenant who opens another
// tenant's page gets "not found"; a role without a page gets "not allowed"; support reads any tenant
// and every view lands in that tenant's audit log, which its owners read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, seedPortalUser } from '../support/seed.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

test("a member of tenant B who opens tenant A's member page gets not found, like an id that does not exist", async () => {
  const first = await seedPortalTenant({ members: [{ name: 'Ana Contadora', role: 'accountant' }] });
  const second = await seedPortalTenant();
  const { context, page } = await newPortalPage(browser);
  await signIn(page, second.owner);
  const foreign = await page.goto(portalUrl(`/members/${first.members[0]?.membershipId ?? ''}`));
  assert.equal(foreign?.status(), 404);
  await page.getByRole('heading', { name: 'Página no encontrada' }).waitFor();
  await checkPage(page, 'not-found');
  const nowhere = await page.goto(portalUrl('/members/00000000-0000-4000-8000-000000000000'));
  assert.equal(nowhere?.status(), 404);
  // The same page of its own tenant opens.
  const own = await page.goto(portalUrl(`/members/${second.owner.membershipId}`));
  assert.equal(own?.status(), 200);
  // An environment that does not exist is not found either.
  assert.equal((await page.goto(portalUrl('/Produccion/documents')))?.status(), 404);
  await context.close();
});

test('a role without a page gets "not allowed"; the navigation does not offer it', async () => {
  const { members } = await seedPortalTenant({
    members: [{ name: 'Diego Desarrollador', role: 'developer' }],
  });
  const { context, page } = await newPortalPage(browser);
  await signIn(page, members[0] ?? { email: '', password: '' });
  const response = await page.goto(portalUrl('/audit-log'));
  assert.equal(response?.status(), 403);
  await page.getByRole('heading', { name: 'Acceso no permitido' }).waitFor();
  await checkPage(page, 'forbidden');
  await page.goto(portalUrl('/members'));
  const navigation = page.getByRole('navigation', { name: 'Principal' });
  // A developer's pages (the permission table), and not the audit log.
  assert.deepEqual(await navigation.getByRole('link').allTextContents(), [
    'Resumen',
    'Documentos',
    'Probar',
    'Claves API',
    'Webhooks',
    'Secuencias',
    'Anulaciones',
    'Recibidos',
    'Aprobaciones recibidas',
    'Certificación',
    'Certificado',
    'Cuenta',
    'Miembros',
  ]);
  await context.close();
});

test("support reads a tenant's pages, and the tenant's owner reads each view in the audit log", async () => {
  const { owner } = await seedPortalTenant({ tradeName: 'Distribuidora Norte' });
  const support = await seedPortalUser({ name: 'Sara Soporte', isSupport: true });
  const supportSide = await newPortalPage(browser);
  await signIn(supportSide.page, support);
  await supportSide.page.goto(portalUrl('/'));
  await supportSide.page.waitForURL((url) => url.pathname === '/accounts');
  await checkPage(supportSide.page, 'accounts-support');
  // The chooser lists 50 tenants a page: support finds this one by its name (issue 27's search).
  await supportSide.page.goto(portalUrl('/accounts?q=Distribuidora+Norte'));
  await supportSide.page.getByRole('button', { name: 'Trabajar en Distribuidora Norte' }).click();
  await supportSide.page.waitForURL((url) => url.pathname === '/TesteCF/overview');
  await supportSide.page.goto(portalUrl('/members'));
  await supportSide.page.getByRole('heading', { name: 'Miembros', level: 1 }).waitFor();
  // Read-only: nothing to invite with.
  assert.equal(await supportSide.page.getByRole('form', { name: 'Invitar a un miembro' }).count(), 0);

  const ownerSide = await newPortalPage(browser);
  await signIn(ownerSide.page, owner);
  await ownerSide.page.goto(portalUrl('/audit-log'));
  const rows = ownerSide.page.getByRole('row', { name: /Sara Soporte/ });
  await rows.first().waitFor();
  assert.match((await rows.first().textContent()) ?? '', /Soporte consultó datos/);
  await checkPage(ownerSide.page, 'audit-log');
  for (const side of [supportSide, ownerSide]) await side.context.close();
});
