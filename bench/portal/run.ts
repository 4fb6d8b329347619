/**
 * Portal benchmark: SERVER time of the portal's heaviest reads with 100,000 documents in one tenant
 * (and 20,000 in a neighbour, so the indexes hold more than one tenant): the documents page (first
 * page, and a page 90,000 documents deep in the cursor) and the overview, through the same
 * use-cases the portal's procedures and the REST API call (`findIssuedDocuments`,
 * `summarizeDocuments`), p50/p95 over BENCH_RUNS runs each, against a baseline measured in the
 * same run (`SELECT 1` through the same pool: the round trip every read pays). Then the plans
 * PostgreSQL chose for those exact statements (auto_explain on the bench's own connections,
 * reported as notices: EXPLAIN ANALYZE, BUFFERS), to show the indexes in use.
 *
 * The portal's search (issue 27, `searchIssuedDocuments`: a page plus its capped total) is measured
 * the same way: an e-NCF prefix (narrow, and "E31" matching 70 %), an exact TrackId, a buyer RNC
 * (one of 2,000 buyers, and the big customer with a fifth of the E31), and an amount range (narrow
 * and wide). Buyer names are not searchable (documents keep no buyer name column): not measured.
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/portal/run.ts
 * (or `npm run portal -w @ecf/bench`). Optional: BENCH_DOCUMENTS (default 100000), BENCH_RUNS (50).
 * Goal: p95 < 100 ms for each.
 */
import { performance } from 'node:perf_hooks';
import { createDatabaseClient, seedTenant, sqlPoolOf, type TDatabase } from '@ecf/db';
import { createTestDatabase } from '@ecf/db/testing';
import {
  findIssuedDocuments,
  issuedSearchFiltersOf,
  searchIssuedDocuments,
  summarizeDocuments,
} from '@ecf/services';
import { percentile } from '../shared/measures.ts';

const DOCUMENTS = Number(process.env['BENCH_DOCUMENTS'] ?? '100000');
const NEIGHBOUR_DOCUMENTS = Math.round(DOCUMENTS / 5);
const RUNS = Number(process.env['BENCH_RUNS'] ?? '50');
const PAGE_SIZE = 50;
const DEEP_POSITION = Math.round(DOCUMENTS * 0.9);
const GOAL_MS = 100;
const CURSOR_SECRET = 'bench-portal-cursor-secret-0123456789';

/**
 * `count` documents of a tenant in TesteCF in ONE statement, submitted over the last 90 days
 * (more recent days busier), with the status spread of a live account: most accepted, a few
 * rejected or conditional, the last hours still moving, a handful in contingency.
 */
const SEED = `
  INSERT INTO documents (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount,
                         buyer_rnc, submitted_payload, track_id, attempts, contingency_since, submitted_at, updated_at)
  SELECT gen_random_uuid(), $1::uuid, 'TesteCF', s.type, 'E' || s.type || lpad(s.i::text, 10, '0'), s.status::"DocumentStatus",
         'simplified', (s.at - interval '4 hours')::date, round((random() * 50000)::numeric, 2),
         -- E31 only: a fifth to one big customer, the rest spread over 2,000 buyers (search by RNC).
         CASE WHEN s.type = 31 THEN CASE WHEN s.i % 5 = 0 THEN '101672919' ELSE (130000000 + s.i % 2000)::text END END,
         '{}'::jsonb,
         CASE WHEN s.status NOT IN ('queued_for_signing', 'signed') THEN gen_random_uuid()::text END,
         1, CASE WHEN s.status = 'contingency' THEN s.at + interval '1 minute' END, s.at, s.at + interval '5 minutes'
    FROM (
      SELECT i, at, CASE WHEN random() < 0.7 THEN 31 ELSE 32 END AS type,
             CASE
               WHEN at > now() - interval '1 hour' AND r < 0.3 THEN (ARRAY['queued_for_signing', 'signed', 'sent'])[1 + (i % 3)]
               WHEN r < 0.86 THEN 'accepted'
               WHEN r < 0.91 THEN 'accepted_conditional'
               WHEN r < 0.96 THEN 'rejected'
               WHEN r < 0.98 THEN 'transmission_failed'
               WHEN r < 0.995 THEN 'sent'
               ELSE 'contingency'
             END AS status
        FROM (SELECT i, random() AS r, now() - (power(random(), 1.5) * interval '90 days') AS at
                FROM generate_series(1, $2::int) AS i) g
    ) s`;

async function measure(name: string, run: () => Promise<unknown>) {
  for (let index = 0; index < 5; index += 1) await run();
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { name, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), max: samples.at(-1) ?? 0 };
}

async function walkTo(database: TDatabase, tenantId: string, position: number): Promise<string> {
  let cursor: string | undefined;
  let seen = 0;
  while (seen < position) {
    const page = await findIssuedDocuments({
      database,
      tenantId,
      environment: 'TesteCF',
      filters: {},
      limit: 100,
      cursor,
      cursorSecret: CURSOR_SECRET,
    });
    seen += page.items.length;
    if (page.nextCursor === null) throw new Error(`the list ended after ${seen} documents`);
    cursor = page.nextCursor;
  }
  return cursor ?? '';
}

/** A client whose connections run auto_explain (ANALYZE, BUFFERS) and send each plan as a notice. */
function explainingClient(url: string, notices: string[]): TDatabase {
  const options = [
    'session_preload_libraries=auto_explain',
    'auto_explain.log_min_duration=0',
    'auto_explain.log_analyze=on',
    'auto_explain.log_buffers=on',
    'auto_explain.log_timing=on',
    'auto_explain.log_level=notice',
    'client_min_messages=notice',
  ]
    .map((option) => `-c ${option}`)
    .join(' ');
  const separator = url.includes('?') ? '&' : '?';
  const database = createDatabaseClient({
    databaseUrl: `${url}${separator}options=${encodeURIComponent(options)}`,
    maxConnections: 1,
  });
  sqlPoolOf(database).on('connect', (client) => {
    client.on('notice', (notice) => notices.push(notice.message ?? ''));
  });
  return database;
}

async function main() {
  const testDatabase = await createTestDatabase();
  const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 4 });
  try {
    const tenant = await seedTenant(database);
    const neighbour = await seedTenant(database);
    const pool = sqlPoolOf(database);
    let started = performance.now();
    await pool.query(SEED, [tenant.id, DOCUMENTS]);
    await pool.query(SEED, [neighbour.id, NEIGHBOUR_DOCUMENTS]);
    // What autovacuum does on a live table after the rows arrive (statistics, visibility map).
    await pool.query('VACUUM ANALYZE documents');
    console.log(
      `seeded ${DOCUMENTS} + ${NEIGHBOUR_DOCUMENTS} documents in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    started = performance.now();
    const deepCursor = await walkTo(database, tenant.id, DEEP_POSITION);
    console.log(
      `cursor after ${DEEP_POSITION} documents reached in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const list = (cursor?: string) => () =>
      findIssuedDocuments({
        database,
        tenantId: tenant.id,
        environment: 'TesteCF',
        filters: {},
        limit: PAGE_SIZE,
        cursor,
        cursorSecret: CURSOR_SECRET,
      });
    const overview = () => summarizeDocuments({ database, tenantId: tenant.id, environment: 'TesteCF' });
    const summary = await overview();
    console.log(
      `overview: ${summary.periodCounts.total} documents in 30 days, ${summary.todayCounts.total} today, ` +
        `${summary.contingency.count} in contingency`,
    );

    const trackId = (
      await pool.query<{ track_id: string }>(
        `SELECT track_id FROM documents WHERE tenant_id = $1 AND track_id IS NOT NULL ORDER BY submitted_at LIMIT 1 OFFSET 500`,
        [tenant.id],
      )
    ).rows[0]?.track_id;
    if (trackId === undefined) throw new Error('no document with a TrackId');
    const search = (q: Record<string, string>) => () =>
      searchIssuedDocuments({
        database,
        tenantId: tenant.id,
        environment: 'TesteCF',
        filters: issuedSearchFiltersOf(q),
        limit: PAGE_SIZE,
        cursorSecret: CURSOR_SECRET,
      });
    const searches: [string, Record<string, string>][] = [
      ['search, e-NCF prefix E3100000123', { q: 'E3100000123' }],
      ['search, e-NCF prefix E31 (70 %)', { q: 'e31' }],
      ['search, TrackId', { q: trackId }],
      ['search, buyer RNC (1 of 2,000)', { q: '130000123' }],
      ['search, buyer RNC (big customer)', { q: '101672919' }],
      ['search, amount 1000.00-1100.00', { amountMin: '1000.00', amountMax: '1100.00' }],
      ['search, amount 0-25000 (50 %)', { amountMin: '0', amountMax: '25000' }],
    ];
    for (const [name, q] of searches) {
      const page = await search(q)();
      console.log(
        `${name}: ${page.items.length} listed, total ${page.total.capped ? 'over ' : ''}${page.total.count}`,
      );
    }

    const baseline = await measure('baseline SELECT 1', () => pool.query('SELECT 1'));
    const results = [
      await measure(`documents, first page (${PAGE_SIZE})`, list()),
      await measure(`documents, page after ${DEEP_POSITION}`, list(deepCursor)),
      await measure('overview', overview),
    ];
    for (const [name, q] of searches) results.push(await measure(name, search(q)));
    console.log(
      `\n${RUNS} runs each (after 5 warm-up runs), server time in-process, goal p95 < ${GOAL_MS} ms`,
    );
    console.log(
      `${'read'.padEnd(40)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}  p95/baseline  goal`,
    );
    for (const result of [baseline, ...results]) {
      console.log(
        `${result.name.padEnd(40)}${result.p50.toFixed(2).padStart(9)}${result.p95.toFixed(2).padStart(9)}${result.max
          .toFixed(2)
          .padStart(9)}  ${(result.p95 / baseline.p95).toFixed(1).padStart(12)}  ${
          result === baseline ? '' : result.p95 < GOAL_MS ? 'met' : 'MISSED'
        }`,
      );
    }

    const notices: string[] = [];
    const explaining = explainingClient(testDatabase.url, notices);
    try {
      const plans: [string, () => Promise<unknown>][] = [
        [`documents, first page`, () => findIssuedDocuments({ ...listOptions(explaining, tenant.id) })],
        [
          `documents, page after ${DEEP_POSITION}`,
          () => findIssuedDocuments({ ...listOptions(explaining, tenant.id), cursor: deepCursor }),
        ],
        [
          'overview',
          () => summarizeDocuments({ database: explaining, tenantId: tenant.id, environment: 'TesteCF' }),
        ],
        ...searches.map(([name, q]): [string, () => Promise<unknown>] => [
          name,
          () =>
            searchIssuedDocuments({
              ...listOptions(explaining, tenant.id),
              filters: issuedSearchFiltersOf(q),
            }),
        ]),
      ];
      for (const [name, run] of plans) {
        await run(); // connect and prepare first: the plan printed is the second, measured one's
        notices.length = 0;
        await run();
        console.log(`\n=== plan: ${name} ===`);
        for (const notice of notices) console.log(notice.replace(/^duration: [\d.]+ ms\s+/, ''));
      }
    } finally {
      await explaining.$disconnect();
    }
  } finally {
    await database.$disconnect();
    await testDatabase.drop();
  }
}

function listOptions(database: TDatabase, tenantId: string) {
  return {
    database,
    tenantId,
    environment: 'TesteCF' as const,
    filters: {},
    limit: PAGE_SIZE,
    cursorSecret: CURSOR_SECRET,
  };
}

await main();
