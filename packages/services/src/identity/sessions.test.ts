import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedMembership, seedTenant } from '@ecf/db';
import {
  manualClock,
  openIdentityHarness,
  refusal,
  seedPortalUser,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { changeMemberRole } from './change-member-role.ts';
import { removeMember } from './remove-member.ts';
import { revokeAllPortalSessions } from './revoke-all-portal-sessions.ts';
import { revokePortalSession } from './revoke-portal-session.ts';
import { signIn } from './sign-in.ts';
import { switchActiveTenant } from './switch-active-tenant.ts';
import { validatePortalSession } from './validate-portal-session.ts';

let harness: TIdentityHarness;
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  await harness.close();
});

const signInAs = (user: { user: { email: string }; password: string }, now?: () => Date) =>
  signIn({
    database: harness.database,
    email: user.user.email,
    password: user.password,
    ip: null,
    userAgent: null,
    ...(now === undefined ? {} : { now }),
  });
const validate = (sessionId: string, now?: () => Date) =>
  validatePortalSession({ database: harness.database, sessionId, ...(now === undefined ? {} : { now }) });

test('signing out revokes that session only; signing out everywhere revokes them all at once', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const laptop = await signInAs(owner);
  const phone = await signInAs(owner);
  const tablet = await signInAs(owner);
  assert.deepEqual(await revokePortalSession({ database: harness.database, sessionId: laptop.sessionId }), {
    revoked: true,
  });
  assert.equal(await validate(laptop.sessionId), null);
  assert.ok(await validate(phone.sessionId));
  const everywhere = await revokeAllPortalSessions({ database: harness.database, userId: owner.user.id });
  assert.equal(everywhere.sessionsRevoked, 2);
  assert.equal(await validate(phone.sessionId), null);
  assert.equal(await validate(tablet.sessionId), null);
  const audit = await harness.database.portalAuditEntry.findFirstOrThrow({
    where: { actorUserId: owner.user.id, action: 'session.signed_out_everywhere' },
  });
  assert.deepEqual(audit.data, { sessionsRevoked: 2 });
});

test('a session is refused after it expires, and for an id that names no session', async () => {
  const clock = manualClock();
  const { owner } = await seedTenantWithOwner(harness.database);
  const session = await signInAs(owner, clock.now);
  clock.advance(12 * 3600_000 - 1000);
  assert.ok(await validate(session.sessionId, clock.now));
  clock.advance(1000);
  assert.equal(await validate(session.sessionId, clock.now), null);
  assert.equal(await validate('00000000-0000-4000-8000-000000000000'), null);
  assert.equal(await validate('not-a-uuid'), null);
});

test('a removed member loses the tenant on the very next request of every session', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const developer = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'developer' });
  const first = await signInAs(developer);
  const second = await signInAs(developer);
  assert.equal((await validate(first.sessionId))?.activeTenant?.id, tenant.id);
  await removeMember({
    database: harness.database,
    tenantId: tenant.id,
    actor: { userId: owner.user.id, principal: { kind: 'member', role: 'owner' } },
    membershipId: developer.membership?.id ?? '',
  });
  for (const { sessionId } of [first, second]) {
    const session = await validate(sessionId);
    assert.ok(session, 'the session itself stays valid');
    assert.equal(session.activeTenant, null);
    assert.equal(session.principal, null);
    assert.deepEqual(session.tenants, []);
  }
  // And it cannot be put back by hand.
  const session = await validate(first.sessionId);
  assert.ok(session);
  assert.equal(
    (await refusal(switchActiveTenant({ database: harness.database, session, tenantId: tenant.id }))).code,
    'NOT_FOUND',
  );
});

test('even if the session still names the tenant, a missing membership gives no access', async () => {
  const { tenant } = await seedTenantWithOwner(harness.database);
  const accountant = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'accountant' });
  const signedIn = await signInAs(accountant);
  // A removal that did not go through removeMember (an operator with psql): the check still holds.
  await harness.database.membership.delete({ where: { id: accountant.membership?.id ?? '' } });
  const session = await validate(signedIn.sessionId);
  assert.equal(session?.activeTenant, null);
  const row = await harness.database.portalSession.findUniqueOrThrow({ where: { id: signedIn.sessionId } });
  assert.equal(row.activeTenantId, null);
});

test('a role change applies on the next request', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const member = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'developer' });
  const signedIn = await signInAs(member);
  await changeMemberRole({
    database: harness.database,
    tenantId: tenant.id,
    actor: { userId: owner.user.id, principal: { kind: 'member', role: 'owner' } },
    membershipId: member.membership?.id ?? '',
    role: 'accountant',
  });
  assert.deepEqual((await validate(signedIn.sessionId))?.principal, { kind: 'member', role: 'accountant' });
});

test('a member switches only to their own tenants; support to any tenant; anything else is not found', async () => {
  const { owner } = await seedTenantWithOwner(harness.database);
  const second = await seedTenant(harness.database);
  const stranger = await seedTenant(harness.database);
  await seedMembership(harness.database, { userId: owner.user.id, tenantId: second.id, role: 'accountant' });
  const session = await validate((await signInAs(owner)).sessionId);
  assert.ok(session);
  assert.equal(session.tenants.length, 2);
  await switchActiveTenant({ database: harness.database, session, tenantId: second.id });
  const switched = await validate(session.sessionId);
  assert.equal(switched?.activeTenant?.id, second.id);
  assert.deepEqual(switched?.principal, { kind: 'member', role: 'accountant' });
  for (const tenantId of [stranger.id, '00000000-0000-4000-8000-000000000000', 'nope'])
    assert.equal(
      (await refusal(switchActiveTenant({ database: harness.database, session, tenantId }))).code,
      'NOT_FOUND',
    );
  assert.equal((await validate(session.sessionId))?.activeTenant?.id, second.id);

  const support = await seedPortalUser(harness.database, { isSupport: true });
  const supportSession = await validate((await signInAs(support)).sessionId);
  assert.ok(supportSession);
  assert.equal(supportSession.activeTenant, null, 'support starts in no tenant');
  await switchActiveTenant({ database: harness.database, session: supportSession, tenantId: stranger.id });
  const viewing = await validate(supportSession.sessionId);
  assert.equal(viewing?.activeTenant?.id, stranger.id);
  assert.deepEqual(viewing?.principal, { kind: 'support' });
});
