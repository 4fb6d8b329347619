// API keys and the certificate: a developer creates a key on the page, copies it from the page,
// and this test uses it against the REST API; revoked, the API refuses it (401). A developer is
// not offered tenant:admin; an accountant gets the 403 page. The owner uploads a generated test
// certificate (a wrong password first, shown on its field), and the page shows its metadata; a
// second one replaces it only after a dialog comparing both (subject, serial, validity) is confirmed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { createTestCertificate } from '@ecf/fiscal-core';
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

/** A read of the REST API with the key (contingency list: `status:read`). */
async function apiStatusWith(key: string): Promise<number> {
  const response = await fetch(`${stack().apiUrl}/TesteCF/contingencia`, { headers: { 'x-api-key': key } });
  await response.body?.cancel();
  return response.status;
}

test('a developer creates a key, copies it, the API accepts it; revoked, the API refuses it', async () => {
  const { members } = await seedPortalTenant({
    members: [
      { name: 'Dario Desarrollador', role: 'developer' },
      { name: 'Carla Contadora', role: 'accountant' },
    ],
  });
  const [developer, accountant] = members;
  assert.ok(developer && accountant);

  const side = await newPortalPage(browser);
  await side.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(stack().portalUrl).origin,
  });
  await signIn(side.page, developer);
  await side.page.goto(portalUrl('/TesteCF/api-keys'));
  await side.page.getByRole('heading', { name: 'Claves API', level: 1 }).waitFor();
  await side.page.getByText('Aún no hay claves en este ambiente.').waitFor();
  await checkPage(side.page, 'api-keys');

  const form = side.page.getByRole('form', { name: 'Crear una clave API' });
  // A developer is never offered more power than their role.
  assert.equal(await form.getByRole('checkbox', { name: /tenant:admin/ }).count(), 0);
  assert.equal(await form.getByRole('checkbox').count(), 4);
  // The same schema as the server's: a name is required, shown on its field.
  await form.getByRole('button', { name: 'Crear clave' }).click();
  await form.getByText('Escriba un nombre para la clave.').waitFor();
  await form.getByLabel(/^Nombre/).fill('Integración ERP');
  await form.getByRole('button', { name: 'Crear clave' }).click();

  const shown = side.page.getByTestId('new-api-key');
  await shown.waitFor();
  await side.page.getByRole('button', { name: 'Copiar clave' }).click();
  await side.page.getByRole('button', { name: 'Clave copiada' }).waitFor();
  const key = await side.page.evaluate(() => navigator.clipboard.readText());
  assert.equal(key, (await shown.textContent())?.trim());
  assert.match(key, /^ecf_test_/);
  await side.page
    .getByRole('row', { name: /Integración ERP/ })
    .getByText('Activa')
    .waitFor();
  await checkPage(side.page, 'api-keys-created');

  assert.equal(await apiStatusWith(key), 200);

  // Shown once: a new visit lists the key by its prefix only.
  await side.page.reload();
  await side.page.getByRole('row', { name: /Integración ERP/ }).waitFor();
  assert.equal(await side.page.getByTestId('new-api-key').count(), 0);
  assert.equal(await side.page.getByText(key).count(), 0);

  await side.page.getByRole('button', { name: 'Revocar la clave Integración ERP' }).click();
  const dialog = side.page.getByRole('dialog', { name: '¿Revocar la clave Integración ERP?' });
  await dialog.waitFor();
  await checkPage(side.page, 'api-keys-revoke-confirm');
  // Cancel changes nothing: the key still works.
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await apiStatusWith(key), 200);
  await side.page.getByRole('button', { name: 'Revocar la clave Integración ERP' }).click();
  await dialog.getByRole('button', { name: 'Revocar clave' }).click();
  await side.page
    .getByRole('row', { name: /Integración ERP/ })
    .getByText(/Revocada el/)
    .waitFor();
  assert.equal(await apiStatusWith(key), 401);
  assertNoConsoleErrors(side.problems);
  await side.context.close();

  // An accountant has no keys page.
  const reader = await newPortalPage(browser);
  await signIn(reader.page, accountant);
  const response = await reader.page.goto(portalUrl('/TesteCF/api-keys'));
  assert.equal(response?.status(), 403);
  await reader.page.getByRole('heading', { name: 'Acceso no permitido' }).waitFor();
  assert.equal(await reader.page.getByRole('link', { name: 'Claves API' }).count(), 0);
  await reader.context.close();
});

test('the owner uploads the generated test certificate; a wrong password is shown on its field', async () => {
  const { owner, tenant, members } = await seedPortalTenant({
    members: [{ name: 'Carla Contadora', role: 'accountant' }],
  });
  const generated = createTestCertificate({
    rnc: tenant.rnc,
    commonName: 'Olga Propietaria (certificado de prueba)',
    password: 'clave-del-certificado',
  });
  const serial = new X509Certificate(generated.certificatePem).serialNumber.toUpperCase();
  const side = await newPortalPage(browser);
  await signIn(side.page, owner);
  await side.page.goto(portalUrl('/certificate'));
  await side.page.getByText('La cuenta no tiene certificado').waitFor();
  await checkPage(side.page, 'certificate-empty');

  const form = side.page.getByRole('form', { name: 'Subir un certificado' });
  const file = { name: 'firma.p12', mimeType: 'application/x-pkcs12', buffer: generated.p12 };
  await form.getByLabel(/^Archivo del certificado/).setInputFiles(file);
  await form.getByLabel(/^Contraseña del certificado/).fill('no-es-la-clave');
  await form.getByRole('button', { name: 'Subir certificado' }).click();
  await form.getByText('La contraseña no abre este certificado.').waitFor();
  assert.equal(await form.getByLabel(/^Contraseña del certificado/).getAttribute('aria-invalid'), 'true');
  await checkPage(side.page, 'certificate-wrong-password');

  await form.getByLabel(/^Archivo del certificado/).setInputFiles(file);
  await form.getByLabel(/^Contraseña del certificado/).fill(generated.password);
  await form.getByRole('button', { name: 'Subir certificado' }).click();
  await side.page.getByText('Certificado instalado').waitFor();
  const details = side.page.getByTestId('active-certificate');
  await details.getByText(serial).waitFor();
  assert.match((await details.textContent()) ?? '', new RegExp(tenant.rnc));
  assert.match((await details.textContent()) ?? '', /Firma digital, No repudio/);
  await side.page
    .getByRole('row', { name: new RegExp(serial) })
    .getByText('Activo')
    .waitFor();
  await checkPage(side.page, 'certificate');
  assert.ok(!(await side.page.content()).includes(generated.password));

  // Replacing it: the server reads the new file first (nothing installed) and the dialog shows the
  // subject, serial and validity of both. Cancel and Escape leave the active certificate as it was.
  const replacement = createTestCertificate({
    rnc: tenant.rnc,
    commonName: 'Olga Propietaria (certificado nuevo)',
    password: 'clave-del-nuevo',
    validFrom: new Date('2025-03-10T12:00:00Z'),
    validTo: new Date('2031-06-15T12:00:00Z'),
  });
  const newSerial = new X509Certificate(replacement.certificatePem).serialNumber.toUpperCase();
  const submit = form.getByRole('button', { name: 'Subir certificado' });
  const replaceDialog = side.page.getByRole('dialog', { name: '¿Reemplazar el certificado de firma?' });
  const askToReplace = async () => {
    await form
      .getByLabel(/^Archivo del certificado/)
      .setInputFiles({ name: 'nuevo.p12', mimeType: 'application/x-pkcs12', buffer: replacement.p12 });
    await form.getByLabel(/^Contraseña del certificado/).fill(replacement.password);
    await submit.click();
    await replaceDialog.waitFor();
  };
  const focusedText = () => side.page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);
  const activeUnchanged = async () => {
    await details.getByText(serial).waitFor();
    assert.equal(await details.getByText(newSerial).count(), 0);
    assert.equal(await stackDatabase().tenantCertificate.count({ where: { tenantId: tenant.id } }), 1);
  };
  await askToReplace();
  assert.equal(await focusedText(), 'Cancelar', 'the safe choice has the focus');
  const comparison = replaceDialog.getByTestId('certificate-comparison');
  const cellsOf = (label: string) =>
    comparison
      .locator('tr', { has: side.page.getByRole('rowheader', { name: label, exact: true }) })
      .getByRole('cell')
      .allTextContents();
  assert.deepEqual(
    (await comparison.getByRole('columnheader').allTextContents()).map((text) => text.trim()),
    ['Actual', 'Nuevo'],
  );
  const [currentSubject, newSubject] = await cellsOf('Titular');
  assert.match(currentSubject ?? '', /CN=Olga Propietaria \(certificado de prueba\)/);
  assert.match(newSubject ?? '', /CN=Olga Propietaria \(certificado nuevo\)/);
  assert.deepEqual(await cellsOf('Número de serie'), [serial, newSerial]);
  // Dominican time: the default test certificate starts 2020-01-01 00:00 UTC, 31 Dec 2019 there.
  const [currentFrom, newFrom] = await cellsOf('Válido desde');
  assert.match(currentFrom ?? '', /31.*2019/);
  assert.match(newFrom ?? '', /10.*2025/);
  const [currentTo, newTo] = await cellsOf('Válido hasta');
  assert.match(currentTo ?? '', /31.*2036/);
  assert.match(newTo ?? '', /15.*2031/);
  await checkPage(side.page, 'certificate-replace-confirm');
  await replaceDialog.getByRole('button', { name: 'Cancelar' }).click();
  await replaceDialog.waitFor({ state: 'hidden' });
  assert.equal(await focusedText(), 'Subir certificado', 'the focus is back on the button that asked');
  await activeUnchanged();
  await askToReplace();
  await side.page.keyboard.press('Escape');
  await replaceDialog.waitFor({ state: 'hidden' });
  await activeUnchanged();
  // Confirmed: the new one is active, the previous one kept as inactive.
  await askToReplace();
  await replaceDialog.getByRole('button', { name: 'Reemplazar certificado' }).click();
  await replaceDialog.waitFor({ state: 'hidden' });
  await details.getByText(newSerial).waitFor();
  await side.page
    .getByRole('row', { name: new RegExp(serial) })
    .getByText('Inactivo')
    .waitFor();
  assert.equal(await stackDatabase().tenantCertificate.count({ where: { tenantId: tenant.id } }), 2);
  // The wrong-password attempt answered 422 on purpose (Chromium logs every 4xx resource).
  assertNoConsoleErrors(side.problems.filter((problem) => !/status of 422/.test(problem)));
  await side.context.close();

  // An accountant reads the metadata but has no upload.
  const accountant = members[0];
  assert.ok(accountant);
  const reader = await newPortalPage(browser);
  await signIn(reader.page, accountant);
  await reader.page.goto(portalUrl('/certificate'));
  await reader.page.getByTestId('active-certificate').getByText(newSerial).waitFor();
  assert.equal(await reader.page.getByRole('form', { name: 'Subir un certificado' }).count(), 0);
  await reader.context.close();
});
