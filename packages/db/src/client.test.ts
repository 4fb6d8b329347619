import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { createDatabaseClient, sqlPoolOf } from './client.ts';
import { createTestDatabase, type TTestDatabase } from './testing.ts';

let testDatabase: TTestDatabase;
before(async () => {
  testDatabase = await createTestDatabase();
});
after(async () => {
  await testDatabase.drop();
});

/** Ends, from another connection, every backend of the test database but the caller's. */
async function terminateBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: testDatabase.url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

/** Backends of the test database but the caller's, once none is left or after two seconds. */
async function backendsAfterSettling(): Promise<number> {
  const admin = new pg.Client({ connectionString: testDatabase.url });
  await admin.connect();
  try {
    const deadline = Date.now() + 2000;
    for (;;) {
      const { rows } = await admin.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      const count = rows[0]?.count ?? 0;
      if (count === 0 || Date.now() > deadline) return count;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await admin.end();
  }
}

test('an idle connection the server ends does not crash the process; the next query opens another', async () => {
  const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 2 });
  try {
    const pool = sqlPoolOf(database);
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 2')]);
    assert.equal(pool.idleCount, 2);
    // Unheard, the pool's 'error' event would be an uncaught exception and end this test process.
    assert.equal(await terminateBackends(), 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { rows } = await pool.query<{ value: number }>('SELECT 41 + 1 AS value');
    assert.equal(rows[0]?.value, 42);
    assert.equal((await database.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one`)[0]?.one, 1);
  } finally {
    await database.$disconnect();
  }
});

test('$disconnect resolves once every connection is closed, after Prisma and plain SQL both used the pool', async () => {
  const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 3 });
  const pool = sqlPoolOf(database);
  await database.$queryRaw`SELECT 1`;
  await Promise.all([pool.query('SELECT pg_sleep(0.05)'), pool.query('SELECT pg_sleep(0.05)')]);
  await database.$disconnect();
  assert.equal(pool.totalCount, 0);
  // Every connection of ours is closed: the server's backends then exit on their own, within moments
  // (a backend whose socket was closed may still be listed while its process ends on a loaded machine).
  assert.equal(await backendsAfterSettling(), 0);
  // A second disconnect is harmless.
  await database.$disconnect();
});
