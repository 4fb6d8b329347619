// Live status (issue 27 item 4): the overview, the documents list, a document page, the webhook deliveries and the
// support desk update without a reload while the stack runs (the portal polls every second here:
// WEB_LIVE_POLL_MS in support/stack.ts; 5 s in production). Documents are seeded in contingency with
// their next retry ten minutes ahead (the worker's sweeper leaves them alone) and moved in the
// database, as the worker would; the documents' trigger writes the webhook events the worker fans out
// into deliveries. A marker on `window` proves that no page was reloaded.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { Prisma, seedDocument } from '@ecf/db';
import { createCertificateKeyring, createWebhookEndpoint } from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, seedPortalUser, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

const sequence = randomInt(1_000_000, 9_000_000);
const encf = (offset: number) => `E31${String(sequence * 100 + offset).padStart(10, '0')}`;

/** A document in contingency whose next retry is `inMs` ahead (as the contingency schedule writes it). */
function inContingency(tenantId: string, offset: number, inMs = 600_000) {
  return seedDocument(stackDatabase(), {
    tenantId,
    encf: encf(offset),
    status: 'contingency',
    contingencySince: new Date(Date.now() - 120_000),
    lastError: {
      code: 'TAXAUTH_UNAVAILABLE',
      message: 'The tax authority did not answer (http_503): 503',
      retrying: true,
      failures: 2,
      nextAttemptAt: new Date(Date.now() + inMs).toISOString(),
    },
  });
}

/** What the worker does when the tax authority accepts a document (the status trigger writes the event). */
async function accept(documentId: string): Promise<void> {
  await stackDatabase().document.update({
    where: { id: documentId },
    data: { status: 'accepted', lastError: Prisma.DbNull, trackId: `live-${documentId.slice(0, 8)}` },
  });
}

/** Marks the page's window: a reload would drop the marker. */
async function markWindow(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { liveMarker?: string }).liveMarker = 'sin recargar';
  });
}

async function assertNotReloaded(page: Page): Promise<void> {
  assert.equal(
    await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker),
    'sin recargar',
    'the page was reloaded',
  );
}

test('the overview, the documents list, a document page, webhook deliveries and the support desk update without reload', async () => {
  const { secrets } = stack();
  const { tenant, owner } = await seedPortalTenant({ tradeName: 'Colmado en Vivo' });
  const { endpoint } = await createWebhookEndpoint({
    database: stackDatabase(),
    tenantId: tenant.id,
    environment: 'TesteCF',
    name: 'Contabilidad en vivo',
    url: 'http://127.0.0.1:9/webhooks/ecf',
    eventTypes: 'all',
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    allowPrivateTargets: true,
  });
  const listed = await inContingency(tenant.id, 1);
  const opened = await inContingency(tenant.id, 2, 130_000);
  const accepted = await seedDocument(stackDatabase(), {
    tenantId: tenant.id,
    encf: encf(3),
    status: 'accepted',
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);

  // The overview: a document entering contingency changes the totals in place.
  await page.goto(portalUrl('/TesteCF/overview'));
  await page.getByText(/^Actualizado hace \d+ s$/).waitFor({ timeout: 10_000 });
  const card = page
    .getByRole('list', { name: 'Totales' })
    .getByRole('listitem')
    .filter({ hasText: 'En contingencia' });
  await card.getByText('2', { exact: true }).waitFor({ timeout: 10_000 });
  await markWindow(page);
  const entered = await inContingency(tenant.id, 6);
  await card.getByText('3', { exact: true }).waitFor({ timeout: 10_000 });
  await assertNotReloaded(page);
  await accept(entered.id);

  // The list: pending rows show their countdown; an accepted row is not watched.
  await page.goto(portalUrl('/TesteCF/documents'));
  const row = page.locator(`[data-testid="live-document-status"][data-document-id="${listed.id}"]`);
  await row.getByText(/^Reintento en \d+:\d\d$/).waitFor({ timeout: 10_000 });
  await page
    .getByText(/^Actualizado hace \d+ s$/)
    .first()
    .waitFor({ timeout: 10_000 });
  assert.equal(
    await page
      .locator(`[data-testid="live-document-status"][data-document-id="${accepted.id}"]`)
      .getAttribute('data-status'),
    'accepted',
  );
  await markWindow(page);
  await accept(listed.id);
  await page
    .locator(`[data-testid="live-document-status"][data-document-id="${listed.id}"][data-status="accepted"]`)
    .waitFor({ timeout: 10_000 });
  await assertNotReloaded(page);
  await checkPage(page, 'portal-live-documents');

  // A document page: the countdown ticks, then the status and the timeline follow the change.
  await page.goto(portalUrl(`/TesteCF/documents/${opened.id}`));
  const state = page.locator('[data-testid="live-document-status"]');
  const countdown = state.getByText(/^Próximo intento en 2 min( \d+ s)?$|^Próximo intento en 1 min \d+ s$/);
  await countdown.waitFor({ timeout: 10_000 });
  const first = await countdown.textContent();
  await page.waitForTimeout(1500);
  assert.notEqual(
    await state.getByTestId('next-attempt').textContent(),
    first,
    'the countdown does not move',
  );
  await state.getByText(/^Actualizado hace \d+ s$/).waitFor();
  await markWindow(page);
  await accept(opened.id);
  await page
    .locator('[data-testid="live-document-status"][data-status="accepted"]')
    .waitFor({ timeout: 10_000 });
  // The page itself was rendered again in place: the TrackId the change set is shown.
  await page.getByText(`live-${opened.id.slice(0, 8)}`).waitFor({ timeout: 10_000 });
  await assertNotReloaded(page);
  await checkPage(page, 'portal-live-document');

  // Webhook deliveries: the acceptance of another document is a new delivery on the open page.
  await page.goto(portalUrl(`/TesteCF/webhooks/${endpoint.id}`));
  await page.getByText(/^Actualizado hace \d+ s$/).waitFor({ timeout: 10_000 });
  const deliveries = page.getByTestId('webhook-delivery');
  const before = await deliveries.count();
  await markWindow(page);
  const third = await inContingency(tenant.id, 4);
  await accept(third.id);
  const deadline = Date.now() + 20_000;
  while ((await deliveries.count()) <= before) {
    assert.ok(Date.now() < deadline, `no new delivery appeared (still ${before})`);
    await page.waitForTimeout(250);
  }
  await assertNotReloaded(page);
  assertNoConsoleErrors(problems);

  // The support desk: a document entering contingency appears on the open desk with its countdown.
  const support = await seedPortalUser({ name: 'Sonia Soporte', isSupport: true });
  const desk = await newPortalPage(browser);
  await signIn(desk.page, support);
  await desk.page.goto(portalUrl('/support'));
  await desk.page.getByRole('heading', { name: 'Mesa de soporte', level: 1 }).waitFor();
  await desk.page.getByText(/^Actualizado hace \d+ s$/).waitFor({ timeout: 10_000 });
  await markWindow(desk.page);
  const entering = await inContingency(tenant.id, 5, 250_000);
  const deskRow = desk.page.getByRole('row').filter({ hasText: entering.encf });
  await deskRow.waitFor({ timeout: 15_000 });
  await deskRow.getByText(/^en 4 min( \d+ s)?$/).waitFor({ timeout: 5000 });
  await assertNotReloaded(desk.page);
  await checkPage(desk.page, 'portal-live-support-desk');
  assertNoConsoleErrors(desk.problems);

  // Support's refreshes of the desk are not one audit entry per poll.
  const views = await stackDatabase().portalAuditEntry.count({
    where: {
      tenantId: tenant.id,
      action: 'support.viewed',
      actorUserId: support.id,
      targetId: 'support.contingency',
    },
  });
  assert.equal(views, 1, `support.contingency was audited ${views} times in a few seconds of polling`);
});
