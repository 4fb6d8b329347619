// A portal request that finds no database connection (its pool full past WEB_DB_POOL_TIMEOUT_MS)
// is answered 503 SERVICE_UNAVAILABLE `database_busy`, never a 500 (issue 25 item 8).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createDatabaseClient, sqlPoolOf, type TDatabase } from '@ecf/db';
import { contextOf, openPortalHarness, seedWorld, type TPortalHarness } from '../../test/portal-harness.ts';
import { handleTrpcRequest } from './http.ts';

const ORIGIN = 'https://portal.example.do';
const POOL_TIMEOUT_MS = 300;
let harness: TPortalHarness;
let small: TDatabase;
before(async () => {
  harness = await openPortalHarness();
  // The same database through a pool of one, as runtime.ts builds it with WEB_DB_POOL_MAX=1.
  const { connectionString } = (
    sqlPoolOf(harness.database) as unknown as { options: { connectionString: string } }
  ).options;
  small = createDatabaseClient({
    databaseUrl: connectionString,
    maxConnections: 1,
    poolTimeoutMs: POOL_TIMEOUT_MS,
  });
});
after(async () => {
  await small.$disconnect();
  await harness.close();
});

test('a pool of 1 held busy: a procedure waits for the pool timeout, then 503 SERVICE_UNAVAILABLE database_busy', async () => {
  const world = await seedWorld(harness.database);
  const call = () =>
    handleTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/members.list`, { headers: { 'sec-fetch-site': 'same-origin' } }),
      {
        publicOrigin: ORIGIN,
        createContext: () =>
          Promise.resolve({ ...contextOf(harness, world.sessions.owner), database: small }),
      },
    );
  const held = await sqlPoolOf(small).connect();
  try {
    const started = Date.now();
    const response = await call();
    const elapsed = Date.now() - started;
    const text = await response.text();
    assert.equal(response.status, 503, text);
    const body = JSON.parse(text) as {
      error: {
        message: string;
        data: { code: string; httpStatus: number; appCode: string; details: { reason: string } };
      };
    };
    assert.equal(body.error.data.code, 'SERVICE_UNAVAILABLE');
    assert.equal(body.error.data.httpStatus, 503);
    assert.equal(body.error.data.appCode, 'SERVICE_UNAVAILABLE');
    assert.equal(body.error.data.details.reason, 'database_busy');
    assert.ok(elapsed >= POOL_TIMEOUT_MS - 50, `waited ${elapsed} ms`);
  } finally {
    held.release();
  }
  assert.equal((await call()).status, 200);
});
