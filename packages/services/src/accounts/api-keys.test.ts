// API keys created and revoked from the portal: never more power than the creator's role, the
// clear key once and never in the audit log, revocation refused by the API at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openIdentityHarness,
  refusal,
  seedTenantWithOwner,
  type TIdentityHarness,
} from '../../test/identity-harness.ts';
import { findAuditEntries } from '../audit/index.ts';
import type { TPortalActor } from '../identity/index.ts';
import { authenticateApiRequest } from './authenticate-api-request.ts';
import { createApiKey } from './create-api-key.ts';
import { findApiKeys } from './find-api-keys.ts';
import { revokeApiKey } from './revoke-api-key.ts';

let harness: TIdentityHarness;
before(async () => {
  harness = await openIdentityHarness();
});
after(async () => {
  await harness.close();
});

const member = (userId: string, role: 'owner' | 'developer' | 'accountant'): TPortalActor => ({
  userId,
  principal: { kind: 'member', role },
  ip: '198.51.100.4',
});

test("a member never creates a key with more power than their role, whatever the caller's input", async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const userId = owner.user.id;
  const database = harness.database;
  const developerAdmin = await refusal(
    createApiKey({
      database,
      tenantId: tenant.id,
      environment: 'TesteCF',
      scopes: ['ecf:read', 'tenant:admin'],
      actor: member(userId, 'developer'),
    }),
  );
  assert.equal(developerAdmin.code, 'FORBIDDEN');
  assert.deepEqual(developerAdmin.details, { reason: 'scope_not_grantable', scopes: ['tenant:admin'] });
  for (const actor of [member(userId, 'accountant'), { userId, principal: { kind: 'support' } } as const])
    assert.equal(
      (
        await refusal(
          createApiKey({
            database,
            tenantId: tenant.id,
            environment: 'TesteCF',
            scopes: ['ecf:read'],
            actor,
          }),
        )
      ).code,
      'FORBIDDEN',
    );
  assert.equal(
    (
      await refusal(
        createApiKey({
          database,
          tenantId: tenant.id,
          environment: 'TesteCF',
          scopes: ['ecf:read'],
          name: 'x'.repeat(101),
          actor: member(userId, 'developer'),
        }),
      )
    ).code,
    'INVALID_REQUEST',
  );
  assert.deepEqual(await findApiKeys({ database, tenantId: tenant.id }), []);

  const developer = await createApiKey({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
    name: '  Integración ERP ',
    actor: member(userId, 'developer'),
  });
  assert.equal(developer.apiKey.name, 'Integración ERP');
  const owners = await createApiKey({
    database,
    tenantId: tenant.id,
    environment: 'CerteCF',
    scopes: ['tenant:admin'],
    actor: member(userId, 'owner'),
  });
  assert.deepEqual(owners.apiKey.scopes, ['tenant:admin']);
  assert.equal(owners.apiKey.name, 'CerteCF key');
});

test('the clear key is returned once, works against the API, never reaches the audit log; revoked it is refused', async () => {
  const { tenant, owner } = await seedTenantWithOwner(harness.database);
  const database = harness.database;
  const actor = member(owner.user.id, 'owner');
  const created = await createApiKey({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['status:read'],
    name: 'Lectura',
    actor,
  });
  assert.ok(created.key.startsWith(created.apiKey.prefix));
  const principal = await authenticateApiRequest({
    database,
    key: created.key,
    environment: 'TesteCF',
    requiredScopes: ['status:read'],
  });
  assert.equal(principal.tenantId, tenant.id);

  const listed = await findApiKeys({ database, tenantId: tenant.id, environment: 'TesteCF' });
  assert.deepEqual(
    listed.map((key) => [key.prefix, key.name, key.scopes]),
    [[created.apiKey.prefix, 'Lectura', ['status:read']]],
  );
  assert.ok(!JSON.stringify(listed).includes(created.key));
  assert.deepEqual(await findApiKeys({ database, tenantId: tenant.id, environment: 'eCF' }), []);

  // Another tenant's key is not found, and stays usable.
  const other = await seedTenantWithOwner(database);
  assert.equal(
    (
      await refusal(
        revokeApiKey({ database, tenantId: other.tenant.id, reference: created.apiKey.id, actor }),
      )
    ).code,
    'NOT_FOUND',
  );
  const revoked = await revokeApiKey({ database, tenantId: tenant.id, reference: created.apiKey.id, actor });
  assert.ok(revoked.revokedAt);
  await revokeApiKey({ database, tenantId: tenant.id, reference: created.apiKey.prefix, actor });
  const failure = await refusal(
    authenticateApiRequest({ database, key: created.key, environment: 'TesteCF', requiredScopes: [] }),
  );
  assert.equal(failure.status, 401);

  const { items } = await findAuditEntries({ database, tenantId: tenant.id });
  assert.deepEqual(
    items.map((entry) => [entry.action, entry.targetId]),
    [
      ['api_key.revoked', created.apiKey.id],
      ['api_key.created', created.apiKey.id],
    ],
    'one entry per change (revoking twice writes one)',
  );
  assert.equal(items[1]?.actor?.id, owner.user.id);
  assert.deepEqual(items[1]?.data, {
    via: 'portal',
    prefix: created.apiKey.prefix,
    environment: 'TesteCF',
    scopes: ['status:read'],
    name: 'Lectura',
  });
  assert.ok(!JSON.stringify(items).includes(created.key.slice(created.apiKey.prefix.length)));
});

test('the admin CLI (no actor) may grant any scope; its changes are audited without an actor', async () => {
  const { tenant } = await seedTenantWithOwner(harness.database);
  const created = await createApiKey({
    database: harness.database,
    tenantId: tenant.id,
    environment: 'eCF',
    scopes: ['tenant:admin', 'ecf:read'],
  });
  assert.deepEqual(created.apiKey.scopes, ['ecf:read', 'tenant:admin']);
  const { items } = await findAuditEntries({ database: harness.database, tenantId: tenant.id });
  assert.equal(items[0]?.actor, null);
  assert.equal(items[0]?.data['via'], 'admin-cli');
});
