// The Partner area (issue 27 item 10), in a real Chromium against the production build: a
// partner_admin opens an account's detail page from the list (status, production, certificate
// expiry, certification step N of 15), creates the embedded certification link and a certificate
// upload session (each shown once); the link, framed by the Partner's own page (a real local HTTPS
// server: another origin), shows the tenant page's step wording, the link's expiry, and posts its
// height to that page (`ecf:embed-height`); an expired link shows a Spanish notice in the frame and
// a forged one the embed's own 404 (no "Ir al inicio"). On Partner webhooks the admin creates an
// endpoint with two event types picked, a bad URL is refused on its field, and a delivery the
// worker really made (to a local receiver) shows its attempt: HTTP code and the answer's first bytes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import {
  addBrowserOrigin,
  checkCertificationEmbedToken,
  createCertificateKeyring,
  createCertificationEmbedToken,
  createPartnerKey,
  storeTenantCertificate,
} from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPartnerAdmin, seedPartnerFiscalAccount, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

/**
 * The Partner's web application: `/?src=` frames the given URL and records every
 * `ecf:embed-height` message it receives (its origin and height) in `window.heights`, sizing the
 * iframe with it as a Partner would.
 */
async function startPartnerSite(): Promise<{ origin: string; server: Server }> {
  const certificate = createTestCertificate({ rnc: '401000000', commonName: '127.0.0.1', keyUsage: null });
  const server = createServer(
    { key: certificate.privateKeyPem, cert: certificate.certificatePem },
    (request, response) => {
      const src = new URL(request.url ?? '/', 'https://127.0.0.1').searchParams.get('src') ?? '';
      const escaped = src.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html lang="es"><title>ERP</title><h1>Mi ERP</h1>
<script>window.heights = [];
window.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'ecf:embed-height') {
    window.heights.push({ origin: event.origin, height: event.data.height });
    document.getElementById('cert').style.height = event.data.height + 'px';
  }
});</script>
<iframe id="cert" title="Certificación" src="${escaped}" width="900" height="300"></iframe></html>`);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A webhook receiver on 127.0.0.1 (plain http: the stack allows private targets) answering 200. */
async function startReceiver(): Promise<{ url: string; server: HttpServer; count: () => number }> {
  let count = 0;
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      count += 1;
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('recibido por el ERP');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/ecf`, server, count: () => count };
}

let browser: Browser;
let partnerSite: { origin: string; server: Server };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
before(async () => {
  partnerSite = await startPartnerSite();
  receiver = await startReceiver();
  browser = await launchBrowser({ extraArgs: ['--ignore-certificate-errors'] });
});
after(async () => {
  await browser?.close();
  partnerSite?.server.close();
  receiver?.server.closeAllConnections();
  receiver?.server.close();
  await closeDatabase();
});

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The Partner site's page framing `src`. */
async function framed(src: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'es-DO', ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(`${partnerSite.origin}/?src=${encodeURIComponent(src)}`);
  return page;
}

test(
  'a partner_admin opens an account, creates its links; the embed reports its height and expiry',
  { timeout: 180_000 },
  async () => {
    const { secrets } = stack();
    const database = stackDatabase();
    const { partner, admin } = await seedPartnerAdmin();
    await addBrowserOrigin({ database, partnerId: partner.id, origin: partnerSite.origin });
    const account = await seedPartnerFiscalAccount(partner.id);
    const generated = createTestCertificate({ rnc: account.rnc, commonName: 'Firmante Cliente' });
    const certificate = await storeTenantCertificate({
      database,
      keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
      tenantId: account.id,
      p12: generated.p12,
      password: generated.password,
    });
    const daysLeft = Math.floor((certificate.validTo.getTime() - Date.now()) / 86_400_000);

    const { page, problems } = await newPortalPage(browser);
    await signIn(page, admin);
    await page.goto(portalUrl('/partner/accounts'));
    await page.getByRole('link', { name: account.profile.legalName }).click();
    await page.waitForURL(`**/partner/accounts/${account.id}`);
    await page
      .getByRole('heading', { level: 1, name: account.profile.tradeName ?? account.profile.legalName })
      .waitFor();
    assert.equal(await page.getByTestId('certification-step').textContent(), '1 de 15: Registrado');
    assert.match(
      (await page.getByTestId('certificate-days-left').textContent()) ?? '',
      new RegExp(`^${daysLeft} días$`),
    );
    assert.equal(await page.getByTestId('production-state').textContent(), 'No solicitada');
    assert.equal(await page.getByText('En certificación', { exact: true }).count(), 1, 'the status');
    await checkPage(page, 'partner-account-detail');

    // The embed link, shown once: signed for this account and the Partner's origin.
    await page.getByRole('button', { name: 'Crear enlace de certificación' }).click();
    const link = (await page.getByTestId('certification-link').textContent()) ?? '';
    assert.ok(link.startsWith(portalUrl('/embed/certification/')), link);
    const claims = checkCertificationEmbedToken({
      token: link.split('/').pop() ?? '',
      now: new Date(),
      secret: secrets['CERTIFICATION_EMBED_SECRET'] ?? '',
    });
    assert.deepEqual([claims.tenantId, claims.origin], [account.id, partnerSite.origin]);

    // The upload session: its URL and token once; only the token's hash is stored.
    await page.getByRole('button', { name: 'Crear sesión de carga del certificado' }).click();
    const uploadUrl = (await page.getByTestId('upload-url').textContent()) ?? '';
    const uploadToken = (await page.getByTestId('upload-token').textContent()) ?? '';
    assert.match(uploadUrl, /\/partner\/v1\/certificate-upload-sessions\/[0-9a-f-]{36}$/);
    assert.match(uploadToken, /^ecfu_/);
    const session = await database.certificateUploadSession.findUniqueOrThrow({
      where: { id: uploadUrl.split('/').pop() ?? '' },
    });
    assert.deepEqual([session.tenantId, session.partnerId], [account.id, partner.id]);
    await checkPage(page, 'partner-account-links');
    assertNoConsoleErrors(problems);
    await page.context().close();

    // The link inside the Partner's page (another origin): the tenant page's wording, the expiry,
    // nothing to do "aquí", and its height posted to the Partner's origin.
    const site = await framed(link);
    const frame = site.frameLocator('#cert');
    await frame.getByRole('heading', { name: 'Próximo paso: 1. Registrado' }).waitFor({ timeout: 30_000 });
    await frame
      .getByTestId('embed-expiry')
      .getByText(/^Este enlace vale hasta el .+ \(hora de Santo Domingo\)\.$/)
      .waitFor();
    assert.equal(await frame.getByText('1 de 15: Registrado').count(), 1);
    assert.equal(await frame.getByText(/aquí/).count(), 0, 'nothing to do on a read-only page');
    assert.doesNotMatch(await frame.locator('body').innerText(), /\.\./, 'no doubled period after a date');
    const heights = await waitFor('the height message', async () => {
      const received = (await site.evaluate(
        () => (window as unknown as { heights: unknown[] }).heights,
      )) as Array<{
        origin: string;
        height: number;
      }>;
      return received.length > 0 ? received : undefined;
    });
    assert.equal(heights[0]?.origin, new URL(portalUrl('/')).origin);
    assert.ok((heights[0]?.height ?? 0) > 600, `a real height: ${JSON.stringify(heights)}`);
    // The Partner sized the iframe from the message: the whole page shows without its own scrollbar.
    const inner = await site
      .frames()
      .find((candidate) => candidate !== site.mainFrame())
      ?.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    assert.ok(inner !== undefined && inner <= 1, `no scrolling inside the frame (${String(inner)})`);
    await site.screenshot({
      path: `${import.meta.dirname}/../artifacts/partner-embed-framed.png`,
      fullPage: true,
    });
    await site.context().close();

    // Expired: a Spanish notice inside the frame (410); forged: the embed's own not-found.
    const { token: expired } = createCertificationEmbedToken({
      tenantId: account.id,
      origin: partnerSite.origin,
      now: new Date(Date.now() - 3_600_000),
      secret: secrets['CERTIFICATION_EMBED_SECRET'] ?? '',
    });
    const gone = await framed(portalUrl(`/embed/certification/${expired}`));
    await gone.frameLocator('#cert').getByRole('heading', { name: 'El enlace venció' }).waitFor();
    await gone.context().close();
    const forged = await newPortalPage(browser);
    const answer = await forged.page.goto(portalUrl(`/embed/certification/${link.split('/').pop() ?? ''}x`));
    assert.equal(answer?.status(), 404);
    await forged.page.getByRole('heading', { name: 'Enlace no válido' }).waitFor();
    assert.equal(await forged.page.getByText('Ir al inicio').count(), 0);
    assert.equal(await forged.page.getByRole('link').count(), 0);
    await checkPage(forged.page, 'partner-embed-not-found');
    await forged.page.context().close();
  },
);

test('Partner webhooks: two event types picked, a refused URL on its field, a delivery in detail', async () => {
  const { apiUrl } = stack();
  const database = stackDatabase();
  const { partner, admin } = await seedPartnerAdmin();
  const account = await seedPartnerFiscalAccount(partner.id);
  const { key } = await createPartnerKey({
    database,
    partnerId: partner.id,
    name: 'avisos',
    profile: 'webhooks',
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, admin);
  await page.goto(portalUrl('/partner/webhooks'));
  const form = page.getByRole('form', { name: 'Crear un endpoint Partner' });
  const all = form.getByRole('checkbox', { name: 'Todos los eventos' });
  assert.equal(await all.isChecked(), true, 'every type by default');
  await all.uncheck();
  await form.getByRole('checkbox', { name: /^Cambio de estado de un e-CF/ }).check();
  await form.getByRole('checkbox', { name: /^Un certificado vence en 30 días o menos/ }).check();
  await form.getByLabel('Nombre').fill('Avisos ERP');
  // A URL the server refuses: why, on its field.
  await form.getByLabel('URL (HTTPS pública)').fill('no es una url');
  await form.getByRole('button', { name: 'Crear endpoint' }).click();
  await form.getByText('Escriba una URL completa, por ejemplo https://erp.ejemplo.com/webhooks.').waitFor();
  await form.getByLabel('URL (HTTPS pública)').fill(receiver.url);
  await form.getByRole('button', { name: 'Crear endpoint' }).click();
  await page.getByTestId('partner-secret').waitFor();
  const endpoint = await database.webhookEndpoint.findFirstOrThrow({ where: { partnerId: partner.id } });
  assert.deepEqual([...endpoint.eventTypes].sort(), ['certificate.expiring', 'document.state_changed']);
  await page
    .getByRole('row', { name: /Avisos ERP/ })
    .getByText('2 de 15')
    .waitFor();

  // A real delivery: the Partner API's test, delivered by the worker to the receiver.
  const queued = await fetch(`${apiUrl}/partner/v1/webhook-endpoints/${endpoint.id}/test`, {
    method: 'POST',
    headers: { 'x-partner-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ fiscalAccountId: account.id, environment: 'testecf' }),
  });
  assert.equal(queued.status, 202, await queued.clone().text());
  const delivery = await waitFor('the delivery', async () => {
    const row = await database.webhookDelivery.findFirst({ where: { endpointId: endpoint.id } });
    return row?.status === 'succeeded' ? row : undefined;
  });
  assert.equal(receiver.count(), 1);

  await page.goto(portalUrl('/partner/webhooks'));
  await page.getByRole('link', { name: 'Prueba enviada desde el portal o la API' }).click();
  await page.waitForURL(`**/partner/webhooks/deliveries/${delivery.id}`);
  const attempt = page
    .getByRole('table', { name: /^Intentos de la entrega Prueba enviada desde el portal o la API/ })
    .getByRole('row')
    .nth(1);
  await attempt.getByText('Entregado').waitFor();
  await attempt.getByRole('cell', { name: '200', exact: true }).waitFor();
  await attempt.getByText('recibido por el ERP').waitFor();
  await page.getByText('Avisos ERP').first().waitFor();
  await checkPage(page, 'partner-webhook-delivery');
  // The refused URL is the procedure's 400, which the browser logs as a failed request.
  assertNoConsoleErrors(problems.filter((problem) => !problem.includes('status of 400 (Bad Request)')));
  await page.context().close();
});
