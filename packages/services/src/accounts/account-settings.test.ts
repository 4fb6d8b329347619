import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedTenant } from '@ecf/db';
import { findAuditEntries } from '../audit/index.ts';
import {
  openIdentityHarness,
  refusal,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { getAccountSettings } from './get-account-settings.ts';
import { updateAccountProfile } from './update-account-profile.ts';
import { updateAccountSettings } from './update-account-settings.ts';
import type { TPortalActor } from '../identity/permissions.ts';

let harness: TIdentityHarness;
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  await harness.close();
});

const ownerActor = (userId: string): TPortalActor => ({
  userId,
  principal: { kind: 'member', role: 'owner' },
  ip: '198.51.100.7',
});

const PROFILE = {
  legalName: 'Comercial Caribe SRL',
  tradeName: 'Caribe',
  address: 'Av. Winston Churchill 100, Santo Domingo',
  phones: ['809-555-0101', '829-555-0102'],
  fiscalEmail: 'facturas@caribe.example',
};

test('the account: profile, settings and each environment (eCF open only when production is active)', async () => {
  const tenant = await seedTenant(harness.database, { productionState: 'pending' });
  const account = await getAccountSettings({ database: harness.database, tenantId: tenant.id });
  assert.equal(account.rnc, tenant.rnc);
  assert.equal(account.paymentTermDays, null);
  assert.equal(account.deferredSendAuthorized, false);
  assert.deepEqual(
    account.environments.map(({ environment, open }) => [environment, open]),
    [
      ['TesteCF', true],
      ['CerteCF', true],
      ['eCF', false],
    ],
  );
  const missing = await refusal(
    getAccountSettings({ database: harness.database, tenantId: '00000000-0000-4000-8000-000000000000' }),
  );
  assert.equal(missing.code, 'NOT_FOUND');
});

test('a profile change is written with its audit entry; a bad phone (rule 14) changes nothing', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const updated = await updateAccountProfile({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    profile: PROFILE,
  });
  assert.deepEqual(updated.phones, PROFILE.phones);
  assert.equal(updated.tradeName, 'Caribe');

  const refused = await refusal(
    updateAccountProfile({
      database: harness.database,
      tenantId: tenant.id,
      actor: ownerActor(owner.user.id),
      profile: { ...PROFILE, legalName: 'Otro nombre', phones: ['809-555-0101', '8095550102'] },
    }),
  );
  assert.equal(refused.code, 'INVALID_REQUEST');
  assert.deepEqual(
    (refused.details['issues'] as { path: string }[]).map((issue) => issue.path),
    ['phones.1'],
  );
  const tooMany = await refusal(
    updateAccountProfile({
      database: harness.database,
      tenantId: tenant.id,
      actor: ownerActor(owner.user.id),
      profile: { ...PROFILE, phones: ['809-555-0101', '809-555-0102', '809-555-0103', '809-555-0104'] },
    }),
  );
  assert.equal(tooMany.code, 'INVALID_REQUEST');
  const stored = await getAccountSettings({ database: harness.database, tenantId: tenant.id });
  assert.equal(stored.legalName, PROFILE.legalName);

  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  assert.deepEqual(
    items.map((item) => [item.action, item.targetId]),
    [['account.updated', 'profile']],
  );
  const data = items[0]?.data as { after: Record<string, unknown> };
  assert.deepEqual(data.after['phones'], PROFILE.phones);
});

test('settings: buyer e-mail per environment, payment term, deferred sending; only owners; nothing written when unchanged', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const settings = {
    buyerEmailEnvironments: ['eCF', 'TesteCF'] as ('TesteCF' | 'CerteCF' | 'eCF')[],
    paymentTermDays: 30,
    deferredSendAuthorized: true,
  };
  const updated = await updateAccountSettings({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    settings,
  });
  assert.deepEqual(updated.buyerEmailEnvironments, ['TesteCF', 'eCF']);
  assert.equal(updated.paymentTermDays, 30);
  assert.deepEqual(
    updated.environments.map((environment) => environment.buyerEmail),
    [true, false, true],
  );
  // The same settings again: no second audit entry.
  await updateAccountSettings({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    settings,
  });
  for (const bad of [{ paymentTermDays: 366 }, { paymentTermDays: -1 }, { paymentTermDays: 1.5 }]) {
    const refused = await refusal(
      updateAccountSettings({
        database: harness.database,
        tenantId: tenant.id,
        actor: ownerActor(owner.user.id),
        settings: { ...settings, ...bad },
      }),
    );
    assert.equal(refused.code, 'INVALID_REQUEST');
  }
  const forbidden = await refusal(
    updateAccountSettings({
      database: harness.database,
      tenantId: tenant.id,
      actor: { userId: owner.user.id, principal: { kind: 'member', role: 'accountant' } },
      settings: { ...settings, paymentTermDays: null },
    }),
  );
  assert.equal(forbidden.code, 'FORBIDDEN');
  const cleared = await updateAccountSettings({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    settings: { ...settings, paymentTermDays: null },
  });
  assert.equal(cleared.paymentTermDays, null);
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  assert.deepEqual(
    items.map((item) => [item.action, item.targetId]),
    [
      ['account.updated', 'settings'],
      ['account.updated', 'settings'],
    ],
  );
});
