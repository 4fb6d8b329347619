import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { MemberRole } from '@ecf/db';
import {
  manualClock,
  openIdentityHarness,
  PASSWORD,
  refusal,
  seedPortalUser,
  seedTenantWithOwner,
  tokenOf,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { acceptInvitation } from './accept-invitation.ts';
import { createInvitation } from './create-invitation.ts';
import { findPendingInvitations } from './find-pending-invitations.ts';
import { getInvitation } from './get-invitation.ts';
import type { TPortalActor } from './permissions.ts';
import { revokeInvitation } from './revoke-invitation.ts';
import { signIn } from './sign-in.ts';

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
let invited = 0;

/** An owner invites a fresh address; returns the token read from the e-mail the catcher got. */
async function invite(input: {
  tenantId: string;
  actor: TPortalActor;
  role?: MemberRole;
  email?: string;
  now?: () => Date;
}) {
  invited += 1;
  const email = input.email ?? `invitada-${invited}-${Date.now()}@example.com`;
  const { invitation } = await createInvitation({
    database: harness.database,
    tenantId: input.tenantId,
    actor: input.actor,
    email,
    role: input.role ?? 'developer',
    mail: harness.mail,
    ...(input.now === undefined ? {} : { now: input.now }),
  });
  const message = await harness.catcher.waitForMessage(
    (caught) => caught.envelopeTo.includes(email.toLowerCase()) && !used.has(caught.id),
    5000,
  );
  used.add(message.id);
  return { invitation, email, token: tokenOf(message, '/invitations/accept'), message };
}
const used = new Set<number>();

test('an owner invites by e-mail; the link (stored only as its SHA-256) makes a new member once', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const { invitation, email, token, message } = await invite({
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    role: 'developer',
    email: 'Nueva.Persona@Example.com',
  });
  assert.equal(email, 'Nueva.Persona@Example.com');
  assert.equal(invitation.email, 'nueva.persona@example.com');
  assert.match(message.subject, /Invitación a /);
  const stored = await harness.database.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
  assert.equal(stored.tokenHash, createHash('sha256').update(token).digest('hex'));
  assert.ok(!JSON.stringify(stored).includes(token), 'the token itself is not stored');

  const preview = await getInvitation({ database: harness.database, token });
  assert.equal(preview.accountExists, false);
  assert.equal(preview.role, 'developer');
  const accepted = await acceptInvitation({
    database: harness.database,
    token,
    accepting: { kind: 'new', name: 'Nueva Persona', password: PASSWORD },
  });
  assert.equal(accepted.tenantId, tenant.id);
  assert.equal(accepted.role, 'developer');
  const signedIn = await signIn({
    database: harness.database,
    email: 'nueva.persona@example.com',
    password: PASSWORD,
    ip: null,
    userAgent: null,
  });
  assert.equal(signedIn.user.id, accepted.userId);

  assert.equal(
    (
      await refusal(
        acceptInvitation({
          database: harness.database,
          token,
          accepting: { kind: 'new', name: 'Otra', password: PASSWORD },
        }),
      )
    ).code,
    'INVITATION_ALREADY_ACCEPTED',
  );
  assert.equal(
    (await refusal(getInvitation({ database: harness.database, token: `${token}x` }))).code,
    'INVITATION_INVALID',
  );
  const audit = await harness.database.portalAuditEntry.findMany({
    where: { tenantId: tenant.id },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    audit.map((entry) => entry.action),
    ['member.invited', 'member.joined'],
  );
});

test('concurrent acceptances of one link make exactly one membership', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const { token, invitation } = await invite({
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    role: 'accountant',
  });
  const results = await Promise.allSettled(
    Array.from({ length: 6 }, (_, index) =>
      acceptInvitation({
        database: harness.database,
        token,
        accepting: { kind: 'new', name: `Carrera ${index}`, password: `${PASSWORD} ${index}` },
      }),
    ),
  );
  const fulfilled = results.filter((result) => result.status === 'fulfilled');
  assert.equal(fulfilled.length, 1);
  for (const result of results)
    if (result.status === 'rejected')
      assert.match(
        String((result.reason as { code?: string }).code),
        /^(INVITATION_ALREADY_ACCEPTED|ACCOUNT_EXISTS)$/,
      );
  const users = await harness.database.user.findMany({ where: { email: invitation.email } });
  assert.equal(users.length, 1);
  const memberships = await harness.database.membership.findMany({
    where: { tenantId: tenant.id, role: 'accountant' },
  });
  assert.equal(memberships.length, 1);
  assert.equal(memberships[0]?.userId, users[0]?.id);

  // The same for an existing account accepting from two browsers at once.
  const existing = await seedPortalUser(harness.database);
  const second = await invite({
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    email: existing.user.email,
  });
  const twice = await Promise.allSettled([
    acceptInvitation({
      database: harness.database,
      token: second.token,
      accepting: { kind: 'existing', userId: existing.user.id },
    }),
    acceptInvitation({
      database: harness.database,
      token: second.token,
      accepting: { kind: 'existing', userId: existing.user.id },
    }),
  ]);
  assert.deepEqual(twice.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
  assert.equal(await harness.database.membership.count({ where: { userId: existing.user.id } }), 1);
});

test('an invitation link expires after 7 days', async () => {
  const clock = manualClock(new Date());
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const { token } = await invite({ tenantId: tenant.id, actor: ownerActor(owner.user.id), now: clock.now });
  clock.advance(7 * 24 * 3600_000);
  const expired = await refusal(
    acceptInvitation({
      database: harness.database,
      token,
      accepting: { kind: 'new', name: 'Tarde', password: PASSWORD },
      now: clock.now,
    }),
  );
  assert.equal(expired.code, 'INVITATION_EXPIRED');
  assert.equal(await harness.database.membership.count({ where: { tenantId: tenant.id } }), 1);
});

test('an existing account accepts signed in, as the invited address only; a new account is refused for its address', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const existing = await seedPortalUser(harness.database);
  const someoneElse = await seedPortalUser(harness.database);
  const { token } = await invite({
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    email: existing.user.email,
    role: 'owner',
  });
  assert.equal((await getInvitation({ database: harness.database, token })).accountExists, true);
  assert.equal(
    (
      await refusal(
        acceptInvitation({
          database: harness.database,
          token,
          accepting: { kind: 'new', name: 'x', password: PASSWORD },
        }),
      )
    ).code,
    'ACCOUNT_EXISTS',
  );
  assert.equal(
    (
      await refusal(
        acceptInvitation({
          database: harness.database,
          token,
          accepting: { kind: 'existing', userId: someoneElse.user.id },
        }),
      )
    ).code,
    'INVITATION_EMAIL_MISMATCH',
  );
  const accepted = await acceptInvitation({
    database: harness.database,
    token,
    accepting: { kind: 'existing', userId: existing.user.id },
  });
  assert.equal(accepted.role, 'owner');
});

test('only owners invite or revoke; a new invitation replaces the pending one; members are not invited again', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const developer = await seedPortalUser(harness.database, { tenantId: tenant.id, role: 'developer' });
  const support = await seedPortalUser(harness.database, { isSupport: true });
  for (const actor of [
    { userId: developer.user.id, principal: { kind: 'member', role: 'developer' } },
    { userId: support.user.id, principal: { kind: 'support' } },
  ] satisfies TPortalActor[])
    assert.equal(
      (
        await refusal(
          createInvitation({
            database: harness.database,
            tenantId: tenant.id,
            actor,
            email: 'x@example.com',
            role: 'owner',
            mail: harness.mail,
          }),
        )
      ).code,
      'FORBIDDEN',
    );
  const first = await invite({
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    email: 'dos-veces@example.com',
  });
  const second = await invite({
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    email: 'dos-veces@example.com',
    role: 'accountant',
  });
  assert.equal(
    (await refusal(getInvitation({ database: harness.database, token: first.token }))).code,
    'INVITATION_INVALID',
  );
  const pending = await findPendingInvitations({ database: harness.database, tenantId: tenant.id });
  assert.deepEqual(
    pending.map((invitation) => [invitation.id, invitation.role]),
    [[second.invitation.id, 'accountant']],
  );
  assert.equal(
    (
      await refusal(
        createInvitation({
          database: harness.database,
          tenantId: tenant.id,
          actor: ownerActor(owner.user.id),
          email: developer.user.email.toUpperCase(),
          role: 'owner',
          mail: harness.mail,
        }),
      )
    ).code,
    'ALREADY_MEMBER',
  );

  const other = await seedTenantWithOwner(harness.database);
  assert.equal(
    (
      await refusal(
        revokeInvitation({
          database: harness.database,
          tenantId: other.tenant.id,
          actor: ownerActor(other.owner.user.id),
          invitationId: second.invitation.id,
        }),
      )
    ).code,
    'NOT_FOUND',
    "another tenant's invitation is not found",
  );
  await revokeInvitation({
    database: harness.database,
    tenantId: tenant.id,
    actor: ownerActor(owner.user.id),
    invitationId: second.invitation.id,
  });
  assert.equal(
    (await refusal(getInvitation({ database: harness.database, token: second.token }))).code,
    'INVITATION_INVALID',
  );
});
