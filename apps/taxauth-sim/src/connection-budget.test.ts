import assert from 'node:assert/strict';
import { exitOfStart } from '@ecf/db/testing';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { openSimulator, type TSimulatorHarness } from '../test/simulator-harness.ts';

const POOL_TIMEOUT_MS = 300;

let harness: TSimulatorHarness;
before(async () => {
  harness = await openSimulator({ maxConnections: 1, poolTimeoutMs: POOL_TIMEOUT_MS });
});
after(async () => {
  await harness.close();
});

test('a pool of 1 held busy: the next request waits for the pool timeout, then 503 with Retry-After (never 500)', async () => {
  // The one pooled connection is held by a request blocked on a table lock of our own.
  const locker = new pg.Client({ connectionString: harness.database.url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE taxauth_sim.faults IN ACCESS EXCLUSIVE MODE');
    const blocked = fetch(`${harness.baseUrl}/_sim/faults`);
    // Let the first request take the pool's only connection.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const refused = await fetch(`${harness.baseUrl}/_sim/faults`);
    const elapsed = Date.now() - started;
    assert.equal(refused.status, 503, await refused.clone().text());
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.deepEqual(await refused.json(), { title: 'Service Unavailable', status: 503 });
    assert.ok(elapsed >= POOL_TIMEOUT_MS - 50, `waited ${elapsed} ms for a connection`);
    await locker.query('COMMIT');
    assert.equal((await blocked).status, 200);
  } finally {
    await locker.end();
  }
});

test('a simulator whose budget exceeds max_connections − reserved refuses to start: exit code 1 and the sums on stderr', async () => {
  const { code, stderr } = await exitOfStart(path.join(import.meta.dirname, 'main.ts'), {
    cwd: path.join(import.meta.dirname, '..'),
    env: { DATABASE_URL: harness.database.url, SIM_PORT: '0', SIM_DB_POOL_MAX: '1000' },
  });
  assert.equal(code, 1, stderr);
  assert.match(
    stderr,
    /^taxauth-sim: its database connection budget \(store 1000 = 1000\) exceeds what the server allows/m,
  );
});
