// Members: an owner invites a developer by e-mail; the developer accepts through the link the mail
// catcher holds, choosing a password, and works in the tenant as a developer. An owner changes a
// role and removes a member, who loses the tenant at once. Each page passes axe and is photographed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { mailCatcher } from '../support/mail.ts';
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

test('an owner invites a developer, who accepts through the e-mailed link and works as a developer', async () => {
  const { owner, tenant } = await seedPortalTenant({ tradeName: 'Ferretería del Este' });
  const ownerSide = await newPortalPage(browser);
  await signIn(ownerSide.page, owner);
  await ownerSide.page.goto(portalUrl('/members'));
  await checkPage(ownerSide.page, 'members');

  const email = `desarrolladora-${Date.now()}@example.com`;
  const form = ownerSide.page.getByRole('form', { name: 'Invitar a un miembro' });
  // The server's own check of the same schema shows on the field: a member's address.
  await form.getByLabel('Correo electrónico').fill(owner.email);
  await form.getByRole('button', { name: 'Enviar invitación' }).click();
  await form.getByText('Esa dirección ya pertenece a un miembro de la cuenta.').waitFor();
  assert.equal(await form.getByLabel('Correo electrónico').getAttribute('aria-invalid'), 'true');
  await form.getByLabel('Correo electrónico').fill(email);
  await form.getByLabel('Rol').selectOption('developer');
  await form.getByRole('button', { name: 'Enviar invitación' }).click();
  await ownerSide.page.getByText(`Invitación enviada a ${email}`).waitFor();
  await ownerSide.page.getByRole('cell', { name: email }).waitFor();
  await checkPage(ownerSide.page, 'members-invitation-sent');

  const link = await mailCatcher.findLink(email, /\/invitations\/accept\?token=/);
  const invited = await newPortalPage(browser);
  await invited.page.goto(link);
  assert.ok(
    await invited.page.getByRole('heading', { name: 'Invitación a Ferretería del Este' }).isVisible(),
  );
  await checkPage(invited.page, 'invitation-accept');
  await invited.page.getByLabel('Su nombre').fill('Dana Desarrolladora');
  await invited.page.getByLabel(/^Contraseña\*?$/).fill('mi contraseña de desarrollo');
  await invited.page.getByLabel('Repita la contraseña').fill('mi contraseña de desarrollo');
  await invited.page.getByRole('button', { name: 'Crear cuenta y aceptar' }).click();
  // Accepted, the portal opens on its first page (the overview), in the new tenant.
  await invited.page.waitForURL((url) => url.pathname === '/TesteCF/overview');
  await invited.page.goto(portalUrl('/members'));
  const row = invited.page.getByRole('row', { name: /Dana Desarrolladora/ });
  assert.match((await row.textContent()) ?? '', /Desarrollador/);
  // A developer reads the list but manages nothing.
  assert.equal(await invited.page.getByRole('form', { name: 'Invitar a un miembro' }).count(), 0);
  assert.equal(await invited.page.getByRole('link', { name: 'Registro de auditoría' }).count(), 0);
  assertNoConsoleErrors(invited.problems);

  // The link served once.
  const again = await newPortalPage(browser);
  await again.page.goto(link);
  await again.page.getByText('Esta invitación ya fue aceptada.').waitFor();
  await checkPage(again.page, 'invitation-used');
  const memberships = await stackDatabase().membership.count({ where: { tenantId: tenant.id } });
  assert.equal(memberships, 2);
  for (const side of [ownerSide, invited, again]) await side.context.close();
});

test("an owner changes a member's role, then removes them: the member loses the tenant at once", async () => {
  const { owner, members } = await seedPortalTenant({
    members: [{ name: 'Carlos Contador', role: 'accountant' }],
  });
  const accountant = members[0];
  assert.ok(accountant);
  const member = await newPortalPage(browser);
  await signIn(member.page, accountant);
  await member.page.goto(portalUrl('/members'));
  await member.page.getByRole('heading', { name: 'Miembros', level: 1 }).waitFor();

  const ownerSide = await newPortalPage(browser);
  await signIn(ownerSide.page, owner);
  await ownerSide.page.goto(portalUrl('/members'));
  await ownerSide.page.getByRole('link', { name: 'Carlos Contador' }).click();
  await ownerSide.page.waitForURL((url) => url.pathname === `/members/${accountant.membershipId}`);
  await checkPage(ownerSide.page, 'member');
  await ownerSide.page.getByRole('combobox', { name: 'Rol', exact: true }).selectOption('developer');
  // A role change asks first, naming both roles; Cancel leaves the role as it was.
  const roleOf = async () =>
    (await stackDatabase().membership.findUniqueOrThrow({ where: { id: accountant.membershipId } })).role;
  const roleDialog = ownerSide.page.getByRole('dialog', { name: '¿Cambiar el rol de Carlos Contador?' });
  await ownerSide.page.getByRole('button', { name: 'Guardar rol' }).click();
  await roleDialog.getByText(/Pasa de Contador a Desarrollador/).waitFor();
  await checkPage(ownerSide.page, 'member-role-confirm');
  await roleDialog.getByRole('button', { name: 'Cancelar' }).click();
  await roleDialog.waitFor({ state: 'hidden' });
  assert.equal(await roleOf(), 'accountant');
  assert.equal(await ownerSide.page.getByText('Rol actualizado.').count(), 0);
  await ownerSide.page.getByRole('button', { name: 'Guardar rol' }).click();
  await roleDialog.getByRole('button', { name: 'Cambiar rol' }).click();
  await ownerSide.page.getByText('Rol actualizado.').waitFor();
  assert.equal(await roleOf(), 'developer');

  await ownerSide.page.getByRole('button', { name: 'Quitar de la cuenta' }).click();
  const dialog = ownerSide.page.getByRole('dialog', { name: '¿Quitar a Carlos Contador?' });
  await dialog.waitFor();
  await checkPage(ownerSide.page, 'member-remove-confirm');
  // Escape changes nothing: still a member.
  await ownerSide.page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await stackDatabase().membership.count({ where: { id: accountant.membershipId } }), 1);
  await ownerSide.page.getByRole('button', { name: 'Quitar de la cuenta' }).click();
  await dialog.getByRole('button', { name: 'Quitar', exact: true }).click();
  await ownerSide.page.waitForURL((url) => url.pathname === '/members');
  assert.equal(await ownerSide.page.getByRole('row', { name: /Carlos Contador/ }).count(), 0);

  // The removed member's very next request: no tenant any more.
  await member.page.goto(portalUrl('/members'));
  await member.page.waitForURL((url) => url.pathname === '/accounts');
  await member.page.getByText('Aún no pertenece a ninguna cuenta').waitFor();
  await checkPage(member.page, 'accounts-none');
  // And its procedures refuse at once, even from a page already open.
  const call = await member.page.evaluate(async () => {
    const response = await fetch('/api/trpc/members.list');
    return response.status;
  });
  assert.equal(call, 403);
  for (const side of [member, ownerSide]) await side.context.close();
});
