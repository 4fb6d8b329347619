// Issue 25, item 7: five concurrent Partner requests once answered 500 (a deadlock in the upsert of
// their rate-limit counters). Here many concurrent Partner requests of several Partners and
// accounts, through two API instances (two pools, so several counting statements run at once) on
// real ports and one database: never a 5xx, and every counter holds exactly its requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createDatabaseClient, sqlPoolOf, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { buildApp } from '../app.ts';
import { readEnv } from '../env.ts';
import { TEST_XSD_DIRECTORY } from '../../test/test-api.ts';
import { seedAccount, seedPartner } from '../../test/partner-support.ts';

let testDatabase: Awaited<ReturnType<typeof openTestDatabase>>;
let secondDatabase: TDatabase;
const apps: FastifyInstance[] = [];
const urls: string[] = [];

before(async () => {
  testDatabase = await openTestDatabase();
  secondDatabase = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 5 });
  const env = readEnv({
    DATABASE_URL: testDatabase.url,
    LOG_LEVEL: 'silent',
    XSD_DIRECTORY: TEST_XSD_DIRECTORY,
    PSFE_PARTNER_API_ENABLED: 'true',
  });
  for (const database of [testDatabase.database, secondDatabase]) {
    const app = await buildApp({ env, database });
    apps.push(app);
    urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
  }
});
after(async () => {
  for (const app of apps) await app.close();
  await secondDatabase.$disconnect();
  await testDatabase.close();
});

const REQUESTS = 60;

/** Deadlocks PostgreSQL detected in this test's database (its statistics, flushed within a second). */
async function deadlocksOf(database: TDatabase): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const pool = sqlPoolOf(database);
  await pool.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await pool.query<{ deadlocks: string }>(
    'SELECT deadlocks::text FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]?.deadlocks ?? 0);
}

test(`${REQUESTS} concurrent Partner requests (5 Partners, 2 accounts each, 2 permissions, 2 instances): no 5xx, exact counts`, async () => {
  const database = testDatabase.database;
  const partners: Array<{
    partner: { id: string };
    key: string;
    accounts: Array<{ id: string }>;
  }> = [];
  for (let index = 0; index < 5; index += 1) {
    const { partner, keys } = await seedPartner(database);
    const accounts = [await seedAccount(database, partner.id), await seedAccount(database, partner.id)];
    partners.push({ partner, key: keys.full, accounts });
  }
  const plan = Array.from({ length: REQUESTS }, (_, index) => {
    const { partner, key, accounts } = partners[index % partners.length]!;
    const account = accounts[Math.floor(index / partners.length) % 2]!;
    // Two permissions: the account itself and a document of it (404, but counted all the same).
    const isDocument = index % 3 === 0;
    const path = isDocument
      ? `/partner/v1/fiscal-accounts/${account.id}/testecf/documents/${randomUUID()}`
      : `/partner/v1/fiscal-accounts/${account.id}`;
    return { partnerId: partner.id, accountId: account.id, key, url: `${urls[index % urls.length]}${path}` };
  });
  const answers = await Promise.all(
    plan.map(async (request) => {
      const response = await fetch(request.url, { headers: { 'x-partner-key': request.key } });
      return { status: response.status, body: await response.text() };
    }),
  );
  // PostgreSQL's own count: the counters are locked in one order, so no statement ever deadlocked
  // (before, PostgreSQL aborted one of two batches, and a retry of its requests could deadlock again).
  assert.equal(await deadlocksOf(database), 0, 'deadlocks detected by PostgreSQL');
  const failed = answers.filter((answer) => answer.status >= 500);
  assert.deepEqual(failed, [], 'no 5xx');
  for (const answer of answers) assert.ok([200, 404].includes(answer.status), answer.body);

  const { rows } = await sqlPoolOf(database).query<{ bucket: string; count: number }>(
    `SELECT bucket, sum(count)::int AS count FROM rate_limit_counters WHERE bucket LIKE 'partner%' GROUP BY bucket`,
  );
  const counted = new Map(rows.map((row) => [row.bucket, row.count]));
  const ipTotal = rows
    .filter((row) => row.bucket.startsWith('partner-ip:'))
    .reduce((sum, row) => sum + row.count, 0);
  assert.equal(ipTotal, REQUESTS);
  for (const { partner, accounts } of partners) {
    const ofPartner = plan.filter((request) => request.partnerId === partner.id);
    assert.equal(counted.get(`partner:${partner.id}`), ofPartner.length, partner.id);
    for (const account of accounts)
      assert.equal(
        counted.get(`partner-account:${account.id}`),
        ofPartner.filter((request) => request.accountId === account.id).length,
        account.id,
      );
    const permissions = [...counted.keys()].filter((bucket) =>
      bucket.startsWith(`partner-permission:${partner.id}:`),
    );
    assert.equal(permissions.length, 2, permissions.join());
    assert.equal(
      permissions.reduce((sum, bucket) => sum + (counted.get(bucket) ?? 0), 0),
      ofPartner.length,
    );
  }
});

test('a deadlock forced on the counters of a real Partner request: PostgreSQL aborts the count, it runs again, 200 and each counter +1', async () => {
  const database = testDatabase.database;
  const pool = sqlPoolOf(database);
  const { partner, keys } = await seedPartner(database);
  const account = await seedAccount(database, partner.id);
  const url = `${urls[0]}/partner/v1/fiscal-accounts/${account.id}`;
  const request = () => fetch(url, { headers: { 'x-partner-key': keys.full } });
  // The counters' rows exist in this minute's window (a request near the minute's end waits for the next).
  const secondsLeft = 60 - new Date().getUTCSeconds();
  if (secondsLeft < 10) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));
  assert.equal((await request()).status, 200);
  const bucketsOf = async () =>
    (
      await pool.query<{ bucket: string; count: number }>(
        `SELECT bucket, sum(count)::int AS count FROM rate_limit_counters
          WHERE bucket IN ($1, $2) OR bucket LIKE $3 OR bucket LIKE 'partner-ip:%' GROUP BY bucket ORDER BY bucket`,
        [`partner:${partner.id}`, `partner-account:${account.id}`, `partner-permission:${partner.id}:%`],
      )
    ).rows;
  const before = await bucketsOf();
  assert.equal(before.length, 4, JSON.stringify(before));
  // Key order: partner-account: < partner-ip: < partner-permission: < partner: ('-' sorts before ':').
  const first = `partner-account:${account.id}`;
  const last = `partner:${partner.id}`;

  // Another session holds the LAST counter the request's statement locks...
  const other = await pool.connect();
  try {
    await other.query('BEGIN');
    await other.query(
      `UPDATE rate_limit_counters SET count = count + 1 WHERE bucket = $1 AND window_start = (SELECT max(window_start) FROM rate_limit_counters WHERE bucket = $1)`,
      [last],
    );
    const answer = request();
    // ...the statement takes the first ones and waits for it...
    const otherPid = (await other.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    for (let waited = 0; ; waited += 20) {
      const { rows } = await pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1
            AND wait_event_type = 'Lock'`,
        [otherPid],
      );
      if (rows.length > 0) break;
      assert.ok(waited < 10_000, 'the counting statement never waited for the held counter');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // ...and then wants the first: a deadlock. The statement waited first, so PostgreSQL's check
    // (deadlock_timeout) fires in its session and aborts it (40P01); its retry waits for this one.
    await other.query(
      `UPDATE rate_limit_counters SET count = count + 1 WHERE bucket = $1 AND window_start = (SELECT max(window_start) FROM rate_limit_counters WHERE bucket = $1)`,
      [first],
    );
    await other.query('COMMIT');
    const response = await answer;
    assert.equal(response.status, 200, await response.text());
  } finally {
    other.release();
  }
  assert.ok((await deadlocksOf(database)) >= 1, 'PostgreSQL detected the deadlock');
  const expected = before.map((row) => ({
    bucket: row.bucket,
    count: row.count + 1 + (row.bucket === first || row.bucket === last ? 1 : 0),
  }));
  assert.deepEqual(await bucketsOf(), expected);
});
