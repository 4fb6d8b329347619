// Certification (issue 19): the owner of the taxpayer the tax authority's model workbook was
// generated for (RNC 132641566) opens Certificación: outside CerteCF it points there; in CerteCF the
// fifteen steps with step 1 current and the URLs to register. Attesting a later step is refused in
// order, naming the missing steps. The workbook is uploaded and prevalidated (25 rows in send
// order), the run started and watched on its page until the simulator accepted every row (the page
// refreshes itself); back on Certificación the data step is done and the next action is the
// commercial approvals. The evidence ZIP's manifest lists every file with its SHA-256. An accountant
// reads without the forms; another tenant gets 404 for the run and its evidence. A run the tax
// authority failed shows the rejected row with its message, and the data tests are restarted after
// a confirmation. The commercial approvals workbook (buyer RNC 131256432, loaded at the simulator's
// certification portal) is sent row by row until accepted, and the simulation comes next. Each page
// passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { SEEDED_REJECTION_MESSAGE, seedRejectedCertificationRun } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core/testing';
import { CERTIFICATION_STEPS, createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { launchBrowser } from '../support/browser.ts';
import { REPOSITORY } from '../support/portal-build.ts';
import { assertNoConsoleErrors, checkPage, newPortalPage, portalUrl, signIn } from '../support/portal.ts';
import { closeDatabase, seedPortalTenant, stackDatabase } from '../support/seed.ts';
import { stack } from '../support/stack.ts';

/** The tax authority's "Set de Pruebas e-CF" generated for RNC 132641566 (25 ECF rows, 4 RFCE). */
const WORKBOOK = path.join(
  REPOSITORY,
  'packages',
  'certification-sets',
  'model',
  '132641566-set-pruebas-ecf.xlsx',
);
const RNC = '132641566';
/** The tax authority's "Set Aprobaciones Comerciales" generated for buyer RNC 131256432 (11 rows). */
const APPROVALS_WORKBOOK = path.join(
  REPOSITORY,
  'packages',
  'certification-sets',
  'model',
  '131256432-set-aprobaciones-comerciales.xlsx',
);

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await closeDatabase();
});

/** A disabled action's reason, as the button is described by it (`aria-describedby`). */
async function disabledReasonOf(page: Page, name: string): Promise<string> {
  const button = page.getByRole('button', { name, exact: true });
  assert.ok(await button.isDisabled(), `"${name}" is disabled`);
  const described = await button.getAttribute('aria-describedby');
  assert.ok(described, `"${name}" is described by its reason`);
  const reason = page.locator(`[id="${described}"]`);
  assert.ok(await reason.isVisible(), `the reason of "${name}" is shown`);
  return (await reason.textContent()) ?? '';
}

test('the data tests from the workbook to an accepted run, row by row; steps in order; evidence; not found elsewhere', async () => {
  const { secrets } = stack();
  const { tenant, owner, members } = await seedPortalTenant({
    tradeName: 'Documentos Electrónicos de 02',
    rnc: RNC,
    members: [{ name: 'Carla Contadora', role: 'accountant' }],
  });
  const [accountant] = members;
  assert.ok(accountant);
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Certificación' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  // Outside CerteCF the page says where certification happens.
  await page.goto(portalUrl('/TesteCF/certification'));
  await page.getByRole('heading', { name: 'Certificación', level: 1 }).waitFor();
  await page.getByText('La certificación se hace en CerteCF').waitFor();
  await checkPage(page, 'certification-elsewhere');
  await page.getByRole('link', { name: 'Ir a la certificación en CerteCF' }).click();
  await page.waitForURL((url) => url.pathname === '/CerteCF/certification');
  assert.equal(
    await page
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Certificación' })
      .getAttribute('href'),
    '/CerteCF/certification',
  );

  // Fifteen steps, the first current; the next action first; the URLs to register.
  const steps = page.getByRole('list', { name: 'Pasos de la certificación' }).getByRole('listitem');
  assert.equal(await steps.count(), 15);
  await page.getByRole('heading', { name: 'Próximo paso: 1. Registrado' }).waitFor();
  assert.equal(await steps.nth(0).getAttribute('data-state'), 'current');
  assert.equal(await steps.nth(0).getAttribute('aria-current'), 'step');
  await page.getByText(`${stack().apiUrl}/CerteCF`, { exact: true }).first().waitFor();
  await checkPage(page, 'certification');

  // Before a set opens the case, step 1 is the upload: no step is marked by hand yet.
  assert.equal(await page.getByRole('button', { name: /Marcar paso/ }).count(), 0);
  // Nothing to restart and no production to ask for yet: disabled, each saying why.
  assert.match(await disabledReasonOf(page, 'Reiniciar pruebas de datos'), /al subir el set de pruebas/);
  assert.match(await disabledReasonOf(page, 'Reiniciar simulación'), /al subir el set de pruebas/);
  assert.match(
    await disabledReasonOf(page, 'Solicitar activación de producción'),
    /Se habilita después de la declaración jurada \(paso 13\).*Pendiente: «1\. Registrado» y 12 paso\(s\) más\./,
  );

  // The workbook: prevalidated (nothing stored), then run.
  const form = page.getByRole('form', { name: 'Set de pruebas de datos' });
  await form.getByLabel('Set de pruebas e-CF de la DGII (.xlsx)').setInputFiles(WORKBOOK);
  await form.getByRole('button', { name: 'Prevalidar' }).click();
  await form.getByText('Prevalidación correcta').waitFor();
  assert.match(
    (await form.getByRole('status').first().textContent()) ?? '',
    /25 filas ECF y 4 RFCE del RNC 132641566/,
  );
  const planned = form.getByRole('table', { name: 'Documentos en orden de envío' }).getByRole('row');
  assert.equal(await planned.count(), 26, 'a header and 25 documents');
  await checkPage(page, 'certification-prevalidated');
  await form.getByRole('button', { name: 'Iniciar corrida' }).click();
  // The run page, or the form's refusal named in the failure (a loaded machine may take a while).
  const opened = await Promise.race([
    page
      .waitForURL((url) => url.pathname.startsWith('/CerteCF/certification/runs/'), { timeout: 90_000 })
      .then(() => null),
    form
      .locator('[role="alert"]')
      .first()
      .waitFor({ timeout: 90_000 })
      .then(async () => (await form.locator('[role="alert"]').first().textContent()) ?? ''),
  ]);
  assert.equal(opened, null, `the run did not start: ${String(opened)}`);
  const runId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.getByRole('heading', { name: 'Corrida de pruebas de datos', level: 1 }).waitFor();

  // The page refreshes itself every 2 s: the rows are seen being accepted until the run succeeds.
  const state = page.getByTestId('run-state');
  const acceptedCounts = new Set<number>();
  const deadline = Date.now() + 180_000;
  for (;;) {
    acceptedCounts.add(await page.locator('[data-testid="item-state"][data-state="accepted"]').count());
    const current = await state.getAttribute('data-state');
    if (current === 'succeeded') break;
    assert.ok(current === 'queued' || current === 'running', `the run ended ${current}`);
    assert.ok(Date.now() < deadline, 'the run did not finish within 3 minutes');
    await page.waitForTimeout(500);
  }
  await page.getByText('Corrida aceptada').waitFor();
  const rows = page.getByRole('table', { name: 'Documentos de la corrida, fila por fila' }).getByRole('row');
  assert.equal(await rows.count(), 26);
  assert.equal(await page.locator('[data-testid="item-state"][data-state="accepted"]').count(), 25);
  assert.ok(
    acceptedCounts.size >= 2,
    `rows were seen accepted as they came: ${[...acceptedCounts].join(', ')}`,
  );
  const firstRow = await rows.nth(1).textContent();
  assert.match(firstRow ?? '', new RegExp(`${RNC}E\\d{12}`), 'each row names its CasoPrueba');
  await checkPage(page, 'certification-run');

  // The evidence: a ZIP whose manifest lists every file with its SHA-256.
  const { name: evidenceName, content: downloaded } = await downloadEvidence(page);
  assert.match(
    evidenceName,
    new RegExp(`^certificacion-data-evidencia-${runId}\\.zip$`),
    // An error answer is JSON: its code says why.
    `the evidence download: ${evidenceName} ${downloaded.subarray(0, 400).toString('utf8')}`,
  );
  const files = unzipSync(new Uint8Array(downloaded));
  const manifest = JSON.parse(strFromU8(files['manifest.json'] ?? new Uint8Array())) as {
    runId: string;
    part: string;
    state: string;
    files: Array<{ name: string; size: number; sha256: string }>;
  };
  assert.deepEqual([manifest.runId, manifest.part, manifest.state], [runId, 'data', 'succeeded']);
  assert.deepEqual(
    manifest.files.map((file) => file.name).sort(),
    Object.keys(files)
      .filter((name) => name !== 'manifest.json')
      .sort(),
    'the manifest lists every file of the ZIP',
  );
  assert.ok(files['set/workbook.xlsx'], 'the workbook as uploaded');
  assert.equal(manifest.files.filter((file) => file.name.startsWith('xml/')).length, 25);
  // The four E32 below RD$250,000 went as their RFCE summaries, signed again identically.
  assert.equal(manifest.files.filter((file) => file.name.startsWith('rfce/')).length, 4);
  for (const file of manifest.files) {
    const content = files[file.name];
    assert.ok(content, file.name);
    assert.equal(content.byteLength, file.size, `size of ${file.name}`);
    assert.equal(createHash('sha256').update(content).digest('hex'), file.sha256, `SHA-256 of ${file.name}`);
  }
  assert.ok(
    (await readFile(WORKBOOK)).equals(Buffer.from(files['set/workbook.xlsx'] ?? new Uint8Array())),
    'the workbook byte for byte',
  );

  // Back on Certificación: steps 1 and 2 done, the next action is the commercial approvals.
  await page.getByRole('link', { name: 'Volver a Certificación' }).click();
  await page.waitForURL((url) => url.pathname === '/CerteCF/certification');
  await page
    .getByRole('heading', { name: 'Próximo paso: 3. Pruebas de datos aprobación comercial' })
    .waitFor();
  assert.equal(await steps.nth(0).getAttribute('data-state'), 'done');
  assert.equal(await steps.nth(1).getAttribute('data-state'), 'done');
  assert.match((await steps.nth(1).textContent()) ?? '', /por una corrida aceptada/);
  assert.equal(await steps.nth(2).getAttribute('data-state'), 'current');
  assert.match((await page.getByTestId('next-action').textContent()) ?? '', /aprobaciones comerciales/);
  await page.getByRole('form', { name: 'Enviar aprobaciones comerciales' }).waitFor();

  // A step of the tax authority's portal is attested in order: step 7 now is refused, naming the missing ones.
  await page.getByRole('button', { name: 'Marcar paso 7 como hecho' }).click();
  const dialog = page.getByRole('dialog', { name: /URL servicios prueba/ });
  await dialog.getByLabel('Notas (opcional)').fill('Registradas en el portal de la DGII');
  await dialog.getByRole('button', { name: 'Marcar como hecho' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'antes hay que completar' });
  await refusal.waitFor();
  assert.match(
    (await refusal.textContent()) ?? '',
    /3\. Pruebas de datos aprobación comercial, 4\. Simulación e-CF, 5\. Simulación representación impresa, 6\. Validación representación impresa/,
  );
  assert.equal(await steps.nth(6).getAttribute('data-state'), 'pending');
  const runsTable = page.getByRole('table', { name: 'Corridas de la certificación' });
  assert.match((await runsTable.getByRole('row').nth(1).textContent()) ?? '', /Aceptada.*25 de 25/);
  // The data tests can be restarted now; the simulation has nothing yet; production waits for step 13.
  assert.equal(await page.getByRole('button', { name: 'Reiniciar pruebas de datos' }).isEnabled(), true);
  assert.match(await disabledReasonOf(page, 'Reiniciar simulación'), /No hay simulación que reiniciar/);
  assert.match(
    await disabledReasonOf(page, 'Solicitar activación de producción'),
    /Pendiente: «3\. Pruebas de datos aprobación comercial» y 10 paso\(s\) más\./,
  );
  await checkPage(page, 'certification-data-done');
  // The one refused call is the early attestation (409).
  assertNoConsoleErrors(problems.filter((problem) => !problem.includes('status of 409 (Conflict)')));
  assert.equal(problems.length, 1);
  // An accountant follows it without the forms.
  const reader = await newPortalPage(browser);
  await signIn(reader.page, accountant);
  await reader.page.goto(portalUrl('/CerteCF/certification'));
  await reader.page.getByText('Su rol puede seguir la certificación, pero no cambiarla.').waitFor();
  assert.equal(await reader.page.getByRole('form', { name: 'Set de pruebas de datos' }).count(), 0);
  assert.equal(await reader.page.getByRole('button', { name: /Marcar paso/ }).count(), 0);
  await reader.page.goto(portalUrl(`/CerteCF/certification/runs/${runId}`));
  await reader.page.getByRole('heading', { name: 'Corrida de pruebas de datos', level: 1 }).waitFor();
  assertNoConsoleErrors(reader.problems);
  await reader.context.close();

  // Another tenant: the run page and its evidence are not found.
  const other = await seedPortalTenant({ tradeName: 'Otra Empresa' });
  const intruder = await newPortalPage(browser);
  await signIn(intruder.page, other.owner);
  const answer = await intruder.page.goto(portalUrl(`/CerteCF/certification/runs/${runId}`));
  assert.equal(answer?.status(), 404);
  const evidence = await intruder.page
    .context()
    .request.get(portalUrl(`/api/certification/runs/${runId}/evidence`));
  assert.equal(evidence.status(), 404);
  await intruder.context.close();
});

/** The tax authority's message of the rejected row. */
const REJECTION = SEEDED_REJECTION_MESSAGE;

test('a rejected row: its message on the run page, the failed case says what to do, the data tests restarted', async () => {
  const { tenant, owner } = await seedPortalTenant({ tradeName: 'Certificación Rechazada' });
  const { runId, encf } = await seedRejectedCertificationRun(stackDatabase(), {
    tenantId: tenant.id,
    rnc: tenant.rnc,
  });
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  await page.goto(portalUrl('/CerteCF/certification'));
  const failed = page.getByRole('alert').filter({ hasText: 'La última corrida falló' });
  await failed.waitFor();
  assert.match(
    (await failed.textContent()) ?? '',
    new RegExp(`La DGII rechazó ${encf} \\(fila 2\\)\\. Descargue un set nuevo`),
  );
  await checkPage(page, 'certification-failed');

  await failed.getByRole('link', { name: 'Ver la corrida' }).click();
  await page.waitForURL((url) => url.pathname === `/CerteCF/certification/runs/${runId}`);
  const rejectedRow = page.getByRole('row', { name: new RegExp(encf) }).first();
  await rejectedRow.waitFor();
  const rowText = (await rejectedRow.textContent()) ?? '';
  assert.match(rowText, /Rechazado/);
  assert.ok(rowText.includes(REJECTION.valor), 'the tax authority says why');
  assert.ok(rowText.includes(REJECTION.codigo));
  assert.equal(await page.getByTestId('run-state').getAttribute('data-state'), 'failed');
  await page.getByRole('alert').filter({ hasText: 'La corrida no terminó' }).waitFor();
  // A resolved receipt has nothing to resend.
  assert.equal(await page.getByRole('button', { name: /Reenviar/ }).count(), 0);
  await checkPage(page, 'certification-run-rejected');

  await page.getByRole('link', { name: 'Volver a Certificación' }).click();
  await page.waitForURL((url) => url.pathname === '/CerteCF/certification');
  // Only the data tests have something to restart.
  assert.match(await disabledReasonOf(page, 'Reiniciar simulación'), /No hay simulación que reiniciar/);
  await page.getByRole('button', { name: 'Reiniciar pruebas de datos' }).click();
  const confirm = page.getByRole('dialog', { name: '¿Reiniciar pruebas de datos?' });
  await confirm.getByText(/se deshacen los pasos 2 y 3/).waitFor();
  await checkPage(page, 'certification-restart-confirm');
  // Cancel changes nothing: the run is still the failed one, not replaced.
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await confirm.waitFor({ state: 'hidden' });
  await page.getByRole('alert').filter({ hasText: 'La última corrida falló' }).waitFor();
  assert.equal(
    (await stackDatabase().certificationRun.findUniqueOrThrow({ where: { id: runId } })).replacedAt,
    null,
  );
  await page.getByRole('button', { name: 'Reiniciar pruebas de datos' }).click();
  await confirm.getByRole('button', { name: 'Reiniciar' }).click();
  await page.getByText(/Pruebas de datos: se reinició la parte\./).waitFor();
  await page.getByRole('alert').filter({ hasText: 'La última corrida falló' }).waitFor({ state: 'detached' });
  assert.match(
    (await page.getByRole('table', { name: 'Corridas de la certificación' }).textContent()) ?? '',
    /Fallida/,
  );
  assert.notEqual(
    (await stackDatabase().certificationRun.findUniqueOrThrow({ where: { id: runId } })).replacedAt,
    null,
  );
  // Restarted, the data tests have nothing left to restart until a new run.
  assert.match(
    await disabledReasonOf(page, 'Reiniciar pruebas de datos'),
    /No hay pruebas de datos que reiniciar/,
  );
  assertNoConsoleErrors(problems);
});

test('production can be asked for once steps 1 to 13 are done, after a confirmation', async () => {
  const database = stackDatabase();
  const { tenant, owner } = await seedPortalTenant({ tradeName: 'Certificación Declarada' });
  // Steps 1 to 13 done (up to the sworn declaration): the tax authority's verification is next.
  const caseRow = await database.certificationCase.create({
    data: { tenantId: tenant.id, state: 'in_progress', step: 'status_verification' },
  });
  const sources: Record<string, string> = {
    registered: 'set',
    data_tests_ecf: 'run',
    data_tests_commercial_approval: 'approvals',
    simulation_ecf: 'run',
    reception_ecf: 'reception',
    reception_commercial_approval: 'reception',
  };
  // Steps 1 to 13: every one before the status verification.
  const steps = CERTIFICATION_STEPS.slice(0, CERTIFICATION_STEPS.indexOf('status_verification'));
  await database.certificationStepCompletion.createMany({
    data: steps.map((step) => ({ caseId: caseRow.id, step, source: sources[step] ?? 'attestation' })),
  });
  const productionState = async () =>
    (await database.tenant.findUniqueOrThrow({ where: { id: tenant.id } })).productionState;

  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  await page.goto(portalUrl('/CerteCF/certification'));
  await page.getByRole('heading', { name: 'Próximo paso: 14. Verificación estatus' }).waitFor();
  const ask = page.getByRole('button', { name: 'Solicitar activación de producción', exact: true });
  assert.equal(await ask.isEnabled(), true);
  assert.equal(await ask.getAttribute('aria-describedby'), null, 'no reason: it can apply');

  const dialog = page.getByRole('dialog', { name: '¿Solicitar la activación de producción?' });
  await ask.click();
  await dialog.getByText(/consulta ahora el directorio de producción de la DGII/).waitFor();
  await checkPage(page, 'certification-activation-confirm');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await productionState(), 'not_requested');
  assert.equal(await page.getByTestId('production-state').textContent(), 'No solicitada');

  await ask.click();
  await dialog.getByRole('button', { name: 'Solicitar activación' }).click();
  await page.getByText(/El servicio consulta ahora el directorio de la DGII/).waitFor();
  await page.getByTestId('production-state').getByText('En trámite').waitFor();
  assert.equal(await productionState(), 'pending');
  assertNoConsoleErrors(problems);
  await page.context().close();
});

test('the commercial approval tests: the workbook sent row by row, watched until accepted; the simulation is next', async () => {
  const { secrets } = stack();
  const { tenant, owner } = await seedPortalTenant({
    tradeName: 'Compradora Certificándose',
    rnc: '131256432',
  });
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Aprobaciones' });
  await storeTenantCertificate({
    database: stackDatabase(),
    keyring: createCertificateKeyring({ currentKey: secrets['CERTIFICATE_MASTER_KEY'] ?? '' }),
    tenantId: tenant.id,
    p12: certificate.p12,
    password: certificate.password,
  });
  // The tax authority issued this workbook for the RNC (the simulator's certification portal judges
  // each ACECF against it, literally).
  const loaded = await fetch(`${stack().simulatorUrl}/_sim/certification/${tenant.rnc}/workbooks/approvals`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: await readFile(APPROVALS_WORKBOOK),
  });
  assert.ok(loaded.ok, `the simulator loaded the workbook: ${loaded.status} ${await loaded.text()}`);
  // The data tests were accepted (as a data run leaves the case).
  const caseRow = await stackDatabase().certificationCase.create({
    data: { tenantId: tenant.id, step: 'data_tests_commercial_approval' },
  });
  for (const step of ['registered', 'data_tests_ecf'] as const)
    await stackDatabase().certificationStepCompletion.create({
      data: { caseId: caseRow.id, step, source: 'run' },
    });
  const { page, problems } = await newPortalPage(browser);
  await signIn(page, owner);
  await page.goto(portalUrl('/CerteCF/certification'));
  const form = page.getByRole('form', { name: 'Enviar aprobaciones comerciales' });
  await form.getByLabel(/Set de aprobaciones comerciales de la DGII/).setInputFiles(APPROVALS_WORKBOOK);
  await form.getByRole('button', { name: 'Enviar aprobaciones comerciales' }).click();
  // Watched every 2 s until the send ends: each row signed and accepted in turn.
  const state = page.getByTestId('approvals-state');
  await state.waitFor();
  const deadline = Date.now() + 120_000;
  while (['queued', 'running'].includes((await state.getAttribute('data-state')) ?? '')) {
    assert.ok(Date.now() < deadline, 'the send did not end within 2 minutes');
    await page.waitForTimeout(500);
  }
  assert.equal(await state.getAttribute('data-state'), 'succeeded', (await state.textContent()) ?? '');
  const rows = page.getByRole('table', { name: 'Aprobaciones comerciales, fila por fila' }).getByRole('row');
  assert.equal(await rows.count(), 12, 'a header and 11 rows');
  const first = (await rows.nth(1).textContent()) ?? '';
  assert.match(first, /131880681/);
  assert.match(first, /Aceptado/);
  // The send's end completes step 3: the page renders again with the simulation next.
  await page.getByRole('heading', { name: 'Próximo paso: 4. Simulación e-CF' }).waitFor();
  await page.getByText('La DGII aceptó las aprobaciones comerciales.').waitFor();
  const simulation = page.getByRole('form', { name: 'Set de simulación' });
  assert.equal(await simulation.getByRole('radio', { name: /Modelo de la DGII/ }).isChecked(), true);
  await checkPage(page, 'certification-approvals');
  assertNoConsoleErrors(problems);
});

/**
 * Clicks "Descargar evidencia (ZIP)" and reads the file. A 503 SERVICE_UNAVAILABLE (no database
 * connection was free on a loaded machine; its Retry-After says to send again) is clicked again
 * once, as a user would; any other error answer is returned for the assertion to show.
 */
async function downloadEvidence(page: Page): Promise<{ name: string; content: Buffer }> {
  for (let attempt = 1; ; attempt += 1) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Descargar evidencia (ZIP)' }).click(),
    ]);
    const content = await readFile(await download.path());
    const name = download.suggestedFilename();
    const busy = name.endsWith('.json') && content.toString('utf8').includes('"SERVICE_UNAVAILABLE"');
    if (!busy || attempt === 2) return { name, content };
    await page.waitForTimeout(2_000);
  }
}
