// The API keys procedures: never more power than the role (the procedure refuses what the page
// would not offer), the clear key once, another tenant's key NOT_FOUND, every change audited.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey } from '@ecf/db';
import { authenticateApiRequest, findAuditEntries } from '@ecf/services';
import {
  callerOf,
  openPortalHarness,
  seedWorld,
  sessionOf,
  trpcFailureOf,
  type TPortalHarness,
} from '../../../test/portal-harness.ts';

let harness: TPortalHarness;
before(async () => {
  harness = await openPortalHarness();
});
after(async () => {
  await harness.close();
});

test('a developer is offered and granted only their scopes; tenant:admin is refused by the procedure itself', async () => {
  const world = await seedWorld(harness.database);
  const developer = callerOf(harness, world.sessions.developer);
  const { grantableScopes } = await developer.apiKeys.list({ environment: 'TesteCF' });
  assert.deepEqual(grantableScopes, ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read']);
  const refused = await trpcFailureOf(
    developer.apiKeys.create({ environment: 'TesteCF', name: 'Admin', scopes: ['tenant:admin'] }),
  );
  assert.equal(refused.code, 'FORBIDDEN');
  assert.deepEqual((refused.cause as { details?: unknown }).details, {
    reason: 'scope_not_grantable',
    scopes: ['tenant:admin'],
  });
  const owner = callerOf(harness, world.sessions.owner);
  assert.ok((await owner.apiKeys.list({ environment: 'eCF' })).grantableScopes.includes('tenant:admin'));
  assert.deepEqual(
    (await callerOf(harness, world.sessions.support).apiKeys.list({ environment: 'eCF' })).grantableScopes,
    [],
  );

  // Bad input is a field error, never a 500.
  const bad = await trpcFailureOf(
    developer.apiKeys.create({
      environment: 'Prod' as 'eCF',
      name: '',
      scopes: ['ecf:everything' as 'ecf:read'],
    }),
  );
  assert.equal(bad.code, 'BAD_REQUEST');

  const created = await developer.apiKeys.create({
    environment: 'CerteCF',
    name: 'ERP',
    scopes: ['status:read', 'ecf:read'],
  });
  assert.deepEqual(created.apiKey.scopes, ['ecf:read', 'status:read']);
  const principal = await authenticateApiRequest({
    database: harness.database,
    key: created.key,
    environment: 'CerteCF',
    requiredScopes: ['status:read'],
  });
  assert.equal(principal.tenantId, world.tenant.id);
  // Listed per environment, without the secret.
  const listed = await developer.apiKeys.list({ environment: 'CerteCF' });
  assert.deepEqual(
    listed.keys.map((key) => key.prefix),
    [created.apiKey.prefix],
  );
  assert.ok(!JSON.stringify(listed).includes(created.key));
  assert.deepEqual((await developer.apiKeys.list({ environment: 'TesteCF' })).keys, []);

  await developer.apiKeys.revoke({ apiKeyId: created.apiKey.id });
  const { items } = await findAuditEntries({ database: harness.database, tenantId: world.tenant.id });
  assert.deepEqual(
    items.slice(0, 2).map((entry) => [entry.action, entry.actor?.id]),
    [
      ['api_key.revoked', world.users.developer.id],
      ['api_key.created', world.users.developer.id],
    ],
  );
  assert.ok(!JSON.stringify(items).includes(created.key));
});

test("another tenant's key is NOT_FOUND and stays usable", async () => {
  const world = await seedWorld(harness.database);
  const { key, record } = await seedApiKey(harness.database, {
    tenantId: world.tenant.id,
    environment: 'TesteCF',
  });
  const intruder = callerOf(
    harness,
    await sessionOf(harness.database, world.otherOwner.id, world.otherTenant.id),
  );
  assert.equal((await trpcFailureOf(intruder.apiKeys.revoke({ apiKeyId: record.id }))).code, 'NOT_FOUND');
  assert.deepEqual((await intruder.apiKeys.list({ environment: 'TesteCF' })).keys, []);
  await authenticateApiRequest({
    database: harness.database,
    key,
    environment: 'TesteCF',
    requiredScopes: [],
  });
});
