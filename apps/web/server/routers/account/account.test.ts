// The account and overview procedures against the real database: the tenant is the session's
// (an input naming another tenant is refused, and nothing of it changes), a bad phone fails on its
// own field with nothing saved, and the overview counts only the session tenant's documents.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { TRPCError } from '@trpc/server';
import { seedDocument } from '@ecf/db';
import { t } from '../../trpc/init.ts';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

const PROFILE = {
  legalName: 'Comercial Caribe SRL',
  tradeName: 'Caribe',
  address: 'Av. Churchill 100',
  phones: ['809-555-0101', '', ''],
  fiscalEmail: 'facturas@caribe.example',
};

/** What the browser receives for a failed call (the portal's error formatter). */
function formatted(error: unknown) {
  assert.ok(error instanceof TRPCError, String(error));
  const shape = t._config.errorFormatter({
    error,
    type: 'mutation',
    path: 'account.updateProfile',
    input: undefined,
    ctx: undefined,
    shape: { code: 0, message: error.message, data: { code: error.code, httpStatus: 400 } },
  } as never) as { data: { fieldErrors: Record<string, string> | null; code: string } };
  return shape.data;
}

test("an owner's profile change touches their own tenant only; a tenant id in the input is refused", async () => {
  const world = await seedWorld(harness.database);
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  const before = await harness.database.tenant.findUniqueOrThrow({ where: { id: world.tenant.id } });

  const withTenant = await intruder.account
    .updateProfile({ ...PROFILE, tenantId: world.tenant.id } as never)
    .then(
      () => 'allowed',
      (error: unknown) => (error instanceof TRPCError ? error.code : String(error)),
    );
  assert.equal(withTenant, 'BAD_REQUEST');
  const settingsWithTenant = await intruder.account
    .updateSettings({
      buyerEmailEnvironments: ['TesteCF'],
      paymentTermDays: 5,
      deferredSendAuthorized: true,
      tenantId: world.tenant.id,
    } as never)
    .then(
      () => 'allowed',
      (error: unknown) => (error instanceof TRPCError ? error.code : String(error)),
    );
  assert.equal(settingsWithTenant, 'BAD_REQUEST');

  const changed = await intruder.account.updateProfile(PROFILE);
  assert.equal(changed.rnc, world.otherTenant.rnc);
  const after = await harness.database.tenant.findUniqueOrThrow({ where: { id: world.tenant.id } });
  assert.deepEqual(after, before);
  assert.equal((await intruder.account.get()).legalName, PROFILE.legalName);
});

test('a bad phone fails on its own field (rule 14) and nothing is saved; the accountant may only read', async () => {
  const world = await seedWorld(harness.database);
  const owner = callerOf(harness, world.sessions.owner);
  const before = await owner.account.get();
  const error = await owner.account
    .updateProfile({ ...PROFILE, legalName: 'Otro SRL', phones: ['809-555-0101', '8095550102', ''] })
    .then(
      () => null,
      (caught: unknown) => caught,
    );
  const data = formatted(error);
  assert.equal(data.code, 'BAD_REQUEST');
  assert.deepEqual(Object.keys(data.fieldErrors ?? {}), ['phones.1']);
  const after = await owner.account.get();
  assert.deepEqual(after, before);

  const accountant = callerOf(harness, world.sessions.accountant);
  assert.equal((await accountant.account.get()).rnc, world.tenant.rnc);
  await assert.rejects(
    accountant.account.updateSettings({
      buyerEmailEnvironments: [],
      paymentTermDays: 1,
      deferredSendAuthorized: false,
    }),
    (caught: unknown) => caught instanceof TRPCError && caught.code === 'FORBIDDEN',
  );
});

test("the overview counts the session tenant's documents only", async () => {
  const world = await seedWorld(harness.database);
  await seedDocument(harness.database, {
    tenantId: world.tenant.id,
    encf: 'E310000000001',
    status: 'accepted',
  });
  await seedDocument(harness.database, {
    tenantId: world.tenant.id,
    encf: 'E310000000002',
    status: 'contingency',
    contingencySince: new Date(),
  });
  await seedDocument(harness.database, {
    tenantId: world.otherTenant.id,
    encf: 'E310000000001',
    status: 'accepted',
  });
  const owner = await callerOf(harness, world.sessions.owner).overview.get({ environment: 'TesteCF' });
  assert.equal(owner.todayCounts.total, 2);
  assert.equal(owner.contingency.count, 1);
  assert.equal(owner.certificate.state, 'missing');
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  const other = await intruder.overview.get({ environment: 'TesteCF' });
  assert.equal(other.todayCounts.total, 1);
  assert.equal(other.contingency.count, 0);
  const bad = await intruder.overview.get({ environment: 'Produccion' } as never).then(
    () => 'allowed',
    (error: unknown) => (error instanceof TRPCError ? error.code : String(error)),
  );
  assert.equal(bad, 'BAD_REQUEST');
});
