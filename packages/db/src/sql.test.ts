import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sqlPoolOf } from './client.ts';
import { inSqlTransaction, prepared } from './sql.ts';
import { openTestDatabase } from './testing.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
before(async () => {
  context = await openTestDatabase();
});
after(async () => {
  await context.close();
});

test('prepared: one name per text, reusable on a connection, different texts never share one', async () => {
  const first = prepared('SELECT $1::int + 1 AS value', [1]);
  assert.equal(prepared('SELECT $1::int + 1 AS value', [5]).name, first.name);
  assert.notEqual(prepared('SELECT $1::int + 2 AS value', [1]).name, first.name);
  // One connection: the second run of a name reuses the parsed statement; a clash would throw.
  const connection = await sqlPoolOf(context.database).connect();
  try {
    for (const [text, input, expected] of [
      ['SELECT $1::int + 1 AS value', 1, 2],
      ['SELECT $1::int + 2 AS value', 1, 3],
      ['SELECT $1::int + 1 AS value', 41, 42],
    ] as const) {
      const { rows } = await connection.query<{ value: number }>(prepared(text, [input]));
      assert.equal(rows[0]?.value, expected);
    }
  } finally {
    connection.release();
  }
});

test('inSqlTransaction commits what resolves and rolls back what throws, and the connection stays usable', async () => {
  const { database } = context;
  await sqlPoolOf(database).query('CREATE TABLE sql_test_rows (value int)');
  await inSqlTransaction(database, (sql) => sql.query('INSERT INTO sql_test_rows VALUES (1)'));
  await assert.rejects(
    inSqlTransaction(database, async (sql) => {
      await sql.query('INSERT INTO sql_test_rows VALUES (2)');
      throw new Error('boom');
    }),
    /boom/,
  );
  await assert.rejects(
    inSqlTransaction(database, (sql) => sql.query('INSERT INTO sql_test_rows VALUES (1 / 0)')),
    /division by zero/,
  );
  const { rows } = await sqlPoolOf(database).query<{ value: number }>(
    'SELECT value FROM sql_test_rows ORDER BY value',
  );
  assert.deepEqual(
    rows.map((row) => row.value),
    [1],
  );
  const idle = await sqlPoolOf(database).query<{ count: string }>(
    `SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'`,
  );
  assert.equal(idle.rows[0]?.count, '0', 'no connection is left inside a transaction');
});
