// The Partner's embedded certification page (Partner `certification-sessions`, issue 20 over issue
// 19), in a real Chromium: the Partner asks our API for a link bound to one of its registered HTTPS
// origins; a page of that origin frames the portal's certification page and shows it; a page of
// another origin cannot frame it (CSP frame-ancestors); an expired link answers 410
// CERTIFICATION_EMBED_EXPIRED and a forged one 404. The Partner's web application is a real local
// HTTPS server (a throwaway self-signed certificate; Chromium is told to accept it), and so is the
// intruder's, on another port: another origin. In the Partner portal, removing a registered origin
// and deleting a webhook endpoint each ask first (Cancel and Escape change nothing).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import {
  addBrowserOrigin,
  createCertificateKeyring,
  createCertificationEmbedToken,
  createPartner,
  createPartnerKey,
  createPartnerWebhookEndpoint,
  findBrowserOrigins,
} from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import {
  assertNoConsoleErrors,
  checkPage,
  newPortalPage,
  portalUrl as portalPath,
  signIn,
} from '../support/portal.ts';
import { closeDatabase, seedPartnerAdmin, seedPartnerFiscalAccount, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

/** A Partner web application's page framing `?src=` (whatever URL it is given). */
async function startPartnerSite(): Promise<{ origin: string; server: Server }> {
  const certificate = createTestCertificate({ rnc: '401000000', commonName: '127.0.0.1', keyUsage: null });
  const server = createServer(
    { key: certificate.privateKeyPem, cert: certificate.certificatePem },
    (request, response) => {
      const src = new URL(request.url ?? '/', 'https://127.0.0.1').searchParams.get('src') ?? '';
      const escaped = src.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><html lang="es"><title>ERP</title><h1>Mi ERP</h1><iframe id="cert" title="Certificación" src="${escaped}" width="1000" height="700"></iframe></html>`,
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let partnerSite: { origin: string; server: Server };
let intruderSite: { origin: string; server: Server };
let browser: Browser;
before(async () => {
  partnerSite = await startPartnerSite();
  intruderSite = await startPartnerSite();
  // The sites' certificates are self-signed.
  browser = await launchBrowser({ extraArgs: ['--ignore-certificate-errors'] });
});
after(async () => {
  await browser?.close();
  partnerSite?.server.close();
  intruderSite?.server.close();
  await closeDatabase();
});

/** A Partner with an onboarding key and the registered origin, and one linked account. */
async function seedPartnerAccount() {
  const database = stackDatabase();
  const partner = await createPartner({
    database,
    input: {
      name: `ERP ${randomUUID().slice(0, 8)}`,
      paidStatus: 'paid',
      billingUrl: 'https://billing.example.com',
    },
  });
  const { key } = await createPartnerKey({
    database,
    partnerId: partner.id,
    name: 'alta',
    profile: 'onboarding',
  });
  await addBrowserOrigin({ database, partnerId: partner.id, origin: partnerSite.origin });
  const account = await seedPartnerFiscalAccount(partner.id);
  return { key, account };
}

/** The page of `origin`'s site framing `src`, with what the browser reported. */
async function frameFrom(origin: string, src: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ locale: 'es-DO', ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => problems.push(message.text()));
  await page.goto(`${origin}/clientes/certificacion?src=${encodeURIComponent(src)}`);
  await page.locator('#cert').waitFor();
  return { page, problems };
}

test(
  'the link frames the certification page in the Partner origin only; expired 410, forged 404',
  { timeout: 120_000 },
  async () => {
    const { apiUrl, portalUrl, secrets } = stack();
    const { key, account } = await seedPartnerAccount();
    const answer = await fetch(`${apiUrl}/partner/v1/fiscal-accounts/${account.id}/certification-sessions`, {
      method: 'POST',
      headers: { 'x-partner-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ browserOrigin: partnerSite.origin }),
    });
    const session = (await answer.json()) as { url: string; browserOrigin: string; expiresAt: string };
    assert.equal(answer.status, 201, JSON.stringify(session));
    assert.equal(new URL(session.url).origin, new URL(portalUrl).origin);
    assert.ok(Date.parse(session.expiresAt) > Date.now());

    // The Partner's own page shows the account's steps in the frame.
    const own = await frameFrom(partnerSite.origin, session.url);
    const frame = own.page.frameLocator('#cert');
    await frame.getByRole('heading', { name: 'Certificación con la DGII' }).waitFor({ timeout: 30_000 });
    await frame.getByText(`RNC ${account.rnc}`).first().waitFor();
    assert.equal(
      await frame.getByRole('table', { name: 'Los 15 pasos de la certificación' }).getByRole('row').count(),
      16,
      'the 15 steps and the header row',
    );
    await own.page.context().close();

    // The page answers frame-ancestors with that origin and nothing else.
    const direct = await fetch(session.url);
    assert.equal(direct.status, 200);
    const policy = direct.headers.get('content-security-policy') ?? '';
    assert.match(policy, new RegExp(`frame-ancestors ${partnerSite.origin.replaceAll('.', '\\.')}(;|$)`));
    assert.equal(direct.headers.get('x-frame-options'), null);

    // Another origin with the same link: the browser refuses to frame it.
    const intruder = await frameFrom(intruderSite.origin, session.url);
    await intruder.page.waitForTimeout(1500);
    const framed = intruder.page.frames().find((candidate) => candidate !== intruder.page.mainFrame());
    assert.ok(framed);
    assert.equal(
      await framed.getByRole('heading', { name: 'Certificación con la DGII' }).count(),
      0,
      'another origin must not see the page',
    );
    assert.ok(
      intruder.problems.some((text) => text.includes('frame-ancestors')),
      `the browser reports the blocked frame: ${intruder.problems.join(' | ')}`,
    );
    await intruder.page.context().close();

    // An expired link: 410 with the contract's code; a forged one: 404.
    const { token: expired } = createCertificationEmbedToken({
      tenantId: account.tenant.id,
      origin: partnerSite.origin,
      now: new Date(Date.now() - 3_600_000),
      secret: secrets['CERTIFICATION_EMBED_SECRET'] ?? '',
    });
    const gone = await fetch(`${portalUrl}/embed/certification/${expired}`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(gone.status, 410);
    assert.equal(
      ((await gone.json()) as { error: { code: string } }).error.code,
      'CERTIFICATION_EMBED_EXPIRED',
    );
    const { token: forged } = createCertificationEmbedToken({
      tenantId: account.tenant.id,
      origin: partnerSite.origin,
      now: new Date(),
      secret: 'not-the-portal-secret-0000000000000000',
    });
    assert.equal((await fetch(`${portalUrl}/embed/certification/${forged}`)).status, 404);
  },
);

test('the Partner portal asks before removing an origin or deleting a webhook endpoint', async () => {
  const database = stackDatabase();
  const { partner, admin } = await seedPartnerAdmin();
  const kept = 'https://erp.example.com';
  const removed = 'https://viejo.example.com';
  for (const origin of [kept, removed]) await addBrowserOrigin({ database, partnerId: partner.id, origin });
  await createPartnerWebhookEndpoint({
    database,
    partnerId: partner.id,
    name: 'Avisos ERP',
    url: 'https://hooks.example.com/ecf',
    keyring: createCertificateKeyring({ currentKey: stack().secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    allowPrivateTargets: true,
    resolve: async () => [{ address: '93.184.216.34', family: 4 }],
  });
  const origins = async () =>
    (await findBrowserOrigins({ database, partnerId: partner.id })).map((row) => row.origin).sort();
  const endpointStatus = async () =>
    (await database.webhookEndpoint.findFirstOrThrow({ where: { partnerId: partner.id } })).status;

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, admin);
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);

  // An origin: Cancel, then Escape, change nothing; the focus goes back to the button.
  await page.goto(portalPath('/partner/origins'));
  const remove = page.getByRole('button', { name: `Quitar ${removed}` });
  const originDialog = page.getByRole('dialog', { name: `¿Quitar el origen ${removed}?` });
  await remove.click();
  await originDialog.getByText(/ya no se podrán abrir sesiones nuevas/).waitFor();
  assert.equal(await focusedText(), 'Cancelar');
  await checkPage(page, 'partner-origin-remove-confirm');
  await originDialog.getByRole('button', { name: 'Cancelar' }).click();
  await originDialog.waitFor({ state: 'hidden' });
  assert.equal(await focusedText(), `Quitar ${removed}`);
  await remove.click();
  await originDialog.waitFor();
  await page.keyboard.press('Escape');
  await originDialog.waitFor({ state: 'hidden' });
  assert.deepEqual(await origins(), [kept, removed].sort());
  assert.equal(await page.getByRole('row', { name: new RegExp(removed) }).count(), 1);
  // Confirmed: that origin only is gone.
  await remove.click();
  await originDialog.getByRole('button', { name: 'Quitar origen' }).click();
  await page.getByRole('row', { name: new RegExp(removed) }).waitFor({ state: 'detached' });
  assert.deepEqual(await origins(), [kept]);
  await page.getByRole('row', { name: new RegExp(kept) }).waitFor();

  // A webhook endpoint: Cancel keeps it active; confirmed, it is deleted (retired).
  await page.goto(portalPath('/partner/webhooks'));
  const row = page.getByRole('row', { name: /Avisos ERP/ });
  await row.getByText('Activo').waitFor();
  const endpointDialog = page.getByRole('dialog', { name: '¿Eliminar el endpoint Avisos ERP?' });
  await row.getByRole('button', { name: 'Eliminar Avisos ERP' }).click();
  await endpointDialog.getByText(/https:\/\/hooks\.example\.com\/ecf no recibirá más eventos/).waitFor();
  await checkPage(page, 'partner-webhook-delete-confirm');
  await endpointDialog.getByRole('button', { name: 'Cancelar' }).click();
  await endpointDialog.waitFor({ state: 'hidden' });
  assert.equal(await endpointStatus(), 'active');
  await row.getByText('Activo').waitFor();
  await row.getByRole('button', { name: 'Eliminar Avisos ERP' }).click();
  await endpointDialog.getByRole('button', { name: 'Eliminar endpoint' }).click();
  await row.getByText('Eliminado').waitFor();
  assert.equal(await endpointStatus(), 'retired');
  assert.equal(await row.getByRole('button').count(), 0, 'a deleted endpoint has no actions');
  assertNoConsoleErrors(problems);
  await page.context().close();
});
