// The portal from 320 px up (issue 27, items 1 and 7). Every page of the app router (listed from
// apps/web/app, so a new page cannot be forgotten: it fails here until it gets a URL below) is
// opened by the person it is for (an owner with seeded data, a support user, a Partner
// administrator, or nobody for the public pages) and checked at 1366, 390 and 320 px: the document
// is never wider than the viewport (WCAG 1.4.10 Reflow), each table stays inside the page and
// scrolls inside its own focusable region, and the key columns (e-NCF, Estado, the support desk's
// "Próximo intento" and "Evidencia") are never clipped. At 320 px axe runs too; at 390 and 1366 px
// each page is photographed (full page) into e2e/artifacts/screenshots/. At 1366 px the dense tables
// hold: the documents list fits without scrolling, one line per row, and the support desk shows all
// its columns. The "Menú" button under 900 px is driven by mouse and keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedApiKey, seedDocument, seedInbound, seedRejectedCertificationRun } from '@ecf/db';
import {
  addBrowserOrigin,
  createCertificateKeyring,
  createCertificationEmbedToken,
  createPartnerKey,
  createPartnerWebhookEndpoint,
  createWebhookEndpoint,
  sendPartnerTestWebhook,
} from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { ARTIFACTS, checkAccessibility, portalUrl, signIn } from '../support/portal.ts';
import { WEB_DIRECTORY } from '../support/portal-build.ts';
import {
  closeDatabase,
  seedPartnerAdmin,
  seedPartnerFiscalAccount,
  seedPortalTenant,
  seedPortalUser,
  stackDatabase,
} from '../support/seed.ts';
import { stack } from '../support/stack.ts';

const WIDTHS = [1366, 390, 320] as const;
const HEIGHT = 900;
const SCREENSHOTS = path.join(ARTIFACTS, 'screenshots');
/** Columns that must never be clipped (their header's text). */
const KEY_COLUMNS = ['e-NCF', 'Estado', 'Próximo intento', 'Evidencia'];

type TWho = 'owner' | 'support' | 'partner' | 'anonymous';
type TVisit = { who: TWho; path: string };

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

/** Every page of the app router as its route pattern (`/[environment]/documents/[documentId]`). */
function appRouterPages(directory = path.join(WEB_DIRECTORY, 'app'), segments: string[] = []): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name === 'api') continue; // route handlers, not pages
      const inRoute = /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name];
      found.push(...appRouterPages(path.join(directory, entry.name), inRoute));
    } else if (/^page\.(tsx|ts|jsx|js)$/.test(entry.name)) {
      found.push(`/${segments.join('/')}`);
    }
  }
  return found.sort();
}

/** An owner's tenant with a row in each table, a support user and a Partner administrator. */
async function seedEverything() {
  const database = stackDatabase();
  const { secrets } = stack();
  const { tenant, owner, members } = await seedPortalTenant({
    tradeName: 'Ferretería y Materiales de Construcción del Cibao',
    members: [{ name: 'Dana Desarrolladora', role: 'developer' }],
  });
  const sequence = randomInt(1_000_000, 9_000_000);
  const encf = (offset: number) => `E31${String(sequence * 100 + offset).padStart(10, '0')}`;
  const accepted = await seedDocument(database, {
    tenantId: tenant.id,
    encf: encf(1),
    status: 'accepted',
    totalAmount: '1234567.89',
  });
  await seedDocument(database, { tenantId: tenant.id, encf: encf(2), status: 'rejected' });
  // In contingency with a long error (an HTML page with a long unbroken token): the support desk's
  // columns must stay visible.
  const contingency = await seedDocument(database, {
    tenantId: tenant.id,
    encf: encf(3),
    status: 'contingency',
    contingencySince: new Date(Date.now() - 3_600_000),
    lastError: {
      code: 'TAXAUTH_UNAVAILABLE',
      message: `503 <html><body>https://ecf.dgii.gov.do/testecf/recepcion/api/facturaselectronicas/${'x'.repeat(90)}</body></html>`,
      nextAttemptAt: new Date(Date.now() + 600_000).toISOString(),
      failures: 3,
    },
  });
  for (let offset = 4; offset < 12; offset += 1)
    await seedDocument(database, { tenantId: tenant.id, encf: encf(offset), status: 'accepted' });
  await database.sequenceRange.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      type: 32,
      prefix: 'E32',
      firstEncf: 'E320000000001',
      lastEncf: 'E320000001000',
      firstNumber: 1,
      lastNumber: 1000,
      sequenceExpirationDate: new Date('2027-12-31'),
    },
  });
  const annulment = await database.annulment.create({
    data: {
      tenantId: tenant.id,
      environment: 'TesteCF',
      idempotencyKey: randomUUID(),
      requestFingerprint: '0'.repeat(64),
      request: { ranges: [{ type: '33', from: 'E330000000001', to: 'E330000000010' }], reason: null },
      state: 'rejected',
      taxauthAnswer: { codigo: '2', nombre: 'Rechazado', mensajes: ['Rango no autorizado.'] },
      coveredDocuments: { cancelled: [{ documentId: accepted.id, encf: accepted.encf }], skipped: [] },
      answeredAt: new Date(),
      ranges: {
        create: {
          tenantId: tenant.id,
          environment: 'TesteCF',
          type: 33,
          prefix: 'E33',
          firstEncf: 'E330000000001',
          lastEncf: 'E330000000010',
          firstNumber: 1,
          lastNumber: 10,
          active: false,
        },
      },
    },
  });
  const received = await seedInbound(database, { tenantId: tenant.id, issuerName: 'Cementos del Norte SRL' });
  const approval = await seedInbound(database, {
    tenantId: tenant.id,
    kind: 'commercial_approval',
    encf: accepted.encf,
    decision: 'accepted',
    documentId: accepted.id,
  });
  const run = await seedRejectedCertificationRun(database, { tenantId: tenant.id, rnc: tenant.rnc });
  const { endpoint } = await createWebhookEndpoint({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    name: 'Contabilidad central',
    url: 'http://127.0.0.1:9/webhooks/ecf',
    eventTypes: 'all',
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    allowPrivateTargets: true,
  });
  await seedApiKey(database, { tenantId: tenant.id, environment: 'TesteCF' });

  const support = await seedPortalUser({ name: 'Sonia Soporte', isSupport: true });

  const { partner, admin: partnerAdmin } = await seedPartnerAdmin();
  // A long key name without spaces (the issue: it overflowed the page).
  await createPartnerKey({
    database,
    partnerId: partner.id,
    name: `integracion-erp-produccion-sucursal-santiago-de-los-caballeros-${'0'.repeat(40)}`,
    profile: 'onboarding',
  });
  const origin = 'https://erp.example.com';
  await addBrowserOrigin({ database, partnerId: partner.id, origin });
  const account = await seedPartnerFiscalAccount(partner.id);
  const { endpoint: partnerEndpoint } = await createPartnerWebhookEndpoint({
    database,
    partnerId: partner.id,
    name: 'Avisos ERP',
    url: 'http://127.0.0.1:9/partner/ecf',
    eventTypes: ['document.state_changed', 'certificate.expiring'],
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    allowPrivateTargets: true,
  });
  // Queued only (nothing is put on the queue): the page shows a delivery without attempts.
  const { deliveryId: partnerDeliveryId } = await sendPartnerTestWebhook({
    database,
    partnerId: partner.id,
    endpointId: partnerEndpoint.id,
    account: { fiscalAccountId: account.id, externalTenantId: account.externalTenantId },
    environment: 'TesteCF',
    enqueue: async () => {},
  });
  const { token } = createCertificationEmbedToken({
    tenantId: account.tenant.id,
    origin,
    now: new Date(),
    secret: secrets['CERTIFICATION_EMBED_SECRET'] ?? '',
  });

  const owned = (pathname: string): TVisit[] => [{ who: 'owner', path: pathname }];
  const visits: Record<string, TVisit[]> = {
    '/': owned('/'),
    '/accounts': [...owned('/accounts'), { who: 'support', path: '/accounts' }],
    '/support': [{ who: 'support', path: '/support' }],
    '/[environment]/overview': owned('/TesteCF/overview'),
    '/[environment]/documents': owned('/TesteCF/documents'),
    '/[environment]/documents/[documentId]': owned(`/TesteCF/documents/${accepted.id}`),
    '/[environment]/try-it': owned('/TesteCF/try-it'),
    '/[environment]/api-keys': owned('/TesteCF/api-keys'),
    '/[environment]/sequences': owned('/TesteCF/sequences'),
    '/[environment]/annulments': owned('/TesteCF/annulments'),
    '/[environment]/annulments/[annulmentId]': owned(`/TesteCF/annulments/${annulment.id}`),
    '/[environment]/received': owned('/TesteCF/received'),
    '/[environment]/received/[inboundDocumentId]': owned(`/TesteCF/received/${received.id}`),
    '/[environment]/received-approvals': owned('/TesteCF/received-approvals'),
    '/[environment]/received-approvals/[inboundDocumentId]': owned(
      `/TesteCF/received-approvals/${approval.id}`,
    ),
    '/[environment]/webhooks': owned('/TesteCF/webhooks'),
    '/[environment]/webhooks/[endpointId]': owned(`/TesteCF/webhooks/${endpoint.id}`),
    '/[environment]/certification': owned('/CerteCF/certification'),
    '/[environment]/certification/runs/[runId]': owned(`/CerteCF/certification/runs/${run.runId}`),
    '/account': owned('/account'),
    '/audit-log': owned('/audit-log'),
    '/certificate': owned('/certificate'),
    '/members': owned('/members'),
    '/members/[membershipId]': owned(`/members/${members[0]?.membershipId ?? ''}`),
    '/partner/accounts': [{ who: 'partner', path: '/partner/accounts' }],
    '/partner/accounts/[accountId]': [{ who: 'partner', path: `/partner/accounts/${account.id}` }],
    '/partner/billing': [{ who: 'partner', path: '/partner/billing' }],
    '/partner/keys': [{ who: 'partner', path: '/partner/keys' }],
    '/partner/origins': [{ who: 'partner', path: '/partner/origins' }],
    '/partner/webhooks': [{ who: 'partner', path: '/partner/webhooks' }],
    '/partner/webhooks/deliveries/[deliveryId]': [
      { who: 'partner', path: `/partner/webhooks/deliveries/${partnerDeliveryId}` },
    ],
    '/embed/certification/[token]': [{ who: 'anonymous', path: `/embed/certification/${token}` }],
    '/sign-in': [{ who: 'anonymous', path: '/sign-in' }],
    '/forgot-password': [{ who: 'anonymous', path: '/forgot-password' }],
    '/reset-password': [{ who: 'anonymous', path: '/reset-password?token=enlace-de-prueba' }],
    '/invitations/accept': [{ who: 'anonymous', path: '/invitations/accept?token=enlace-de-prueba' }],
  };
  return { visits, users: { owner, support, partner: partnerAdmin }, contingencyEncf: contingency.encf };
}

/** What is wrong with the layout at the current width (empty: nothing). */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(async (keyColumns) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const problems: string[] = [];
    const width = window.innerWidth;
    const root = document.documentElement;
    if (root.scrollWidth > width) {
      // The innermost elements that reach past the right edge: what to fix.
      const culprits: string[] = [];
      for (const element of Array.from(document.body.querySelectorAll('*'))) {
        if (culprits.length === 3) break;
        if (element.closest('[role="region"]') !== null && !element.matches('[role="region"]')) continue;
        if (element.getBoundingClientRect().right <= width + 1) continue;
        if (Array.from(element.children).some((child) => child.getBoundingClientRect().right > width + 1))
          continue;
        const classes = typeof element.className === 'string' ? element.className.split(' ')[0] : '';
        culprits.push(
          `<${element.tagName.toLowerCase()} class="${classes}"> "${(element.textContent ?? '').trim().slice(0, 40)}"`,
        );
      }
      problems.push(
        `the document is ${root.scrollWidth} px wide in a ${width} px viewport (${culprits.join('; ')})`,
      );
    }
    document.querySelectorAll('table').forEach((table, tableIndex) => {
      const name = table.querySelector('caption')?.textContent?.trim() || `table ${tableIndex + 1}`;
      const region = table.closest<HTMLElement>('[role="region"]') ?? table.parentElement;
      if (region === null) return;
      const box = region.getBoundingClientRect();
      if (box.width === 0) return; // not shown
      if (box.left < -1 || box.right > width + 1)
        problems.push(
          `"${name}": its container (${Math.round(box.left)}–${Math.round(box.right)} px) leaves the viewport`,
        );
      const scrolls = region.scrollWidth > region.clientWidth + 1;
      if (scrolls && !['auto', 'scroll'].includes(getComputedStyle(region).overflowX))
        problems.push(`"${name}": wider than its container, which does not scroll`);
      if (scrolls && region.tabIndex < 0) problems.push(`"${name}": scrolls but cannot take keyboard focus`);
      const headers = Array.from(table.querySelectorAll('thead th')).map(
        (th) => th.textContent?.trim() ?? '',
      );
      headers.forEach((header, column) => {
        if (!keyColumns.includes(header)) return;
        table.querySelectorAll('tbody tr').forEach((row, rowIndex) => {
          const cell = row.children[column] as HTMLElement | undefined;
          if (cell === undefined) return;
          const rect = cell.getBoundingClientRect();
          // From the container's padding edge (scrollWidth is measured from there, inside the border).
          const left = rect.left - box.left - region.clientLeft + region.scrollLeft;
          const right = rect.right - box.left - region.clientLeft + region.scrollLeft;
          if (rect.width === 0) problems.push(`"${name}" row ${rowIndex + 1}: ${header} is hidden`);
          else if (left < -1 || right > region.scrollWidth + 1)
            problems.push(
              `"${name}" row ${rowIndex + 1}: ${header} lies outside what its container scrolls to (${Math.round(left)}–${Math.round(right)} px of ${region.scrollWidth} px; table ${Math.round(table.getBoundingClientRect().width)} px)`,
            );
          else if (cell.scrollWidth > cell.clientWidth + 1)
            problems.push(`"${name}" row ${rowIndex + 1}: ${header}'s content is wider than its cell`);
        });
      });
    });
    return problems;
  }, KEY_COLUMNS);
}

/** Header texts whose cells lie beyond the right edge of the table's container without scrolling. */
async function columnsOutOfView(
  page: Page,
  caption: string,
): Promise<{ scrolls: boolean; rowHeights: number[] }> {
  return page.evaluate((wanted) => {
    const table = Array.from(document.querySelectorAll('table')).find(
      (candidate) => candidate.querySelector('caption')?.textContent?.trim() === wanted,
    );
    if (table === undefined) throw new Error(`no table "${wanted}"`);
    const region = table.closest<HTMLElement>('[role="region"]') ?? table;
    return {
      scrolls: region.scrollWidth > region.clientWidth + 1,
      rowHeights: Array.from(table.querySelectorAll('tbody tr')).map(
        (row) => row.getBoundingClientRect().height,
      ),
    };
  }, caption);
}

test(
  'every page fits 320, 390 and 1366 px: no page wider than the viewport, key columns never clipped, axe at 320 px, screenshots',
  { timeout: 600_000 },
  async () => {
    const pages = appRouterPages();
    const { visits, users, contingencyEncf } = await seedEverything();
    assert.deepEqual(
      pages.filter((pattern) => visits[pattern] === undefined),
      [],
      'pages of apps/web/app without a URL in portal-responsive.spec.ts: add them',
    );
    assert.deepEqual(
      Object.keys(visits).filter((pattern) => !pages.includes(pattern)),
      [],
      'URLs in portal-responsive.spec.ts of pages that no longer exist',
    );

    const sessions = new Map<TWho, { context: BrowserContext; page: Page; problems: string[] }>();
    async function sessionOf(who: TWho) {
      const existing = sessions.get(who);
      if (existing !== undefined) return existing;
      const context = await browser.newContext({
        viewport: { width: WIDTHS[0], height: HEIGHT },
        locale: 'es-DO',
        timezoneId: 'America/Santo_Domingo',
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`${page.url()}: page error: ${error.message}`));
      if (who !== 'anonymous') await signIn(page, users[who]);
      const session = { context, page, problems };
      sessions.set(who, session);
      return session;
    }

    const failures: string[] = [];
    let screenshots = 0;
    for (const pattern of pages) {
      for (const visit of visits[pattern] ?? []) {
        const { page } = await sessionOf(visit.who);
        await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
        const answer = await page.goto(portalUrl(visit.path));
        if (answer === null || answer.status() >= 400)
          assert.fail(
            `${visit.path}: HTTP ${answer?.status() ?? '—'} ${(await answer?.text())?.slice(0, 300) ?? ''}`,
          );
        await page.waitForLoadState('networkidle');
        const slug = `${visit.who}${pattern === '/' ? '-home' : pattern.replaceAll(/[[\]]/g, '').replaceAll('/', '-')}`;
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: HEIGHT });
          for (const problem of await layoutProblems(page))
            failures.push(`${visit.who} ${visit.path} at ${width} px: ${problem}`);
          if (width === 320) await checkAccessibility(page);
          else {
            await page.screenshot({ path: path.join(SCREENSHOTS, `${slug}-${width}.png`), fullPage: true });
            screenshots += 1;
          }
        }
      }
    }
    console.log(`e2e: ${screenshots} screenshots in ${SCREENSHOTS}`);
    assert.deepEqual(failures, [], 'layout problems');

    // Dense tables at 1366 px: the documents list needs no scrolling and each row is one line;
    // the support desk shows every column of the contingency table, the document linked.
    const owner = await sessionOf('owner');
    await owner.page.setViewportSize({ width: 1366, height: HEIGHT });
    await owner.page.goto(portalUrl('/TesteCF/documents'));
    // Measured once the live status has drawn the contingency row's countdown ("Reintento en 9:35").
    await owner.page.getByTestId('next-attempt').first().waitFor({ timeout: 10_000 });
    const documents = await columnsOutOfView(owner.page, 'Documentos emitidos en TesteCF');
    assert.equal(documents.scrolls, false, 'the documents list scrolls at 1366 px');
    assert.ok(documents.rowHeights.length >= 10, String(documents.rowHeights.length));
    assert.ok(
      documents.rowHeights.every((height) => height <= 48),
      `rows are one line at 1366 px: ${documents.rowHeights.join(', ')}`,
    );
    const typeCell = owner.page
      .getByRole('row', { name: /E31\d{10}/ })
      .first()
      .getByRole('cell')
      .first();
    assert.equal(await typeCell.textContent(), 'E31 · Crédito fiscal');
    const support = await sessionOf('support');
    await support.page.setViewportSize({ width: 1366, height: HEIGHT });
    await support.page.goto(portalUrl('/support'));
    const desk = await columnsOutOfView(support.page, 'Documentos en contingencia de todas las cuentas');
    assert.equal(desk.scrolls, false, 'the support desk hides columns at 1366 px');
    const link = support.page.getByRole('link', { name: contingencyEncf, exact: true });
    assert.match((await link.getAttribute('href')) ?? '', /^\/TesteCF\/documents\/[0-9a-f-]{36}$/);
    // Support opens the document of another tenant: the link switches to it first.
    await link.click();
    await support.page.waitForURL((url) => /^\/TesteCF\/documents\/[0-9a-f-]{36}$/.test(url.pathname));
    await support.page.getByRole('heading', { name: new RegExp(contingencyEncf), level: 1 }).waitFor();

    for (const session of sessions.values()) {
      assert.deepEqual(session.problems, [], 'pages raised errors');
      await session.context.close();
    }
  },
);

test('below 900 px the navigation is a "Menú" button: mouse, keyboard, Escape and navigation close it', async () => {
  const { owner } = await seedPortalTenant({ tradeName: 'Colmado La Esquina' });
  const context = await browser.newContext({ viewport: { width: 390, height: HEIGHT }, locale: 'es-DO' });
  const page = await context.newPage();
  await signIn(page, owner);
  await page.goto(portalUrl('/TesteCF/overview'));
  await page.waitForLoadState('networkidle');
  const navigation = page.getByRole('navigation', { name: 'Principal' });
  const menu = navigation.getByRole('button', { name: /^Menú/ });
  const documents = navigation.getByRole('link', { name: 'Documentos' });
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  const controls = await menu.getAttribute('aria-controls');
  assert.ok(controls);
  assert.equal(await page.locator(`[id="${controls}"]`).count(), 1, 'aria-controls names the list');
  assert.equal(await documents.isVisible(), false, 'the links are hidden while the menu is closed');

  // The mouse opens it; Escape closes it and the focus goes back to the button.
  await menu.click();
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  await documents.waitFor({ state: 'visible' });
  await checkAccessibility(page);
  await documents.focus();
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.equal(await documents.isVisible(), false);
  assert.equal(await menu.evaluate((element) => element === document.activeElement), true);

  // The keyboard: Enter opens, Tab reaches the first link, Space on the button closes.
  await page.keyboard.press('Enter');
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Tab');
  assert.equal(
    await navigation
      .getByRole('link')
      .first()
      .evaluate((element) => element === document.activeElement),
    true,
  );
  await menu.focus();
  await page.keyboard.press('Space');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');

  // Following a link closes it.
  await menu.click();
  await documents.click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/documents');
  await page.waitForLoadState('networkidle');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.equal(await navigation.getByRole('link', { name: 'Documentos' }).isVisible(), false);

  // From 900 px the sidebar is back: no button, every link shown.
  await page.setViewportSize({ width: 1366, height: HEIGHT });
  assert.equal(await menu.isVisible(), false);
  assert.equal(await navigation.getByRole('link', { name: 'Documentos' }).isVisible(), true);
  await context.close();
});
