import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openIdentityHarness,
  refusal,
  seedPortalUser,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { changeMemberRole } from './change-member-role.ts';
import { findMembers } from './find-members.ts';
import { getMember } from './get-member.ts';
import type { TPortalActor } from './permissions.ts';
import { removeMember } from './remove-member.ts';

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
});

test("members are listed owners first; another tenant's membership is not found", async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const accountant = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'accountant' });
  const developer = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'developer' });
  const members = await findMembers({ database: harness.database, tenantId: tenant.id });
  assert.deepEqual(
    members.map((member) => [member.user.id, member.role]),
    [
      [owner.user.id, 'owner'],
      [developer.user.id, 'developer'],
      [accountant.user.id, 'accountant'],
    ],
  );
  const other = await seedTenantWithOwner(harness.database);
  const membershipId = accountant.membership?.id ?? '';
  assert.equal(
    (await getMember({ database: harness.database, tenantId: tenant.id, membershipId })).role,
    'accountant',
  );
  // Thunks, run one at a time: a rejection is awaited as soon as it happens (never left unhandled).
  for (const attempt of [
    () => getMember({ database: harness.database, tenantId: other.tenant.id, membershipId }),
    () =>
      changeMemberRole({
        database: harness.database,
        tenantId: other.tenant.id,
        actor: ownerActor(other.owner.user.id),
        membershipId,
        role: 'owner',
      }),
    () =>
      removeMember({
        database: harness.database,
        tenantId: other.tenant.id,
        actor: ownerActor(other.owner.user.id),
        membershipId,
      }),
  ])
    assert.equal((await refusal(attempt())).code, 'NOT_FOUND');
  assert.equal(
    (await getMember({ database: harness.database, tenantId: tenant.id, membershipId })).role,
    'accountant',
  );
});

test('the only owner can be neither demoted nor removed; with two owners, two demoting each other at once leave one', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const ownerMembership = owner.membership?.id ?? '';
  const actor = ownerActor(owner.user.id);
  assert.equal(
    (
      await refusal(
        changeMemberRole({
          database: harness.database,
          tenantId: tenant.id,
          actor,
          membershipId: ownerMembership,
          role: 'developer',
        }),
      )
    ).code,
    'LAST_OWNER',
  );
  assert.equal(
    (
      await refusal(
        removeMember({
          database: harness.database,
          tenantId: tenant.id,
          actor,
          membershipId: ownerMembership,
        }),
      )
    ).code,
    'LAST_OWNER',
  );
  const second = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'owner' });
  const results = await Promise.allSettled([
    changeMemberRole({
      database: harness.database,
      tenantId: tenant.id,
      actor,
      membershipId: second.membership?.id ?? '',
      role: 'developer',
    }),
    changeMemberRole({
      database: harness.database,
      tenantId: tenant.id,
      actor: ownerActor(second.user.id),
      membershipId: ownerMembership,
      role: 'developer',
    }),
  ]);
  assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
  assert.equal(await harness.database.membership.count({ where: { tenantId: tenant.id, role: 'owner' } }), 1);
});

test('only owners change roles and remove members; every change is in the audit log with it', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const developer = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'developer' });
  const accountant = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'accountant' });
  const membershipId = accountant.membership?.id ?? '';
  for (const actor of [
    { userId: developer.user.id, principal: { kind: 'member', role: 'developer' } },
    { userId: accountant.user.id, principal: { kind: 'member', role: 'accountant' } },
    { userId: developer.user.id, principal: { kind: 'support' } },
  ] satisfies TPortalActor[]) {
    assert.equal(
      (
        await refusal(
          changeMemberRole({
            database: harness.database,
            tenantId: tenant.id,
            actor,
            membershipId,
            role: 'owner',
          }),
        )
      ).code,
      'FORBIDDEN',
    );
    assert.equal(
      (await refusal(removeMember({ database: harness.database, tenantId: tenant.id, actor, membershipId })))
        .code,
      'FORBIDDEN',
    );
  }
  await changeMemberRole({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    membershipId,
    role: 'developer',
  });
  const removed = await removeMember({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    membershipId,
  });
  assert.equal(removed.member.user.id, accountant.user.id);
  const audit = await harness.database.portalAuditEntry.findMany({
    where: { tenantId: tenant.id },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.actorUserId, entry.targetId, entry.data]),
    [
      ['member.role_changed', owner.user.id, membershipId, { previousRole: 'accountant', role: 'developer' }],
      ['member.removed', owner.user.id, membershipId, { email: accountant.user.email, role: 'developer' }],
    ],
  );
});
