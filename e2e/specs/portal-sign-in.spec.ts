// Signing in through the portal's form: a wrong password gets one generic message, five failures
// lock the e-mail with the wait said, the right password opens the portal; a forgotten password is
// reset through the e-mailed link (the mail catcher). Each page passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { mailCatcher } from '../support/mail.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant } from '../support/seed.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

test('the right password opens the portal; the sign-in page passes axe', async () => {
  const { owner } = await seedPortalTenant();
  const { context, page, problems } = await newPortalPage(browser);
  await page.goto(portalUrl('/members'));
  assert.equal(new URL(page.url()).pathname, '/sign-in', 'signed out, a page sends to sign-in');
  await checkPage(page, 'sign-in');
  await submitSignIn(page, owner.email, owner.password);
  await page.waitForURL((url) => url.pathname === '/members');
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Miembros');
  assertNoConsoleErrors(problems);
  await context.close();
});

test('a wrong password gets one generic message; empty fields get theirs', async () => {
  const { owner } = await seedPortalTenant();
  const { context, page } = await newPortalPage(browser);
  await page.goto(portalUrl('/sign-in'));
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  assert.equal(await page.getByLabel('Correo electrónico').getAttribute('aria-invalid'), 'true');
  assert.ok(await page.getByText('Escriba su contraseña.').isVisible());
  await submitSignIn(page, owner.email, 'no es la contraseña');
  const alert = page.locator('#sign-in-error');
  await alert.waitFor();
  assert.equal(await alert.getAttribute('role'), 'alert');
  assert.equal(
    (await alert.textContent())?.trim(),
    'El correo electrónico o la contraseña no son correctos.',
  );
  await checkPage(page, 'sign-in-wrong-password');
  // The same words for an e-mail that has no account.
  await submitSignIn(page, 'nadie-en-absoluto@example.com', 'no es la contraseña');
  await page.getByText('El correo electrónico o la contraseña no son correctos.').waitFor();
  await context.close();
});

test('five failures lock the e-mail and the form says how long to wait', async () => {
  const { owner } = await seedPortalTenant();
  const { context, page } = await newPortalPage(browser);
  await page.goto(portalUrl('/sign-in'));
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await submitSignIn(page, owner.email, `mal-${attempt}`);
    await page.getByText('no son correctos').waitFor();
  }
  await submitSignIn(page, owner.email, 'mal-5');
  await page.getByText(/Demasiados intentos fallidos con este correo\. Espere 30 segundos/).waitFor();
  // Locked: the right password is refused too, with the time left.
  await submitSignIn(page, owner.email, owner.password);
  await page.getByText(/Demasiados intentos fallidos con este correo\. Espere \d+ segundos/).waitFor();
  assert.equal(new URL(page.url()).pathname, '/sign-in');
  await checkPage(page, 'sign-in-locked');
  await context.close();
});

test('a forgotten password is reset through the e-mailed link, once', async () => {
  const { owner } = await seedPortalTenant();
  const { context, page, problems } = await newPortalPage(browser);
  await page.goto(portalUrl('/sign-in'));
  await page.getByRole('link', { name: '¿Olvidó su contraseña?' }).click();
  await page.waitForURL((url) => url.pathname === '/forgot-password');
  await checkPage(page, 'forgot-password');
  await page.getByLabel('Correo electrónico').fill(owner.email);
  await page.getByRole('button', { name: 'Enviar enlace' }).click();
  await page.getByText('Revise su correo').waitFor();
  const link = await mailCatcher.findLink(owner.email, /\/reset-password\?token=/);
  await page.goto(link);
  await checkPage(page, 'reset-password');
  await page.getByLabel('Contraseña nueva').fill('corta');
  await page.getByLabel('Repita la contraseña').fill('corta');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await page.getByText('La contraseña debe tener al menos 12 caracteres.').waitFor();
  const fresh = 'una contraseña nueva y larga';
  await page.getByLabel('Contraseña nueva').fill(fresh);
  await page.getByLabel('Repita la contraseña').fill(fresh);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await page.waitForURL((url) => url.pathname === '/sign-in' && url.searchParams.get('reset') === '1');
  await submitSignIn(page, owner.email, fresh);
  // Without a page to return to, the portal opens on its first page (the overview).
  await page.waitForURL((url) => url.pathname === '/TesteCF/overview');
  // The link served once.
  await page.goto(link);
  await page.getByLabel('Contraseña nueva').fill(fresh);
  await page.getByLabel('Repita la contraseña').fill(fresh);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await page.getByText('Este enlace no es válido o ya se usó. Pida uno nuevo.').waitFor();
  assertNoConsoleErrors(problems.filter((problem) => !problem.includes('status of 4')));
  await context.close();
});
