import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSimulator } from './app.ts';

test('the simulator reports its health and refuses what it does not implement yet', async () => {
  const app = buildSimulator({ logLevel: 'silent' });
  try {
    const health = await app.inject({ method: 'GET', url: '/_sim/health' });
    assert.equal(health.statusCode, 200);
    assert.equal(health.json().status, 'ok');
    const seed = await app.inject({ method: 'GET', url: '/testecf/autenticacion/api/autenticacion/semilla' });
    assert.equal(seed.statusCode, 501);
    assert.equal(seed.json().error.code, 'NOT_IMPLEMENTED');
  } finally {
    await app.close();
  }
});
