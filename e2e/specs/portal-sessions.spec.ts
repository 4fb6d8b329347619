// Sessions: signing out everywhere ends every browser's session at its next request; signing out
// ends this one. The session is checked in the database on every request, so a copied cookie of a
// revoked session opens nothing either.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant } from '../support/seed.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

test('signing out everywhere signs every browser out at its next request', async () => {
  const { owner } = await seedPortalTenant();
  const laptop = await newPortalPage(browser);
  const phone = await newPortalPage(browser);
  await signIn(laptop.page, owner);
  await signIn(phone.page, owner);
  await phone.page.goto(portalUrl('/members'));
  await phone.page.getByRole('heading', { name: 'Miembros', level: 1 }).waitFor();
  const phoneCookies = await phone.context.cookies();

  await laptop.page.goto(portalUrl('/members'));
  await laptop.page.getByRole('button', { name: 'Cerrar sesión en todos los dispositivos' }).click();
  const dialog = laptop.page.getByRole('dialog', { name: '¿Cerrar todas sus sesiones?' });
  await dialog.waitFor();
  await checkPage(laptop.page, 'sign-out-everywhere-confirm');
  // Cancel changes nothing: the phone's session still works.
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await phone.page.evaluate(async () => (await fetch('/api/trpc/members.list')).status), 200);
  await laptop.page.getByRole('button', { name: 'Cerrar sesión en todos los dispositivos' }).click();
  await dialog.getByRole('button', { name: 'Cerrar todas' }).click();
  await laptop.page.waitForURL((url) => url.pathname === '/sign-in');

  await phone.page.goto(portalUrl('/audit-log'));
  await phone.page.waitForURL((url) => url.pathname === '/sign-in');
  const status = await phone.page.evaluate(async () => (await fetch('/api/trpc/members.list')).status);
  assert.equal(status, 401);

  // The phone's old cookie, replayed in a fresh browser, opens nothing: the row is revoked.
  const thief = await newPortalPage(browser);
  await thief.context.addCookies(phoneCookies);
  await thief.page.goto(portalUrl('/members'));
  await thief.page.waitForURL((url) => url.pathname === '/sign-in');
  for (const side of [laptop, phone, thief]) await side.context.close();
});

test('signing out ends this session; the portal sends back to sign-in', async () => {
  const { owner } = await seedPortalTenant();
  const { context, page } = await newPortalPage(browser);
  await signIn(page, owner);
  await page.goto(portalUrl('/members'));
  const cookies = await context.cookies();
  const session = cookies.find((cookie) => cookie.name === 'ecf.session-token');
  assert.ok(session, cookies.map((cookie) => cookie.name).join(', '));
  assert.equal(session.httpOnly, true);
  assert.equal(session.sameSite, 'Lax');
  await page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/sign-in');
  const replay = await newPortalPage(browser);
  await replay.context.addCookies([session]);
  await replay.page.goto(portalUrl('/members'));
  await replay.page.waitForURL((url) => url.pathname === '/sign-in');
  await context.close();
  await replay.context.close();
});
