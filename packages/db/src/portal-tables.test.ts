// The portal's tables hold rules the database itself enforces: the audit log is append-only, e-mail
// addresses are lower-cased (so their unique indexes ignore case), one membership per user and tenant,
// one pending invitation per tenant and address.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openTestDatabase } from './testing.ts';
import { seedMembership, seedTenant, seedUser } from './seed.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

// Not a real argon2id hash: the database never reads it.
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';

test('portal audit entries can be appended but never changed, deleted or truncated', async () => {
  const tenant = await seedTenant(context.database);
  const entry = await context.database.portalAuditEntry.create({
    data: { tenantId: tenant.id, action: 'member.invited', data: { email: 'ana@example.com' } },
  });
  await assert.rejects(
    context.database.portalAuditEntry.update({ where: { id: entry.id }, data: { action: 'tampered' } }),
    /append-only/,
  );
  await assert.rejects(context.database.portalAuditEntry.delete({ where: { id: entry.id } }), /append-only/);
  await assert.rejects(
    context.database.$executeRawUnsafe('TRUNCATE portal_audit_log CASCADE'),
    /append-only/,
  );
  const stored = await context.database.portalAuditEntry.findUniqueOrThrow({ where: { id: entry.id } });
  assert.equal(stored.action, 'member.invited');
});

test('e-mail addresses are stored lower-cased, so one address is one account whatever its case', async () => {
  const user = await seedUser(context.database, {
    email: 'Ana.Perez@Example.COM',
    passwordHash: PASSWORD_HASH,
  });
  assert.equal(user.email, 'ana.perez@example.com');
  await assert.rejects(
    context.database.user.create({
      data: { email: 'Mixed@Example.com', name: 'x', passwordHash: PASSWORD_HASH },
    }),
    /users_email_lower_case/,
  );
  await assert.rejects(
    seedUser(context.database, { email: 'ANA.PEREZ@example.com', passwordHash: PASSWORD_HASH }),
    (error: unknown) => (error as { code?: string }).code === 'P2002',
  );
});

test('one membership per user and tenant; one pending invitation per tenant and address', async () => {
  const tenant = await seedTenant(context.database);
  const user = await seedUser(context.database, { passwordHash: PASSWORD_HASH });
  await seedMembership(context.database, { userId: user.id, tenantId: tenant.id, role: 'developer' });
  await assert.rejects(
    seedMembership(context.database, { userId: user.id, tenantId: tenant.id, role: 'owner' }),
    (error: unknown) => (error as { code?: string }).code === 'P2002',
  );
  const invitation = (tokenHash: string) =>
    context.database.invitation.create({
      data: {
        tenantId: tenant.id,
        email: 'nuevo@example.com',
        role: 'accountant',
        tokenHash,
        invitedById: user.id,
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
  const first = await invitation('a'.repeat(64));
  await assert.rejects(
    invitation('b'.repeat(64)),
    (error: unknown) => (error as { code?: string }).code === 'P2002',
  );
  await context.database.invitation.update({ where: { id: first.id }, data: { revokedAt: new Date() } });
  await invitation('c'.repeat(64));
});
