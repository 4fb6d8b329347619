import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey, scopeFromDatabase } from './api-keys.ts';
import { openTestDatabase } from './testing.ts';
import { seedApiKey, seedTenant } from './seed.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

test('keys carry their environment in a visible prefix and are hashed with SHA-256', () => {
  const test = generateApiKey('TesteCF');
  const live = generateApiKey('eCF');
  assert.match(test.key, /^ecf_test_[A-Za-z0-9_-]{32}$/);
  assert.match(live.key, /^ecf_live_[A-Za-z0-9_-]{32}$/);
  assert.ok(test.key.startsWith(test.prefix));
  assert.equal(test.prefix.length, 'ecf_test_'.length + 8);
  assert.equal(test.hash, createHash('sha256').update(test.key).digest('hex'));
  assert.equal(hashApiKey(test.key), test.hash);
  assert.notEqual(generateApiKey('TesteCF').key, test.key);
});

test('a seeded key is stored only as its hash, with spec scopes', async () => {
  const tenant = await seedTenant(context.database);
  const { key, record } = await seedApiKey(context.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    scopes: ['ecf:validate', 'status:read'],
  });
  assert.equal(record.hash, hashApiKey(key));
  assert.deepEqual(record.scopes.map(scopeFromDatabase), ['ecf:validate', 'status:read']);
  const rows = await context.database.$queryRawUnsafe<Record<string, unknown>[]>(
    'SELECT *, scopes::text[] AS scope_names FROM api_keys WHERE id = $1::uuid',
    record.id,
  );
  const stored = JSON.stringify(rows);
  assert.ok(!stored.includes(key), 'the clear key appears nowhere in the stored row');
  const [row] = rows;
  assert.deepEqual(row?.scope_names, ['ecf:validate', 'status:read']);
});
