// The account searches of issue 27 through their procedures: support's tenant search on /accounts
// (the header's switcher, without input, still lists every tenant) and a Partner's accounts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { seedTenant } from '@ecf/db';
import {
  callerOf,
  codeOf,
  openPortalHarness,
  seedWorld,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test('support searches tenants by the start of the RNC or part of the name; bad text is BAD_REQUEST', async () => {
  const world = await seedWorld(harness.database);
  const stamp = String(randomInt(100_000, 999_999));
  const tenant = await seedTenant(harness.database, {
    rnc: `5${stamp}01`,
    legalName: `Colmado ${stamp} EIRL`,
  });
  const support = callerOf(harness, world.sessions.support);
  const byName = await support.support.tenants({ q: `colmado ${stamp}` });
  // Found by its legal name, shown by its trade name (as the switcher shows it).
  assert.deepEqual(byName.tenants, [
    { id: tenant.id, rnc: tenant.rnc, name: tenant.tradeName ?? tenant.legalName },
  ]);
  assert.deepEqual(byName.total, { count: 1, capped: false });
  assert.deepEqual(
    (await support.support.tenants({ q: `5${stamp}` })).tenants.map((row) => row.id),
    [tenant.id],
  );
  const everyone = await support.support.tenants();
  assert.ok(everyone.tenants.some((row) => row.id === tenant.id));
  assert.equal(await codeOf(support.support.tenants({ q: 'ab' })), 'BAD_REQUEST');
  // Not support: the directory is not theirs.
  assert.equal(
    await codeOf(callerOf(harness, world.sessions.owner).support.tenants({ q: 'colmado' })),
    'FORBIDDEN',
  );
});

test("a Partner's person searches the Partner's accounts only", async () => {
  const world = await seedWorld(harness.database);
  const stamp = String(randomInt(100_000, 999_999));
  const own = await seedTenant(harness.database, { rnc: `6${stamp}01`, legalName: `Joyería ${stamp}` });
  await harness.database.tenant.update({
    where: { id: own.id },
    data: { partnerId: world.partner.id, externalTenantId: `ext-${stamp}` },
  });
  await seedTenant(harness.database, { rnc: `6${stamp}02`, legalName: `Joyería ${stamp} Ajena` });
  const developer = callerOf(harness, world.sessions.partnerDeveloper);
  const found = await developer.partner.accounts({ q: `joyería ${stamp}` });
  assert.deepEqual(
    found.items.map((account) => account.rnc),
    [own.rnc],
  );
  assert.equal(found.total, 1);
  assert.equal((await developer.partner.accounts({ q: `6${stamp}0` })).total, 1);
  assert.equal(await codeOf(developer.partner.accounts({ q: '1' })), 'BAD_REQUEST');
});
