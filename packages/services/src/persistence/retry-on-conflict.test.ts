// The retry of a statement PostgreSQL aborted for a deadlock, on a real deadlock: two transactions
// lock two rows in opposite orders; PostgreSQL aborts one (40P01), and the helper runs it again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { inPoolTransaction, sqlPoolOf, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { isRetryableConflict, retryOnConflict } from './retry-on-conflict.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let database: TDatabase;
before(async () => {
  context = await openTestDatabase();
  database = context.database;
  await sqlPoolOf(database).query(
    `INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
     VALUES ('deadlock:a', 'epoch', 0, now() + interval '1 hour'), ('deadlock:b', 'epoch', 0, now() + interval '1 hour')`,
  );
});
after(async () => {
  await context.close();
});

/** Resolves once `count` callers have arrived: both transactions hold their first lock. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return async () => {
    arrived += 1;
    if (arrived === count) open();
    await opened;
  };
}

const increment = (sql: { query: (text: string, values: unknown[]) => Promise<unknown> }, bucket: string) =>
  sql.query(`UPDATE rate_limit_counters SET count = count + 1 WHERE bucket = $1 AND window_start = 'epoch'`, [
    bucket,
  ]);

/** One side of the deadlock: its first row, then (after both hold one) the other. */
function side(first: string, second: string, bothLocked: () => Promise<void>, attempts: number[]) {
  return (attempt: number) =>
    inPoolTransaction(sqlPoolOf(database), async (sql) => {
      attempts.push(attempt);
      await increment(sql, first);
      if (attempt === 1) await bothLocked();
      await increment(sql, second);
    });
}

test('a real deadlock: one side is aborted with 40P01 and runs again; both end counted exactly once', async () => {
  const bothLocked = barrier(2);
  const left: number[] = [];
  const right: number[] = [];
  await Promise.all([
    retryOnConflict(side('deadlock:a', 'deadlock:b', bothLocked, left)),
    retryOnConflict(side('deadlock:b', 'deadlock:a', bothLocked, right)),
  ]);
  // Exactly one of them was aborted and retried.
  assert.deepEqual([left.length + right.length, Math.max(left.length, right.length)], [3, 2]);
  const { rows } = await sqlPoolOf(database).query<{ bucket: string; count: number }>(
    `SELECT bucket, count FROM rate_limit_counters WHERE bucket LIKE 'deadlock:%' ORDER BY bucket`,
  );
  assert.deepEqual(
    rows.map((row) => [row.bucket, row.count]),
    [
      ['deadlock:a', 2],
      ['deadlock:b', 2],
    ],
  );
});

test('without the retry the same deadlock fails one side with 40P01; other errors are never retried', async () => {
  const bothLocked = barrier(2);
  const results = await Promise.allSettled([
    side('deadlock:a', 'deadlock:b', bothLocked, [])(1),
    side('deadlock:b', 'deadlock:a', bothLocked, [])(1),
  ]);
  const failures = results.filter((result) => result.status === 'rejected');
  assert.equal(failures.length, 1);
  assert.ok(isRetryableConflict(failures[0]?.reason), String(failures[0]?.reason));
  assert.equal((failures[0]?.reason as { code?: string }).code, '40P01');

  let runs = 0;
  await assert.rejects(
    retryOnConflict(async () => {
      runs += 1;
      await sqlPoolOf(database).query('SELECT 1/0');
    }),
    /division by zero/,
  );
  assert.equal(runs, 1);
  runs = 0;
  const conflict = Object.assign(new Error('could not serialize access'), { code: '40001' });
  await assert.rejects(
    retryOnConflict(
      () => {
        runs += 1;
        return Promise.reject(conflict);
      },
      { attempts: 3, baseDelayMs: 1 },
    ),
    conflict,
  );
  assert.equal(runs, 3);
});
