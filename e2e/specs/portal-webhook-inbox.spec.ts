// A first webhook without a receiver of one's own (issue 27, item 5): in TesteCF the owner creates a
// test inbox ("Crear bandeja de prueba": an endpoint whose URL is the API's own /webhook-inbox/{token}),
// sends a test event ("Enviar prueba"), and the worker delivers it over HTTP to the inbox like to any
// endpoint; the inbox page shows the request with its headers, the body and "Firma válida", and the
// verification snippets. On the same page a queued delivery waiting for its retry is sent at once
// with "Reintentar ahora", and the last attempt of an exhausted delivery says "Sin más reintentos".
// Seeded through the services and the database; one browser page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { sendTestWebhook } from '@ecf/services';
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

/** A delivery of a test event to `endpointId` with no job (the spec sets its state), as the worker would leave it. */
async function seedDelivery(
  tenantId: string,
  endpointId: string,
  state: { status: 'queued' | 'failed'; attempts: number; failureReason?: string },
): Promise<string> {
  const database = stackDatabase();
  const { deliveryId } = await sendTestWebhook({ database, tenantId, endpointId, enqueue: async () => {} });
  const started = Date.now() - state.attempts * 60_000;
  await database.$transaction([
    database.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        status: state.status,
        attempts: state.attempts,
        lastAttemptAt: new Date(),
        // Waiting 20 minutes for its next attempt: nothing sends it before the button does.
        nextAttemptAt: new Date(Date.now() + 20 * 60_000),
        failureReason: state.failureReason ?? null,
        completedAt: state.status === 'failed' ? new Date() : null,
      },
    }),
    database.webhookDeliveryAttempt.createMany({
      data: Array.from({ length: state.attempts }, (_, index) => ({
        deliveryId,
        attempt: index + 1,
        startedAt: new Date(started + index * 60_000),
        durationMs: 12,
        outcome: 'retry' as const,
        responseStatus: 503,
        responseExcerpt: 'no disponible',
        error: 'http_status: 503',
      })),
    }),
  ]);
  return deliveryId;
}

test('a TesteCF test inbox receives a signed test event; "Reintentar ahora" and "Sin más reintentos"', async () => {
  const { tenant, owner } = await seedPortalTenant({ tradeName: 'Comercial Bandeja de Prueba' });
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  await page.goto(portalUrl('/TesteCF/webhooks'));
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Crear bandeja de prueba' }).click();
  const secret = page.getByTestId('new-inbox-secret');
  await secret.waitFor();
  assert.match(((await secret.textContent()) ?? '').trim(), /^whsec_[A-Za-z0-9_-]{43}$/);
  const row = page.getByRole('row', { name: /Bandeja de prueba/ });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /\/webhook-inbox\/[A-Za-z0-9_-]{43}/);
  await checkPage(page, 'webhook-inbox-created');

  // "Enviar prueba": the worker delivers it over HTTP to the API's inbox.
  await row.getByRole('button', { name: /Enviar prueba/ }).click();
  const endpoint = await stackDatabase().webhookEndpoint.findFirstOrThrow({
    where: { tenantId: tenant.id, name: 'Bandeja de prueba' },
  });
  await page.goto(portalUrl(`/TesteCF/webhooks/${endpoint.id}`));
  const requests = page.getByTestId('webhook-inbox-request');
  await reloadUntil(page, async () => (await requests.count()) >= 1, 'the test event to reach the inbox');
  const request = requests.first();
  const requestText = (await request.textContent()) ?? '';
  assert.match(requestText, /Firma válida/);
  assert.match(requestText, /webhook\.test/);
  assert.match(requestText, /svc-signature/);
  assert.match(requestText, /t=\d+,v1=[0-9a-f]{64}/);
  assert.match(requestText, /"type": "webhook\.test"/);
  const snippets = page.getByTestId('webhook-snippets');
  for (const name of ['JavaScript (Node.js)', 'Python', 'C# (.NET)'])
    await snippets.getByRole('heading', { name, level: 3 }).waitFor();
  assert.match(
    (await snippets.textContent()) ?? '',
    /verifySvcSignature[\s\S]*verify_svc_signature[\s\S]*SvcWebhook/,
  );
  const delivered = page.getByTestId('webhook-delivery').filter({ hasText: 'webhook.test' });
  await reloadUntil(
    page,
    async () => (await delivered.first().getAttribute('data-status')) === 'succeeded',
    'the test delivery to be marked delivered',
  );
  await checkPage(page, 'webhook-inbox-received');

  // A delivery waiting 20 minutes for its retry: "Reintentar ahora" sends it at once (to the inbox).
  const queuedId = await seedDelivery(tenant.id, endpoint.id, { status: 'queued', attempts: 1 });
  // An exhausted one: its last attempt says so instead of an empty next attempt.
  const exhaustedId = await seedDelivery(tenant.id, endpoint.id, {
    status: 'failed',
    attempts: 8,
    failureReason: 'attempts_exhausted',
  });
  await page.reload();
  const exhausted = page.locator(`[data-testid="webhook-delivery"]:has(#delivery-${exhaustedId})`);
  assert.equal(await exhausted.getAttribute('data-status'), 'failed');
  assert.match(
    (await exhausted.getByRole('row', { name: /^8\b/ }).textContent()) ?? '',
    /Sin más reintentos/,
  );
  assert.doesNotMatch(
    (await exhausted.getByRole('row', { name: /^7\b/ }).textContent()) ?? '',
    /Sin más reintentos/,
  );
  assert.equal(await exhausted.getByRole('button', { name: /Reintentar ahora/ }).count(), 0);
  const queued = page.locator(`[data-testid="webhook-delivery"]:has(#delivery-${queuedId})`);
  assert.equal(await queued.getAttribute('data-status'), 'queued');
  await checkPage(page, 'webhook-retry-now');
  await queued.getByRole('button', { name: /Reintentar ahora/ }).click();
  await reloadUntil(
    page,
    async () => (await queued.getAttribute('data-status')) === 'succeeded',
    'the retried delivery to succeed',
  );
  assert.match((await queued.textContent()) ?? '', /intentos 2 de 8/);
  assert.equal(await requests.count(), 2);
  const retried = await stackDatabase().webhookDelivery.findUniqueOrThrow({ where: { id: queuedId } });
  assert.equal(retried.attempts, 2);

  // At 320 px the page reflows: the body and the code scroll inside their own boxes.
  await page.setViewportSize({ width: 320, height: 800 });
  await page.reload();
  await requests.first().waitFor();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 320, `the page is ${width} px wide at 320 px`);
  assertNoConsoleErrors(problems);
});
