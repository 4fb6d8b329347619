// A member of one tenant who names another tenant's resources gets NOT_FOUND, exactly as for an id
// that exists nowhere: the tenant always comes from the session, never from the input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { validatePortalSession } from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  type TPortalHarness,
  codeOf,
} from '../../test/portal-harness.ts';
import { seedIssuedRun } from '../../test/certification-seed.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test("an owner of tenant B asking for tenant A's member or invitation gets NOT_FOUND, as for an id that does not exist", async () => {
  const world = await seedWorld(harness.database);
  // The owner of the other tenant, signed in and working there.
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  const membershipId = world.target.membershipId ?? '';
  const nowhere = '00000000-0000-4000-8000-000000000000';
  for (const id of [membershipId, nowhere]) {
    assert.equal(await codeOf(intruder.members.get({ membershipId: id })), 'NOT_FOUND');
    assert.equal(await codeOf(intruder.members.changeRole({ membershipId: id, role: 'owner' })), 'NOT_FOUND');
    assert.equal(await codeOf(intruder.members.remove({ membershipId: id })), 'NOT_FOUND');
  }
  for (const id of [world.pending.invitation.id, nowhere])
    assert.equal(await codeOf(intruder.invitations.revoke({ invitationId: id })), 'NOT_FOUND');
  // Nothing of tenant A changed.
  const target = await harness.database.membership.findUniqueOrThrow({ where: { id: membershipId } });
  assert.equal(target.role, 'accountant');
  const invitation = await harness.database.invitation.findUniqueOrThrow({
    where: { id: world.pending.invitation.id },
  });
  assert.equal(invitation.revokedAt, null);
  // Its lists show its own tenant only.
  const { members } = await intruder.members.list();
  assert.deepEqual(
    members.map((member) => member.user.id),
    [world.otherOwner.id],
  );
});

test('a tenant id in the input is not accepted: the input schemas have none, and the session decides', async () => {
  const world = await seedWorld(harness.database);
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  const input = { membershipId: world.target.membershipId ?? '', tenantId: world.tenant.id } as unknown as {
    membershipId: string;
  };
  assert.equal(await codeOf(intruder.members.get(input)), 'NOT_FOUND');
});

test('a session still naming a tenant the user was removed from has no access to it', async () => {
  const world = await seedWorld(harness.database);
  const developer = await sessionOf(harness.database, world.users.developer.id, world.tenant.id);
  await callerOf(harness, world.sessions.owner).members.remove({
    membershipId: world.users.developer.membershipId ?? '',
  });
  // The next request validates the session again (as the route handler does for every request).
  const next = await validatePortalSession({ database: harness.database, sessionId: developer.sessionId });
  assert.equal(await codeOf(callerOf(harness, next).members.list()), 'FORBIDDEN');
  // Even the stale context (validated before the removal) gets nothing it should not.
  assert.equal(
    await codeOf(
      callerOf(harness, developer).members.get({ membershipId: world.users.developer.membershipId ?? '' }),
    ),
    'NOT_FOUND',
  );
});

test('support switching to a tenant and reading it leaves entries the owner reads in the audit log', async () => {
  const world = await seedWorld(harness.database);
  const support = callerOf(harness, await sessionOf(harness.database, world.users.support.id, null));
  await support.session.switchTenant({ tenantId: world.otherTenant.id });
  const viewing = callerOf(
    harness,
    await sessionOf(harness.database, world.users.support.id, world.otherTenant.id),
  );
  await viewing.members.list();
  const owner = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  const { items } = await owner.audit.list({});
  assert.deepEqual(
    items
      .filter((item) => item.action === 'support.viewed')
      .map((item) => [item.targetId, item.actor?.isSupport]),
    [['members.list', true]],
  );
  // Support reads but does not change: a member change is FORBIDDEN.
  assert.equal(
    await codeOf(viewing.members.remove({ membershipId: world.otherOwner.membershipId ?? '' })),
    'FORBIDDEN',
  );
});

test("another tenant's certification run and receipt are NOT_FOUND, as ids that do not exist", async () => {
  const world = await seedWorld(harness.database);
  const { runId, documentId } = await seedIssuedRun(harness.database, world.tenant.id);
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  const nowhere = '00000000-0000-4000-8000-000000000000';
  for (const id of [runId, nowhere])
    assert.equal(
      await codeOf(intruder.certification.run({ environment: 'CerteCF', runId: id })),
      'NOT_FOUND',
    );
  for (const id of [documentId, nowhere])
    assert.equal(
      await codeOf(intruder.certification.resend({ environment: 'CerteCF', documentId: id })),
      'NOT_FOUND',
    );
  // The run stays the owner's, untouched.
  const { run } = await callerOf(harness, world.sessions.owner).certification.run({
    environment: 'CerteCF',
    runId,
  });
  assert.equal(run.state, 'running');
});
