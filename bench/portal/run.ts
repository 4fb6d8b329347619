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
 * and wide), and the buyer's name (0024_search_names: one buyer of 2,000 by its whole name, a word
 * an eighth of them share, "consumidor final" of every E32; a name search counts up to 1,000).
 *
 * Issue 27's second part adds: "Recibidos" (`searchReceivedDocuments`, half as many received e-CF
 * from 500 suppliers: first page, supplier's name, a shared word, e-NCF prefix, RNC, amount range),
 * support's tenant search and a Partner's account search (`searchTenants`, `findFiscalAccounts`
 * with 10,000 tenants, 2,000 of them one Partner's: by part of a name and by the start of an RNC).
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/portal/run.ts
 * (or `npm run portal -w @ecf/bench`). Optional: BENCH_DOCUMENTS (default 100000), BENCH_RUNS (50).
 * Goal: p95 < 100 ms for each.
 */
import { performance } from 'node:perf_hooks';
import { createDatabaseClient, seedTenant, sqlPoolOf, type TDatabase } from '@ecf/db';
import { createTestDatabase } from '@ecf/db/testing';
import {
  accountSearchOf,
  findFiscalAccounts,
  findIssuedDocuments,
  issuedSearchFiltersOf,
  searchIssuedDocuments,
  searchReceivedDocuments,
  searchTenants,
  summarizeDocuments,
  ZReceivedSearchQuery,
} from '@ecf/services';
import { ZReceivedListQuery } from '@ecf/contract';
import { percentile } from '../shared/measures.ts';

const DOCUMENTS = Number(process.env['BENCH_DOCUMENTS'] ?? '100000');
const NEIGHBOUR_DOCUMENTS = Math.round(DOCUMENTS / 5);
const RUNS = Number(process.env['BENCH_RUNS'] ?? '50');
const PAGE_SIZE = 50;
const DEEP_POSITION = Math.round(DOCUMENTS * 0.9);
const RECEIVED = Math.round(DOCUMENTS / 2);
const TENANTS = 10_000;
const PARTNER_ACCOUNTS = 2_000;
const GOAL_MS = 100;
const CURSOR_SECRET = 'bench-portal-cursor-secret-0123456789';

/**
 * `count` documents of a tenant in TesteCF in ONE statement, submitted over the last 90 days
 * (more recent days busier), with the status spread of a live account: most accepted, a few
 * rejected or conditional, the last hours still moving, a handful in contingency.
 */
const SEED = `
  INSERT INTO documents (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount,
                         buyer_rnc, buyer_name, submitted_payload, track_id, attempts, contingency_since, submitted_at, updated_at)
  SELECT gen_random_uuid(), $1::uuid, 'TesteCF', s.type, 'E' || s.type || lpad(s.i::text, 10, '0'), s.status::"DocumentStatus",
         'simplified', (s.at - interval '4 hours')::date, round((random() * 50000)::numeric, 2),
         -- E31 only: a fifth to one big customer, the rest spread over 2,000 buyers (search by RNC).
         CASE WHEN s.type = 31 THEN CASE WHEN s.i % 5 = 0 THEN '101672919' ELSE (130000000 + s.i % 2000)::text END END,
         -- Their names: the big customer's, one per buyer (a shared word, an eighth each), E32 anonymous.
         CASE WHEN s.type = 32 THEN 'CONSUMIDOR FINAL'
              WHEN s.i % 5 = 0 THEN 'Supermercados Nacional SRL'
              ELSE (ARRAY['Ferretería', 'Colmado', 'Farmacia', 'Panadería', 'Distribuidora', 'Importadora',
                          'Inversiones', 'Comercial'])[1 + (s.i / 2000) % 8] || ' ' || (s.i % 2000) || ' del Este SRL' END,
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

/** `count` received e-CF of a tenant in TesteCF from 500 suppliers (name and RNC each), over 90 days. */
const SEED_RECEIVED = `
  INSERT INTO inbound_documents (id, tenant_id, environment, kind, status, issuer_rnc, issuer_name, buyer_rnc, encf,
                                 ecf_type, issue_date, total_amount, received_at)
  SELECT gen_random_uuid(), $1::uuid, 'TesteCF', 'ecf', 'received', (131000000 + i % 500)::text,
         (ARRAY['Suplidora', 'Distribuidora', 'Agroindustrial', 'Servicios'])[1 + (i / 500) % 4] || ' ' || (i % 500) || ' Caribe SRL',
         '101672919', 'E' || t || lpad(i::text, 10, '0'), t, (at - interval '4 hours')::date,
         round((random() * 50000)::numeric, 2), at
    FROM (SELECT i, CASE WHEN i % 10 < 7 THEN 31 ELSE 33 END AS t,
                 now() - (power(random(), 1.5) * interval '90 days') AS at
            FROM generate_series(1, $2::int) AS i) g`;

/** `count` tenants (RNC 4xxxxxxxx), the first `partnerCount` of them a Partner's accounts. */
const SEED_TENANTS = `
  INSERT INTO tenants (id, rnc, legal_name, trade_name, partner_id, external_tenant_id, updated_at)
  SELECT gen_random_uuid(), (400000000 + i)::text,
         (ARRAY['Inversiones', 'Grupo', 'Comercial', 'Constructora', 'Farmacia'])[1 + i % 5] || ' ' || i || ' SRL',
         CASE WHEN i % 3 = 0 THEN 'Tienda ' || i END,
         CASE WHEN i <= $2::int THEN $3::uuid END, CASE WHEN i <= $2::int THEN 'ext-' || i END, now()
    FROM generate_series(1, $1::int) AS i`;

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
    await pool.query(SEED_RECEIVED, [tenant.id, RECEIVED]);
    await pool.query(SEED_RECEIVED, [neighbour.id, Math.round(RECEIVED / 5)]);
    const partner = await database.partner.create({ data: { name: 'Bench Partner' } });
    await pool.query(SEED_TENANTS, [TENANTS, PARTNER_ACCOUNTS, partner.id]);
    // What autovacuum does on a live table after the rows arrive (statistics, visibility map).
    await pool.query('VACUUM ANALYZE documents');
    await pool.query('VACUUM ANALYZE inbound_documents');
    await pool.query('VACUUM ANALYZE tenants');
    console.log(
      `seeded ${DOCUMENTS} + ${NEIGHBOUR_DOCUMENTS} documents, ${RECEIVED} + ${Math.round(RECEIVED / 5)} received, ` +
        `${TENANTS} tenants in ${((performance.now() - started) / 1000).toFixed(1)} s`,
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
      ['search, buyer name (1 of 2,000)', { q: 'Farmacia 1234 del Este' }],
      ['search, buyer name word (1/8 of E31)', { q: 'farmacia' }],
      ['search, buyer name consumidor final', { q: 'consumidor final' }],
    ];
    for (const [name, q] of searches) {
      const page = await search(q)();
      console.log(
        `${name}: ${page.items.length} listed, total ${page.total.capped ? 'over ' : ''}${page.total.count}`,
      );
    }
    const received =
      (q: Record<string, string>, database_ = database) =>
      () =>
        searchReceivedDocuments({
          database: database_,
          tenantId: tenant.id,
          environment: 'TesteCF',
          query: ZReceivedListQuery.parse({ limit: String(PAGE_SIZE) }),
          search: ZReceivedSearchQuery.parse(q),
          cursorSecret: CURSOR_SECRET,
        });
    const receivedSearches: [string, Record<string, string>][] = [
      [`received, first page (${PAGE_SIZE})`, {}],
      ['received, supplier name (1 of 500)', { q: 'Distribuidora 123 Caribe' }],
      ['received, supplier name word (1/4)', { q: 'agroindustrial' }],
      ['received, e-NCF prefix E3300000012', { q: 'E3300000012' }],
      ['received, supplier RNC (1 of 500)', { q: '131000123' }],
      ['received, amount 1000.00-1100.00', { amountMin: '1000.00', amountMax: '1100.00' }],
    ];
    for (const [name, q] of receivedSearches) {
      const page = await received(q)();
      console.log(
        `${name}: ${page.items.length} listed, total ${page.total.capped ? 'over ' : ''}${page.total.count}`,
      );
    }
    const tenantSearch =
      (text: string, database_ = database) =>
      () =>
        searchTenants({ database: database_, search: accountSearchOf(text), limit: 50, offset: 0 });
    const partnerSearch =
      (text: string, database_ = database) =>
      () =>
        findFiscalAccounts({
          database: database_,
          partnerId: partner.id,
          limit: 100,
          offset: 0,
          search: accountSearchOf(text) ?? undefined,
        });
    const accountSearches: [string, (database_?: TDatabase) => () => Promise<unknown>][] = [
      ['support tenants, name (1 of 10,000)', (database_) => tenantSearch('Grupo 4321 SRL', database_)],
      ['support tenants, name word (1/5)', (database_) => tenantSearch('farmacia', database_)],
      ['support tenants, RNC start 40000123', (database_) => tenantSearch('40000123', database_)],
      ['partner accounts, name (1 of 2,000)', (database_) => partnerSearch('Comercial 1232', database_)],
      ['partner accounts, RNC start 4000012', (database_) => partnerSearch('4000012', database_)],
    ];
    for (const [name, run] of accountSearches) {
      const page = (await run()()) as { total: number | { count: number } };
      console.log(`${name}: total ${typeof page.total === 'number' ? page.total : page.total.count}`);
    }

    const baseline = await measure('baseline SELECT 1', () => pool.query('SELECT 1'));
    const results = [
      await measure(`documents, first page (${PAGE_SIZE})`, list()),
      await measure(`documents, page after ${DEEP_POSITION}`, list(deepCursor)),
      await measure('overview', overview),
    ];
    for (const [name, q] of searches) results.push(await measure(name, search(q)));
    for (const [name, q] of receivedSearches) results.push(await measure(name, received(q)));
    for (const [name, run] of accountSearches) results.push(await measure(name, run()));
    console.log(
      `\n${RUNS} runs each (after 5 warm-up runs), server time in-process, goal p95 < ${GOAL_MS} ms`,
    );
    console.log(
      `${'read'.padEnd(44)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}  p95/baseline  goal`,
    );
    for (const result of [baseline, ...results]) {
      console.log(
        `${result.name.padEnd(44)}${result.p50.toFixed(2).padStart(9)}${result.p95.toFixed(2).padStart(9)}${result.max
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
        ...receivedSearches.map(([name, q]): [string, () => Promise<unknown>] => [
          name,
          received(q, explaining),
        ]),
        ...accountSearches.map(([name, run]): [string, () => Promise<unknown>] => [name, run(explaining)]),
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
