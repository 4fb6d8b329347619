// Sequences and annulments: a developer registers an eNCF range in the portal, prevalidates an
// annulment whose range holds an accepted document (the conflict shows on its row, with its
// reason), narrows it to the free numbers and sends it to the tax authority simulator (accepted,
// the signed document of the range cancelled); then an annulment whose answer is lost comes back
// uncertain and is reconciled on its page. An accountant sees no entry. Each page passes axe and
// is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { seedDocument } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

const encfOf = (sequence: number) => `E31${String(sequence).padStart(10, '0')}`;

test('a developer registers a range, prevalidates with a conflict, sends, and reconciles an uncertain annulment', async () => {
  const { simulatorUrl, secrets } = stack();
  const { tenant, members } = await seedPortalTenant({
    tradeName: 'Colmado con Anulaciones',
    members: [
      { name: 'Dora Desarrolladora', role: 'developer' },
      { name: 'Carlos Contador', role: 'accountant' },
    ],
  });
  const [developer, accountant] = members;
  assert.ok(developer && accountant);
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Anulaciones' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  const base = (Date.now() % 1_000_000) * 1000;
  const accepted = await seedDocument(stackDatabase(), {
    tenantId: tenant.id,
    encf: encfOf(base + 5),
    status: 'accepted',
  });
  const signed = await seedDocument(stackDatabase(), {
    tenantId: tenant.id,
    encf: encfOf(base + 12),
    status: 'signed',
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, developer);
  await page.goto(portalUrl('/TesteCF/overview'));
  const navigation = page.getByRole('navigation', { name: 'Principal' });
  await navigation.getByRole('link', { name: 'Secuencias' }).click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/sequences');
  await page.getByRole('heading', { name: 'Secuencias', level: 1 }).waitFor();
  await page.getByText('Todavía no hay rangos registrados en este ambiente.').waitFor();

  // Register a range: a reversed one is refused on its field first.
  const register = page.getByRole('form', { name: 'Registrar un rango' });
  await register.getByLabel('Primer e-NCF').fill(encfOf(base + 100));
  await register.getByLabel('Último e-NCF').fill(encfOf(base + 1));
  await register.getByLabel('Fecha de vencimiento de la secuencia').fill('2028-12-31');
  await register.getByRole('button', { name: 'Registrar rango' }).click();
  await register.getByText('El rango empieza después de terminar.').waitFor();
  await register.getByLabel('Primer e-NCF').fill(encfOf(base + 1));
  await register.getByLabel('Último e-NCF').fill(encfOf(base + 100));
  await register.getByRole('button', { name: 'Registrar rango' }).click();
  const row = page.getByRole('row', { name: new RegExp(encfOf(base + 1)) });
  await row.waitFor();
  // 100 numbers, two of them used by the account's documents.
  assert.match((await row.textContent()) ?? '', /E31.*2.*0.*98/);
  await checkPage(page, 'sequences');

  // Annulments: the accepted document blocks the first attempt, listed on its row with its reason.
  await navigation.getByRole('link', { name: 'Anulaciones' }).click();
  await page.waitForURL((url) => url.pathname === '/TesteCF/annulments');
  await page.getByRole('heading', { name: 'Anulaciones', level: 1 }).waitFor();
  const form = page.getByRole('form', { name: 'Anular rangos de e-NCF' });
  await form.getByLabel('Desde (rango 1)').fill(encfOf(base + 1));
  await form.getByLabel('Hasta (rango 1)').fill(encfOf(base + 20));
  await form.getByLabel('Motivo (opcional)').fill('Caja 3 retirada');
  await form.getByRole('button', { name: 'Prevalidar' }).click();
  const conflicts = page.getByRole('table', { name: 'Documentos que impiden la anulación' });
  await conflicts.waitFor();
  const conflictRow = conflicts.getByRole('row', { name: new RegExp(accepted.encf) });
  assert.match((await conflictRow.textContent()) ?? '', /Ya fue enviado a la DGII o validado por ella/);
  assert.ok(await form.getByRole('button', { name: 'Enviar a la DGII' }).isDisabled());
  await checkPage(page, 'annulments-conflict');

  // Two ranges around it: valid; the signed document that never left would be cancelled.
  await form.getByLabel('Hasta (rango 1)').fill(encfOf(base + 4));
  await form.getByRole('button', { name: 'Agregar rango' }).click();
  await form.getByLabel('Desde (rango 2)').fill(encfOf(base + 6));
  await form.getByLabel('Hasta (rango 2)').fill(encfOf(base + 20));
  await form.getByRole('button', { name: 'Prevalidar' }).click();
  const checked = page.getByText('Prevalidación correcta');
  await checked.waitFor();
  assert.match(
    (await page.getByText(/Se anularían/).textContent()) ?? '',
    new RegExp(`19 e-NCF.*${signed.encf}`),
  );
  await form.getByRole('button', { name: 'Enviar a la DGII' }).click();
  const sendDialog = page.getByRole('dialog', { name: '¿Enviar la anulación a la DGII?' });
  // The dialog says what will change; Cancel changes nothing: no annulment is built or sent.
  await sendDialog
    .getByText(new RegExp(`Se anularán 19 e-NCF y quedarán cancelados.*${signed.encf}`))
    .waitFor();
  await sendDialog.getByRole('button', { name: 'Cancelar' }).click();
  await sendDialog.waitFor({ state: 'hidden' });
  assert.equal(await stackDatabase().annulment.count({ where: { tenantId: tenant.id } }), 0);
  await form.getByRole('button', { name: 'Enviar a la DGII' }).click();
  await sendDialog.getByRole('button', { name: 'Enviar' }).click();
  await page.getByText('Anulación Aceptada').waitFor();
  await checkPage(page, 'annulments-accepted');
  await page.getByRole('link', { name: 'Ver el estado de la anulación' }).click();
  await page.waitForURL(/\/TesteCF\/annulments\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name: 'Anulación de e-NCF', level: 1 }).waitFor();
  await page.getByRole('table', { name: 'Cancelados' }).getByRole('link', { name: signed.encf }).waitFor();
  await checkPage(page, 'annulment-accepted');
  const cancelled = await stackDatabase().document.findUniqueOrThrow({ where: { id: signed.id } });
  assert.equal(cancelled.status, 'cancelled');

  // The tax authority's answer is lost: uncertain, reconciled on its page.
  const fault = await fetch(`${simulatorUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ environment: '*', service: 'anulacionrangos', fault: 'lose_answer', count: 1 }),
  });
  assert.equal(fault.status, 201);
  await page.goto(portalUrl('/TesteCF/annulments'));
  const again = page.getByRole('form', { name: 'Anular rangos de e-NCF' });
  await again.getByLabel('Desde (rango 1)').fill(encfOf(base + 50));
  await again.getByLabel('Hasta (rango 1)').fill(encfOf(base + 60));
  await again.getByRole('button', { name: 'Prevalidar' }).click();
  await page.getByText('Prevalidación correcta').waitFor();
  await again.getByRole('button', { name: 'Enviar a la DGII' }).click();
  await page
    .getByRole('dialog', { name: '¿Enviar la anulación a la DGII?' })
    .getByRole('button', { name: 'Enviar' })
    .click();
  await page.getByText('Anulación Incierta').waitFor();
  await page.getByRole('link', { name: 'Ver el estado de la anulación' }).click();
  await page.waitForURL(/\/TesteCF\/annulments\/[0-9a-f-]{36}$/);
  const reconcile = page.getByRole('form', { name: 'Conciliar la anulación' });
  await reconcile.getByRole('button', { name: 'Conciliar' }).click();
  await reconcile.getByText('Pegue la respuesta de la DGII (o el texto que la prueba).').waitFor();
  await checkPage(page, 'annulment-uncertain');
  await reconcile.getByLabel('Evidencia: la respuesta de la DGII').fill('{"codigo":"1","nombre":"Aceptado"}');
  await reconcile.getByRole('button', { name: 'Conciliar' }).click();
  await page
    .getByRole('dialog', { name: '¿Fijar el resultado de la anulación?' })
    .getByRole('button', { name: 'Conciliar' })
    .click();
  await page.getByRole('heading', { name: 'Conciliación' }).waitFor();
  await page.getByText(/^[0-9a-f]{64}$/).waitFor();
  await checkPage(page, 'annulment-reconciled');
  // Both annulments are in the list, newest first; the state filter narrows it; a row opens its page.
  const annulmentId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.goto(portalUrl('/TesteCF/annulments'));
  const list = page.getByRole('table', { name: 'Anulaciones enviadas' });
  await list.waitFor();
  assert.equal(await list.getByRole('row').count(), 3); // the header and two annulments
  assert.match(
    (await list.getByRole('row').nth(1).textContent()) ?? '',
    new RegExp(`Aceptada.*${encfOf(base + 50)}`),
  );
  await checkPage(page, 'annulments-list');
  const filters = page.getByRole('navigation', { name: 'Filtrar por estado' });
  await filters.getByRole('link', { name: 'Incierta' }).click();
  await page.waitForURL((url) => url.searchParams.get('status') === 'uncertain');
  await page.getByText('No hay anulaciones en este estado.').waitFor();
  await filters.getByRole('link', { name: 'Aceptada' }).click();
  await page.waitForURL((url) => url.searchParams.get('status') === 'accepted');
  await page
    .getByRole('table', { name: 'Anulaciones enviadas' })
    .getByRole('row')
    .nth(1)
    .getByRole('link')
    .click();
  await page.waitForURL((url) => url.pathname === `/TesteCF/annulments/${annulmentId}`);
  await page.getByRole('heading', { name: 'Conciliación' }).waitFor();
  // The two refusals above (the reversed range, the conflict) are 400 answers the browser logs.
  assertNoConsoleErrors(problems.filter((problem) => !problem.includes('status of 400 (Bad Request)')));
  assert.equal(problems.length, 2);

  // An accountant has neither entry, and the pages answer 403.
  const { page: other } = await newPortalPage(browser);
  await signIn(other, accountant);
  await other.goto(portalUrl('/TesteCF/overview'));
  const menu = other.getByRole('navigation', { name: 'Principal' });
  await menu.getByRole('link', { name: 'Documentos' }).waitFor();
  assert.equal(await menu.getByRole('link', { name: 'Anulaciones' }).count(), 0);
  assert.equal(await menu.getByRole('link', { name: 'Secuencias' }).count(), 0);
  const forbidden = await other.goto(portalUrl('/TesteCF/annulments'));
  assert.equal(forbidden?.status(), 403);
});
