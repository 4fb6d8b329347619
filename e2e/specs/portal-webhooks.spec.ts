// Webhooks: a developer configures an endpoint in the portal pointing at a local receiver (the stack
// runs with WEBHOOKS_ALLOW_PRIVATE_TARGETS on), the URL being checked as typed; the secret is shown
// once. A document emitted through the REST API produces an `ecf.queued` event whose delivery the
// receiver refuses with 400 (failed at once); the deliveries log shows the attempt (status, code,
// first bytes), and after the receiver is switched to 200 the replay delivers the same event,
// signed with the secret the page showed. Each page passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { seedApiKey } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

type TReceived = { headers: IncomingHttpHeaders; body: Buffer };

let browser: Browser;
let server: Server | undefined;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await closeDatabase();
});

/** A plain node:http receiver on 127.0.0.1 answering `status` (changeable), recording each request. */
async function startReceiver(): Promise<{
  url: string;
  received: TReceived[];
  answer: (status: number) => void;
}> {
  let status = 400;
  const received: TReceived[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status === 200 ? 'ok' : `rechazado ${status}`);
    });
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks/ecf`, received, answer: (next) => (status = next) };
}

/** Today in Dominican time (UTC-4), `YYYY-MM-DD`. */
function dominicanToday(): string {
  return new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
}

function simplifiedE31(encf: string): Record<string, unknown> {
  const year = Number(dominicanToday().slice(0, 4));
  return {
    type: 'E31',
    encf,
    sequenceExpirationDate: `31-12-${year + 1}`,
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Cemento gris', quantity: 2, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
}

/** True when one `v1` of the header is HMAC-SHA256 of `t.body` with `secret`. */
function isSignedWith(header: string, body: Buffer, secret: string): boolean {
  const parts = header.split(',');
  const timestamp = parts.find((part) => part.startsWith('t='))?.slice(2) ?? '';
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  return parts.some((part) => part === `v1=${expected}`);
}

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

test('a developer configures an endpoint, sees the delivery of an emitted document fail in the log and replays it', async () => {
  const { apiUrl, secrets } = stack();
  const receiver = await startReceiver();
  const { tenant, members } = await seedPortalTenant({
    tradeName: 'Distribuidora con Webhooks',
    members: [{ name: 'Dario Desarrollador', role: 'developer' }],
  });
  const developer = members[0];
  assert.ok(developer);
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Webhooks' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  const { key } = await seedApiKey(stackDatabase(), { tenantId: tenant.id, environment: 'TesteCF' });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, developer);
  await page.goto(portalUrl('/TesteCF/overview'));
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/webhooks');
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  await page.getByText('Aún no hay endpoints en este ambiente.').waitFor();
  await checkPage(page, 'webhooks');

  // The URL is checked as typed, by the server: a metadata address is refused on the field.
  const form = page.getByRole('form', { name: 'Crear un endpoint' });
  await form.getByLabel('Nombre').fill('ERP de prueba');
  const url = form.getByLabel('URL');
  await url.fill('http://169.254.169.254/latest/meta-data');
  await form.getByText('La URL apunta a una dirección que no es pública').waitFor();
  assert.equal(await url.getAttribute('aria-invalid'), 'true');
  await checkPage(page, 'webhooks-url-refused');
  await url.fill(receiver.url);
  await form.getByText('URL permitida.').waitFor();
  await form.getByRole('button', { name: 'Crear endpoint' }).click();
  const secretBox = page.getByTestId('new-webhook-secret');
  await secretBox.waitFor();
  const secret = ((await secretBox.textContent()) ?? '').trim();
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'Copiar secreto' }).waitFor();
  const row = page.getByRole('row', { name: /ERP de prueba/ });
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', /Activo/);
  await checkPage(page, 'webhooks-created');
  // Shown once: a reload does not show it again.
  await page.reload();
  await page.getByRole('row', { name: /ERP de prueba/ }).waitFor();
  assert.equal(await page.getByTestId('new-webhook-secret').count(), 0);
  assert.ok(!(await page.content()).includes(secret));

  // A document emitted through the REST API: its `ecf.queued` delivery is refused with 400.
  const encf = `E31${String(Date.now()).slice(-10)}`;
  const emitted = await fetch(`${apiUrl}/TesteCF/documentos-ecf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(simplifiedE31(encf)),
  });
  assert.equal(emitted.status, 202, await emitted.clone().text());

  await page.getByRole('link', { name: 'ERP de prueba' }).click();
  await page.waitForURL(/\/TesteCF\/webhooks\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'Endpoint ERP de prueba', level: 1 }).waitFor();
  const queued = page.getByTestId('webhook-delivery').filter({ hasText: 'ecf.queued' });
  await reloadUntil(
    page,
    async () => (await queued.count()) === 1 && (await queued.getAttribute('data-status')) === 'failed',
    'the ecf.queued delivery to fail',
  );
  const firstAttempt = queued.getByRole('row', { name: /^1\b/ });
  const attemptText = (await firstAttempt.textContent()) ?? '';
  assert.match(attemptText, /400/);
  assert.match(attemptText, /rechazado 400/);
  assert.match(attemptText, /Fallido/);
  assert.match((await queued.textContent()) ?? '', /intentos 1 de 8/);
  await checkPage(page, 'webhook-deliveries');

  // The receiver got it signed with the secret the page showed.
  const first = receiver.received.find((request) => request.headers['svc-event-type'] === 'ecf.queued');
  assert.ok(first, 'the receiver got the ecf.queued event');
  assert.equal(first.headers['user-agent'], 'Svc-Webhooks/1.0');
  assert.ok(isSignedWith(String(first.headers['svc-signature']), first.body, secret));
  const payload = JSON.parse(first.body.toString('utf8')) as { type: string; document: { encf: string } };
  assert.equal(payload.type, 'ecf.queued');
  assert.equal(payload.document.encf, encf);

  // The receiver accepts now: the replay delivers the same event (same id and body).
  receiver.answer(200);
  await queued.getByRole('button', { name: /Reenviar/ }).click();
  await reloadUntil(
    page,
    async () => (await queued.getAttribute('data-status')) === 'succeeded',
    'the replayed delivery to succeed',
  );
  const replayText = (await queued.textContent()) ?? '';
  assert.match(replayText, /intentos 2 de 8/);
  assert.match(replayText, /reenviada 1 vez/);
  assert.match((await queued.getByRole('row', { name: /^2\b/ }).textContent()) ?? '', /200/);
  const deliveries = receiver.received.filter(
    (request) => request.headers['svc-event-id'] === first.headers['svc-event-id'],
  );
  assert.equal(deliveries.length, 2);
  assert.ok(deliveries[1]?.body.equals(first.body));
  assert.ok(isSignedWith(String(deliveries[1]?.headers['svc-signature']), first.body, secret));
  await checkPage(page, 'webhook-replayed');

  // The filter keeps only succeeded deliveries, through the URL.
  await page.getByLabel('Estado de la entrega').selectOption('succeeded');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL((address) => address.searchParams.get('status') === 'succeeded');
  await page.getByTestId('webhook-delivery').filter({ hasText: 'ecf.queued' }).waitFor();
  assertNoConsoleErrors(problems);

  // Everything the developer did is in the audit log, without the secret.
  const entries = await stackDatabase().portalAuditEntry.findMany({
    where: { tenantId: tenant.id, action: { startsWith: 'webhook.' } },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    entries.map((entry) => entry.action),
    ['webhook.created', 'webhook.delivery_replayed'],
  );
  assert.ok(!JSON.stringify(entries.map((entry) => entry.data)).includes(secret));

  // Rotating the secret and deleting the endpoint each ask first: Cancel and Escape change nothing.
  const webhookActions = async () =>
    (
      await stackDatabase().portalAuditEntry.findMany({
        where: { tenantId: tenant.id, action: { startsWith: 'webhook.' } },
        orderBy: { id: 'asc' },
      })
    ).map((entry) => entry.action);
  await page.goto(portalUrl('/TesteCF/webhooks'));
  const listed = page.getByRole('row', { name: /ERP de prueba/ });
  const rotateDialog = page.getByRole('dialog', { name: '¿Rotar el secreto de ERP de prueba?' });
  await listed.getByRole('button', { name: 'Rotar secreto de ERP de prueba' }).click();
  await rotateDialog.getByText(/Se genera un secreto nuevo/).waitFor();
  await rotateDialog.getByRole('button', { name: 'Cancelar' }).click();
  await rotateDialog.waitFor({ state: 'hidden' });
  await listed.getByRole('button', { name: 'Rotar secreto de ERP de prueba' }).click();
  await rotateDialog.waitFor();
  await page.keyboard.press('Escape');
  await rotateDialog.waitFor({ state: 'hidden' });
  assert.equal(await page.getByTestId('rotated-webhook-secret').count(), 0);
  assert.deepEqual(await webhookActions(), ['webhook.created', 'webhook.delivery_replayed']);
  await listed.getByRole('button', { name: 'Rotar secreto de ERP de prueba' }).click();
  await rotateDialog.getByRole('button', { name: 'Rotar secreto' }).click();
  const rotated = page.getByTestId('rotated-webhook-secret');
  await rotated.waitFor();
  assert.notEqual(((await rotated.textContent()) ?? '').trim(), secret);

  const retireDialog = page.getByRole('dialog', { name: '¿Eliminar el endpoint ERP de prueba?' });
  await listed.getByRole('button', { name: 'Eliminar ERP de prueba' }).click();
  await retireDialog.getByText(/No recibirá más eventos/).waitFor();
  await checkPage(page, 'webhook-delete-confirm');
  await retireDialog.getByRole('button', { name: 'Cancelar' }).click();
  await retireDialog.waitFor({ state: 'hidden' });
  assert.match((await listed.textContent()) ?? '', /Activo/);
  assert.deepEqual(await webhookActions(), [
    'webhook.created',
    'webhook.delivery_replayed',
    'webhook.secret_rotated',
  ]);
  await listed.getByRole('button', { name: 'Eliminar ERP de prueba' }).click();
  await retireDialog.getByRole('button', { name: 'Eliminar endpoint' }).click();
  await page.getByText('«ERP de prueba» fue eliminado', { exact: false }).waitFor();
  await listed.getByText('Eliminado').waitFor();
  assert.equal((await webhookActions()).at(-1), 'webhook.retired');
  assertNoConsoleErrors(problems);
});
