import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedTenant } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { authenticateApiRequest } from './authenticate-api-request.ts';
import { AppError } from '../shared/errors.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError);
    return error;
  }
  throw new Error('expected a refusal');
}

test('checks presence, validity, environment and scope in that order', async () => {
  const tenant = await seedTenant(context.database);
  const { key } = await seedApiKey(context.database, {
    tenantId: tenant.id,
    environment: 'eCF',
    scopes: ['ecf:read'],
  });
  const database = context.database;
  assert.equal(
    (
      await refusal(
        authenticateApiRequest({ database, key: undefined, environment: 'eCF', requiredScopes: [] }),
      )
    ).code,
    'API_KEY_MISSING',
  );
  assert.equal(
    (
      await refusal(
        authenticateApiRequest({ database, key: `${key}x`, environment: 'eCF', requiredScopes: [] }),
      )
    ).code,
    'API_KEY_INVALID',
  );
  const mismatch = await refusal(
    authenticateApiRequest({ database, key, environment: 'TesteCF', requiredScopes: ['status:read'] }),
  );
  assert.equal(mismatch.code, 'INSUFFICIENT_SCOPE');
  assert.equal(mismatch.details.reason, 'environment_mismatch');
  assert.equal(mismatch.status, 403);
  const scope = await refusal(
    authenticateApiRequest({ database, key, environment: 'eCF', requiredScopes: ['status:read'] }),
  );
  assert.equal(scope.details.reason, 'missing_scope');
  const principal = await authenticateApiRequest({
    database,
    key,
    environment: 'eCF',
    requiredScopes: ['ecf:read', 'status:read'],
  });
  assert.equal(principal.tenantId, tenant.id);
  assert.deepEqual(principal.scopes, ['ecf:read']);
});
