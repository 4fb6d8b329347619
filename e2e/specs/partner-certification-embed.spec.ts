// The Partner's embedded certification page (Partner `certification-sessions`, issue 20 over issue
// 19), in a real Chromium: the Partner asks our API for a link bound to one of its registered HTTPS
// origins; a page of that origin frames the portal's certification page and shows it; a page of
// another origin cannot frame it (CSP frame-ancestors); an expired link answers 410
// CERTIFICATION_EMBED_EXPIRED and a forged one 404. The Partner's origin is played by Playwright's
// request routing (https://erp.example.com never leaves the browser).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import {
  addBrowserOrigin,
  createCertificationEmbedToken,
  createPartner,
  createPartnerKey,
  importTaxpayerRegistry,
  linkFiscalAccount,
} from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { closeDatabase, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

const PARTNER_ORIGIN = 'https://erp.example.com';
const OTHER_ORIGIN = 'https://intruso.example.com';

let browser: Browser;
before(async () => {
  // The Partner's page is public HTTPS, the local portal plain HTTP on a loopback address: let the
  // frame load (mixed content, and Chromium's local network access checks, which a portal on a
  // public address never meets).
  browser = await launchBrowser({
    extraArgs: [
      '--allow-running-insecure-content',
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessForNavigations,PrivateNetworkAccessRespectPreflightResults',
    ],
  });
});
after(async () => {
  await browser?.close();
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
  await addBrowserOrigin({ database, partnerId: partner.id, origin: PARTNER_ORIGIN });
  const rnc = `4${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  await importTaxpayerRegistry({
    database,
    source: Readable.from([
      Buffer.from(`${rnc}|CLIENTE ${rnc} SRL|CLIENTE|VENTA|||||01/01/2000|ACTIVO|NORMAL`, 'latin1'),
    ]),
    fileName: 'registro.txt',
  });
  const { account } = await linkFiscalAccount({
    database,
    partnerId: partner.id,
    externalTenantId: `erp-${randomUUID()}`,
    input: { rnc, legalName: `Cliente ${rnc} SRL`, address: 'Calle 1, Santo Domingo' },
  });
  return { key, account };
}

/** A page of `origin` (served by Playwright) framing `src`; returns the page once the frame loaded. */
async function frameFrom(origin: string, src: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ locale: 'es-DO' });
  await context.route(`${origin}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="es"><title>ERP</title><h1>Mi ERP</h1><iframe id="cert" title="Certificación" src="${src}" width="1000" height="700"></iframe></html>`,
    }),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => problems.push(message.text()));
  page.on('requestfailed', (request) =>
    problems.push(`failed ${request.url()} ${request.failure()?.errorText}`),
  );
  await page.goto(`${origin}/clientes/certificacion`);
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
      body: JSON.stringify({ browserOrigin: PARTNER_ORIGIN }),
    });
    const session = (await answer.json()) as { url: string; browserOrigin: string; expiresAt: string };
    assert.equal(answer.status, 201, JSON.stringify(session));
    assert.equal(new URL(session.url).origin, new URL(portalUrl).origin);
    assert.ok(Date.parse(session.expiresAt) > Date.now());

    // The Partner's own page shows the account's steps in the frame.
    const own = await frameFrom(PARTNER_ORIGIN, session.url);
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
    assert.match(policy, new RegExp(`frame-ancestors ${PARTNER_ORIGIN.replaceAll('.', '\\.')}(;|$)`));
    assert.equal(direct.headers.get('x-frame-options'), null);

    // Another origin with the same link: the browser refuses to frame it.
    const intruder = await frameFrom(OTHER_ORIGIN, session.url);
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
      origin: PARTNER_ORIGIN,
      now: new Date(Date.now() - 3_600_000),
      secret: secrets['CERTIFICATION_EMBED_SECRET'] ?? '',
    });
    const gone = await fetch(`${portalUrl}/embed/certification/${expired}`);
    assert.equal(gone.status, 410);
    assert.equal(
      ((await gone.json()) as { error: { code: string } }).error.code,
      'CERTIFICATION_EMBED_EXPIRED',
    );
    const { token: forged } = createCertificationEmbedToken({
      tenantId: account.tenant.id,
      origin: PARTNER_ORIGIN,
      now: new Date(),
      secret: 'not-the-portal-secret-0000000000000000',
    });
    assert.equal((await fetch(`${portalUrl}/embed/certification/${forged}`)).status, 404);
  },
);
