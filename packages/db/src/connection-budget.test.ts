import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { inspect } from 'node:util';
import pg from 'pg';
import { createDatabaseClient, sqlPoolOf } from './client.ts';
import {
  checkConnectionBudget,
  ConnectionBudgetError,
  isDatabaseBusy,
  totalOf,
  type TConnectionBudget,
} from './connection-budget.ts';
import { createTestDatabase, type TTestDatabase } from './testing.ts';

let testDatabase: TTestDatabase;
before(async () => {
  testDatabase = await createTestDatabase();
});
after(async () => {
  await testDatabase.drop();
});

async function serverSettings(): Promise<{ max: number; superuser: number; reserved: number }> {
  const client = new pg.Client({ connectionString: testDatabase.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ max: string; superuser: string; reserved: string | null }>(
      `SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS superuser,
              current_setting('reserved_connections', true) AS reserved`,
    );
    const row = rows[0]!;
    return { max: Number(row.max), superuser: Number(row.superuser), reserved: Number(row.reserved ?? 0) };
  } finally {
    await client.end();
  }
}

test('a budget within max_connections − reserved slots − reserve passes and reports the sums', async () => {
  const settings = await serverSettings();
  const budget: TConnectionBudget = {
    process: 'api',
    pools: { application: 10, jobQueue: 2, readiness: 2, listen: 1 },
  };
  const check = await checkConnectionBudget({ databaseUrl: testDatabase.url, budget, reserve: 10 });
  assert.equal(totalOf(budget), 15);
  assert.equal(check.budget, 15);
  assert.equal(check.maxConnections, settings.max);
  assert.equal(check.reserved, settings.superuser + settings.reserved + 10);
  assert.equal(check.available, settings.max - check.reserved);
  assert.ok(check.inUse >= 0);
});

test('a budget above max_connections − reserved slots − reserve is refused, naming every number', async () => {
  const settings = await serverSettings();
  const available = settings.max - settings.superuser - settings.reserved - 10;
  const budget: TConnectionBudget = { process: 'worker', pools: { application: available, jobQueue: 1 } };
  await assert.rejects(
    checkConnectionBudget({ databaseUrl: testDatabase.url, budget, reserve: 10 }),
    (error: unknown) => {
      assert.ok(error instanceof ConnectionBudgetError);
      assert.match(
        error.message,
        new RegExp(`^worker: .*application ${available} \\+ jobQueue 1 = ${available + 1}`),
      );
      assert.match(error.message, new RegExp(`max_connections ${settings.max}`));
      assert.match(error.message, /DB_CONNECTION_RESERVE 10/);
      return true;
    },
  );
  // Exactly what is left fits.
  await checkConnectionBudget({
    databaseUrl: testDatabase.url,
    budget: { process: 'worker', pools: { application: available } },
    reserve: 10,
  });
});

test('a full pool past its timeout is told apart: plain SQL and Prisma both, and other errors are not', async () => {
  const database = createDatabaseClient({
    databaseUrl: testDatabase.url,
    maxConnections: 1,
    poolTimeoutMs: 200,
  });
  const pool = sqlPoolOf(database);
  const held = await pool.connect();
  try {
    const started = Date.now();
    const sqlError = await pool.query('SELECT 1').then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(Date.now() - started >= 150, 'waited for the timeout');
    assert.ok(isDatabaseBusy(sqlError), inspect(sqlError));
    const prismaError = await database.tenant.findFirst().then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(prismaError !== undefined, 'the Prisma query failed');
    assert.ok(isDatabaseBusy(prismaError), inspect(prismaError));
    const transactionError = await database
      .$transaction(async (tx) => tx.tenant.count())
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(isDatabaseBusy(transactionError), inspect(transactionError));
  } finally {
    held.release();
  }
  const syntaxError = await pool.query('SELEC 1').then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.equal(isDatabaseBusy(syntaxError), false);
  assert.equal(isDatabaseBusy(new Error('boom')), false);
  assert.equal(isDatabaseBusy(undefined), false);
  await database.$disconnect();
});

test("the server's own refusal for lack of slots (53300 too_many_connections) is told apart", async () => {
  const role = `ecf_budget_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabase.url });
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 1`);
  const url = new URL(testDatabase.url);
  url.username = role;
  const first = new pg.Client({ connectionString: url.toString() });
  try {
    await first.connect();
    const second = new pg.Client({ connectionString: url.toString() });
    second.on('error', () => undefined);
    const error = await second.connect().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.equal((error as { code?: string } | undefined)?.code, '53300');
    assert.ok(isDatabaseBusy(error));
    // The same through Prisma (its adapter maps 53300 to TooManyConnections).
    const database = createDatabaseClient({ databaseUrl: url.toString(), maxConnections: 1 });
    const prismaError = await database.tenant.findFirst().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(isDatabaseBusy(prismaError), inspect(prismaError));
    await database.$disconnect();
  } finally {
    await first.end();
    await admin.query(`DROP ROLE ${role}`).catch(() => undefined);
    await admin.end();
  }
});
