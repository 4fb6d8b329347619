/**
 * Webhook benchmark: events per second from the commit of a document state change to a local
 * receiver's 2xx, and the latency from the state change (the outbox row's `created_at`, written
 * by the trigger in the statement that changes the document) to the receiver's answer, through
 * the real engine: the outbox trigger, the worker (its own process: fan-out woken by NOTIFY,
 * `webhook.deliver` jobs in pg-boss, each claiming, signing, POSTing and recording its attempt).
 * Against a bare loop measured in the same run on the same receiver: the same kind of bodies,
 * each signed and POSTed with the engine's own sender (`deliverWebhook`: undici, the guarded
 * connection, HMAC), with no database and no queue, BENCH_BARE_CONCURRENCY requests in flight.
 *
 * The receiver runs in this process: node:http, every request's signature verified against the
 * endpoint's secret, the first 2xx of each event id timed, duplicates counted.
 *
 * Phases: warm-up (20 events), the bare loop (BENCH_EVENTS POSTs), the engine under load
 * (BENCH_EVENTS state changes committed BENCH_BATCH per transaction, as fast as they commit), then
 * the engine with an idle queue (BENCH_IDLE_EVENTS changes, one at a time, each once the previous
 * was delivered).
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/webhooks/run.ts
 * (or `npm run webhooks -w @ecf/bench`). Optional: BENCH_EVENTS (default 2000), BENCH_BATCH (100),
 * BENCH_IDLE_EVENTS (100), BENCH_BARE_CONCURRENCY (16), BENCH_WORKER_NODE_OPTIONS; WORKER_* variables
 * reach the worker.
 *
 * The worker runs compiled (dist/, as `npm start`); BENCH_TYPESCRIPT=1 runs its sources.
 *
 * Goals: engine deliveries >= 1/2 of the bare loop's rate; p95 state change → 2xx < 1 s with an
 * idle queue; every event delivered, none lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { fileURLToPath } from 'node:url';
import { createDatabaseClient, seedTenant, sqlPoolOf } from '@ecf/db';
import { createTestDatabase, freePort } from '@ecf/db/testing';
import {
  buildDirectWebhookPayload,
  closeWebhookConnections,
  createCertificateKeyring,
  createWebhookEndpoint,
  deliverWebhook,
} from '@ecf/services';
import { processCommand, reportFigures } from '../shared/figures.ts';
import { percentile, postgresCpuSeconds, processCpuSeconds } from '../shared/measures.ts';

const EVENTS = Number(process.env['BENCH_EVENTS'] ?? '2000');
const BATCH = Number(process.env['BENCH_BATCH'] ?? '100');
const IDLE_EVENTS = Number(process.env['BENCH_IDLE_EVENTS'] ?? '100');
const BARE_CONCURRENCY = Number(process.env['BENCH_BARE_CONCURRENCY'] ?? '16');
const BARE_SECONDS = Number(process.env['BENCH_BARE_SECONDS'] ?? '3');
const WARM_UP_EVENTS = 20;
const IDLE_P95_GOAL_MS = 1000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

// ---------------------------------------------------------------------------------------------
// The receiver: verifies every request (raw bytes, constant time, every v1), times the first 2xx
// of each event id.

type TReceiver = {
  url: string;
  firstAnswerAt: Map<string, number>;
  requests: () => number;
  refused: () => number;
  close: () => Promise<void>;
};

async function startReceiver(secret: () => string): Promise<TReceiver> {
  const firstAnswerAt = new Map<string, number>();
  let requests = 0;
  let refused = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      const header = String(request.headers['svc-signature'] ?? '');
      const parts = header.split(',').map((part) => part.split('=', 2) as [string, string]);
      const timestamp = parts.find(([key]) => key === 't')?.[1] ?? '';
      const expected = createHmac('sha256', secret())
        .update(`${timestamp}.`)
        .update(Buffer.concat(chunks))
        .digest();
      const valid = parts.some(
        ([key, value]) =>
          key === 'v1' &&
          /^[0-9a-f]{64}$/.test(value) &&
          timingSafeEqual(Buffer.from(value, 'hex'), expected),
      );
      const id = String(request.headers['svc-event-id'] ?? '');
      if (!valid || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
        refused += 1;
        response.writeHead(401).end();
        return;
      }
      if (!firstAnswerAt.has(id)) firstAnswerAt.set(id, Date.now());
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    firstAnswerAt,
    requests: () => requests,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------

type TChild = { process: ChildProcess; output: () => string };

function startWorker(env: Record<string, string>): TChild {
  const command = processCommand('apps/worker/src/main.ts');
  const child = spawn(process.execPath, [...command.flags, command.path], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { process: child, output: () => output };
}

async function stopWorker(child: TChild): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

const appDatabase = await createTestDatabase();
const database = createDatabaseClient({ databaseUrl: appDatabase.url, maxConnections: 4 });
const pool = sqlPoolOf(database);
const masterKey = randomBytes(32).toString('base64');
const keyring = createCertificateKeyring({ currentKey: masterKey });
let signingSecret = '';
const receiver = await startReceiver(() => signingSecret);
let worker: TChild | undefined;
try {
  const tenant = await seedTenant(database);
  const documentCount = WARM_UP_EVENTS + EVENTS + IDLE_EVENTS;
  // Documents `sent`, waiting for their answer, stored BEFORE the endpoint exists (so no event
  // is recorded for their insertion); each phase then commits their change to `accepted`.
  const { rows: documents } = await pool.query<{ id: string }>(
    `INSERT INTO documents (id, tenant_id, environment, type, encf, status, format, issue_date, total_amount,
                            buyer_rnc, submitted_payload, track_id, attempts, submitted_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'TesteCF', 31, 'E31' || lpad(i::text, 10, '0'), 'sent', 'simplified',
            current_date, 5310.00, '101672919', '{}'::jsonb, gen_random_uuid()::text, 1, now(), now()
       FROM generate_series(1, $2::int) AS i
     RETURNING id`,
    [tenant.id, documentCount],
  );
  const created = await createWebhookEndpoint({
    database,
    tenantId: tenant.id,
    environment: 'TesteCF',
    name: 'Benchmark receiver',
    url: receiver.url,
    eventTypes: ['document.state_changed'],
    keyring,
    allowPrivateTargets: true,
  });
  signingSecret = created.signingSecret;

  const healthPort = await freePort();
  worker = startWorker({
    DATABASE_URL: appDatabase.url,
    WORKER_HEALTH_PORT: String(healthPort),
    LOG_LEVEL: 'warn',
    CERTIFICATE_MASTER_KEY: masterKey,
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
    // The seeded `sent` documents are not moved by the document sweep while the bench runs.
    WORKER_SWEEP_STALE_SECONDS: '86400',
    NODE_OPTIONS: process.env['BENCH_WORKER_NODE_OPTIONS'] ?? '',
  });
  const started = worker;
  await waitFor(
    async () => {
      if (started.process.exitCode !== null)
        throw new Error(`the worker exited (${started.process.exitCode}):\n${started.output()}`);
      return fetch(`http://127.0.0.1:${healthPort}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
    },
    60_000,
    'the worker',
  );

  let nextDocument = 0;
  const take = (count: number) => {
    const ids = documents.slice(nextDocument, nextDocument + count).map((row) => row.id);
    nextDocument += count;
    return ids;
  };
  /** Commits the change of `ids` to accepted, one transaction (the trigger writes their events in it). */
  const accept = async (ids: string[]) => {
    await pool.query(
      `UPDATE documents SET status = 'accepted', updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  };
  /** The events the changes of `ids` wrote. */
  const eventsOf = async (ids: string[]) => {
    const { rows } = await pool.query<{ id: string; created_at: Date }>(
      `SELECT id, created_at FROM webhook_events WHERE document_id = ANY($1::uuid[]) AND type = 'document.state_changed'`,
      [ids],
    );
    return rows;
  };
  const delivered = (events: Array<{ id: string }>) =>
    events.every((event) => receiver.firstAnswerAt.has(event.id));

  // Warm-up: JIT, pools, the worker's first jobs.
  const warmIds = take(WARM_UP_EVENTS);
  await accept(warmIds);
  const warmEvents = await eventsOf(warmIds);
  await waitFor(() => delivered(warmEvents), 60_000, `the warm-up deliveries:\n${worker.output()}`);

  // -------------------------------------------------------------------------------------------
  // The bare loop: the same kind of bodies, signed and POSTed by the engine's sender, no database.
  const bareBodies = Array.from({ length: EVENTS }, () => {
    const documentId = randomUUID();
    const payload = buildDirectWebhookPayload(
      {
        id: randomUUID(),
        sequence: '1',
        type: 'document.state_changed',
        tenantId: tenant.id,
        environment: 'TesteCF',
        documentId,
        episodeId: null,
        data: {
          document: {
            id: documentId,
            type: 31,
            encf: 'E310000000001',
            status: 'accepted',
            trackId: randomUUID(),
          },
          fromStatus: 'sent',
          lastError: null,
          securityCode: null,
          signatureDate: null,
          qrUrl: null,
          contingencySince: null,
        },
        createdAt: new Date(),
      },
      tenant.id,
    );
    return { id: payload.id, body: Buffer.from(JSON.stringify(payload)) };
  });
  // At least BENCH_EVENTS POSTs and BENCH_BARE_SECONDS seconds (the bodies are sent again, round robin).
  let bareNext = 0;
  let bareFailures = 0;
  const bareCpuBefore = process.cpuUsage();
  const bareStart = Date.now();
  await Promise.all(
    Array.from({ length: BARE_CONCURRENCY }, async () => {
      while (bareNext < EVENTS || Date.now() - bareStart < BARE_SECONDS * 1000) {
        const item = bareBodies[bareNext % bareBodies.length];
        bareNext += 1;
        if (item === undefined) return;
        const result = await deliverWebhook({
          url: receiver.url,
          body: item.body,
          eventId: item.id,
          eventType: 'document.state_changed',
          secrets: [signingSecret],
          now: () => new Date(),
          allowPrivateTargets: true,
        });
        if (result.outcome !== 'succeeded') bareFailures += 1;
      }
    }),
  );
  const barePosts = bareNext;
  const bareSeconds = (Date.now() - bareStart) / 1000;
  const bareCpu = process.cpuUsage(bareCpuBefore);
  // This process is both the sender and the receiver here.
  const bareCpuMsPerPost = (bareCpu.user + bareCpu.system) / 1000 / barePosts;
  const bareRate = barePosts / bareSeconds;

  // -------------------------------------------------------------------------------------------
  // The engine under load: EVENTS changes committed BATCH per transaction, as fast as they commit.
  const loadIds = take(EVENTS);
  // PostgreSQL's own count of the database's transactions (pg-boss's and this script's polling included).
  const transactionsOf = async (): Promise<number> => {
    const { rows } = await pool.query<{ count: string }>(
      `SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = current_database()`,
    );
    return Number(rows[0]?.count ?? 0);
  };
  const transactionsBefore = await transactionsOf();
  const loadCpuBefore = {
    worker: processCpuSeconds(worker.process.pid),
    postgres: postgresCpuSeconds(),
    self: process.cpuUsage(),
  };
  const loadStart = Date.now();
  for (let index = 0; index < loadIds.length; index += BATCH)
    await accept(loadIds.slice(index, index + BATCH));
  const committedSeconds = (Date.now() - loadStart) / 1000;
  const loadEvents = await eventsOf(loadIds);
  await waitFor(
    () => delivered(loadEvents),
    10 * 60_000,
    `the deliveries under load (${loadEvents.filter((event) => receiver.firstAnswerAt.has(event.id)).length}/${loadEvents.length})`,
  );
  const loadCpu = {
    worker: processCpuSeconds(worker.process.pid) - loadCpuBefore.worker,
    postgres: postgresCpuSeconds() - loadCpuBefore.postgres,
    self: process.cpuUsage(loadCpuBefore.self),
  };
  // Statistics reach pg_stat_database when a backend goes idle (at most a second late).
  await sleep(1500);
  const transactionsPerEvent = ((await transactionsOf()) - transactionsBefore) / loadEvents.length;
  const firstChange = Math.min(...loadEvents.map((event) => event.created_at.getTime()));
  const lastAnswer = Math.max(...loadEvents.map((event) => receiver.firstAnswerAt.get(event.id) ?? 0));
  const loadSeconds = (lastAnswer - firstChange) / 1000;
  const loadRate = loadEvents.length / loadSeconds;
  const loadLatencies = loadEvents
    .map((event) => (receiver.firstAnswerAt.get(event.id) ?? Number.NaN) - event.created_at.getTime())
    .sort((a, b) => a - b);

  // -------------------------------------------------------------------------------------------
  // The engine with an idle queue: one change at a time, each once the previous was delivered and
  // a random while later.
  const idleLatencies: number[] = [];
  for (const id of take(IDLE_EVENTS)) {
    await accept([id]);
    const [event] = await eventsOf([id]);
    if (event === undefined) throw new Error(`no event for document ${id}`);
    await waitFor(() => receiver.firstAnswerAt.has(event.id), 30_000, `the delivery of ${event.id}`);
    idleLatencies.push((receiver.firstAnswerAt.get(event.id) ?? Number.NaN) - event.created_at.getTime());
    // A random gap: changes do not arrive in step with the worker's polling.
    await sleep(20 + Math.random() * 600);
  }
  idleLatencies.sort((a, b) => a - b);

  // -------------------------------------------------------------------------------------------
  const { rows: totals } = await pool.query<{
    events: string;
    deliveries: string;
    succeeded: string;
    attempts: string;
  }>(
    `SELECT (SELECT count(*) FROM webhook_events WHERE type = 'document.state_changed') AS events,
            (SELECT count(*) FROM webhook_deliveries) AS deliveries,
            (SELECT count(*) FROM webhook_deliveries WHERE status = 'succeeded') AS succeeded,
            (SELECT count(*) FROM webhook_delivery_attempts) AS attempts`,
  );
  const total = totals[0];
  const expectedEvents = WARM_UP_EVENTS + EVENTS + IDLE_EVENTS;
  const engineRequests = receiver.requests() - barePosts;
  const { availableParallelism } = await import('node:os');

  console.log(
    `\nwebhook benchmark: ${EVENTS} events under load (${BATCH} per commit), ${IDLE_EVENTS} with an idle queue; bare loop ${BARE_CONCURRENCY} in flight; ${availableParallelism()} CPUs\n`,
  );
  console.log(
    `bare loop (deliverWebhook, no database)      ${bareRate.toFixed(1)} POST/s (${barePosts} over ${bareSeconds.toFixed(1)} s)${bareFailures ? `, ${bareFailures} not 2xx` : ''}`,
  );
  console.log(
    `engine under load (first change → last 2xx)  ${loadRate.toFixed(1)} events/s over ${loadSeconds.toFixed(1)} s (commits took ${committedSeconds.toFixed(1)} s)`,
  );
  console.log(
    `latency under load, change → 2xx             p50 ${percentile(loadLatencies, 0.5)} ms   p95 ${percentile(loadLatencies, 0.95)} ms   max ${loadLatencies.at(-1)} ms`,
  );
  console.log(
    `latency with an idle queue, change → 2xx     p50 ${percentile(idleLatencies, 0.5)} ms   p95 ${percentile(idleLatencies, 0.95)} ms   max ${idleLatencies.at(-1)} ms`,
  );
  console.log(`ratio engine / bare loop                     ${(loadRate / bareRate).toFixed(3)}`);
  console.log(`PostgreSQL transactions per event (load)      ${transactionsPerEvent.toFixed(1)}`);
  const perEvent = (seconds: number) => ((seconds * 1000) / loadEvents.length).toFixed(2);
  console.log(
    `CPU per event under load (ms)                worker ${perEvent(loadCpu.worker)}, PostgreSQL ${perEvent(loadCpu.postgres)}, receiver and polling (this process) ${perEvent((loadCpu.self.user + loadCpu.self.system) / 1e6)}; bare loop ${bareCpuMsPerPost.toFixed(2)} per POST (sender and receiver)`,
  );
  console.log(
    `outbox events ${total?.events}, deliveries ${total?.deliveries} (${total?.succeeded} succeeded), attempts ${total?.attempts}, requests to the receiver ${engineRequests} (refused ${receiver.refused()})`,
  );
  reportFigures('webhooks', {
    bareLoopPerSecond: bareRate,
    enginePerSecond: loadRate,
    engineRatio: loadRate / bareRate,
    workerCpuMsPerEvent: (loadCpu.worker * 1000) / loadEvents.length,
    postgresCpuMsPerEvent: (loadCpu.postgres * 1000) / loadEvents.length,
    transactionsPerEvent,
    idleP95Ms: percentile(idleLatencies, 0.95),
  });
  const goals = [
    { name: 'engine deliveries >= 1/2 of the bare loop', ok: loadRate >= bareRate / 2 },
    {
      name: `p95 change → 2xx < ${IDLE_P95_GOAL_MS} ms with an idle queue`,
      ok: percentile(idleLatencies, 0.95) < IDLE_P95_GOAL_MS,
    },
    {
      name: `every event delivered (${expectedEvents}), none lost, none refused`,
      ok:
        Number(total?.events) === expectedEvents &&
        Number(total?.succeeded) === expectedEvents &&
        receiver.refused() === 0 &&
        bareFailures === 0,
    },
  ];
  console.log('');
  for (const goal of goals) console.log(`${goal.ok ? 'MET    ' : 'NOT MET'} ${goal.name}`);
} finally {
  if (worker) await stopWorker(worker);
  await receiver.close();
  await closeWebhookConnections();
  await database.$disconnect();
  await appDatabase.drop();
}
