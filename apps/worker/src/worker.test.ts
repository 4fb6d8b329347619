import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { pino } from 'pino';
import { openTestDatabase, NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { JOB_NAMES } from '@ecf/db';
import { createWorker } from './worker.ts';

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let worker: ReturnType<typeof createWorker>;
before(async () => {
  context = await openTestDatabase();
  worker = createWorker({
    databaseUrl: context.url,
    database: context.database,
    log: pino({ level: 'silent' }),
  });
  await worker.start();
});
after(async () => {
  await worker.stop();
  await context.close();
});

async function waitForJob(name: string, id: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await worker.boss.getJobById(name, id);
    if (job && ['completed', 'failed', 'cancelled'].includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('every job contract has a queue and the worker is healthy', async () => {
  const health = worker.health();
  assert.equal(health.ok, true);
  assert.equal(health.status, 'running');
  assert.deepEqual(Object.keys(health.queues).sort(), [...JOB_NAMES].sort());
});

test('the purge job deletes expired rate-limit windows, idempotency records, reception seeds and tokens, and nothing else', async () => {
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 3_600_000);
  await context.database.rateLimitCounter.createMany({
    data: [
      { bucket: 'key:expired', windowStart: past, count: 3, expiresAt: past },
      { bucket: 'key:live', windowStart: past, count: 1, expiresAt: future },
    ],
  });
  // The reception's seeds and tokens (one row per public seed request): only expired ones go.
  await context.database.receptionSeed.createMany({
    data: [
      { value: 'seed-expired', environment: 'TesteCF', expiresAt: past },
      { value: 'seed-live', environment: 'TesteCF', expiresAt: future },
    ],
  });
  await context.database.receptionToken.createMany({
    data: [
      { tokenSha256: 'a'.repeat(64), environment: 'TesteCF', holderId: '131880681', expiresAt: past },
      { tokenSha256: 'b'.repeat(64), environment: 'TesteCF', holderId: '131880681', expiresAt: future },
    ],
  });
  const id = await worker.boss.send('maintenance.purge-expired', {});
  assert.ok(id);
  const job = await waitForJob('maintenance.purge-expired', id);
  assert.equal(job.state, 'completed');
  const left = await context.database.rateLimitCounter.findMany();
  assert.deepEqual(
    left.map((row) => row.bucket),
    ['key:live'],
  );
  assert.deepEqual(
    (await context.database.receptionSeed.findMany()).map((row) => row.value),
    ['seed-live'],
  );
  assert.deepEqual(
    (await context.database.receptionToken.findMany()).map((row) => row.tokenSha256),
    ['b'.repeat(64)],
  );
});

test('a payload that breaks its contract fails before the handler runs', async () => {
  await context.database.rateLimitCounter.create({
    data: { bucket: 'key:untouched', windowStart: new Date(0), count: 1, expiresAt: new Date(0) },
  });
  const id = await worker.boss.send(
    'maintenance.purge-expired',
    { before: 'not a date', extra: 1 },
    { retryLimit: 0 },
  );
  assert.ok(id);
  const job = await waitForJob('maintenance.purge-expired', id);
  assert.equal(job.state, 'failed');
  assert.match(JSON.stringify(job.output), /invalid payload for maintenance\.purge-expired/);
  assert.equal(await context.database.rateLimitCounter.count({ where: { bucket: 'key:untouched' } }), 1);
});

/** Starts `main.ts` as a real process with `env`; its output (pino JSON lines) is collected. */
function startWorkerProcess(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    [...NODE_TYPESCRIPT_FLAGS, path.join(import.meta.dirname, 'main.ts')],
    {
      env: { ...process.env, DATABASE_URL: context.url, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const exitCodeWithin = (ms: number) =>
    Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);
  return { child, output: () => output, exitCodeWithin };
}

/** The port the process logged for its health server ("worker health on /healthz"). */
function loggedHealthPort(output: string): number | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes('worker health on /healthz')) continue;
    const port = (JSON.parse(line) as { port?: unknown }).port;
    if (typeof port === 'number') return port;
  }
  return undefined;
}

test('the worker process serves /healthz on the port it logs and stops cleanly on SIGTERM', async () => {
  // Port 0: the system picks a free port (a fixed or random one collides with concurrent tests).
  const worker = startWorkerProcess({ WORKER_HEALTH_PORT: '0' });
  try {
    const deadline = Date.now() + 20_000;
    let health: { ok: boolean; status: string } | undefined;
    while (!health?.ok) {
      if (Date.now() > deadline) throw new Error(`worker never became healthy:\n${worker.output()}`);
      const port = loggedHealthPort(worker.output());
      health =
        port === undefined
          ? undefined
          : await fetch(`http://127.0.0.1:${port}/healthz`)
              .then((response) => response.json() as Promise<{ ok: boolean; status: string }>)
              .catch(() => undefined);
      if (!health?.ok) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.equal(health.status, 'running');
    assert.notEqual(loggedHealthPort(worker.output()), 0);
    worker.child.kill('SIGTERM');
    const code = await worker.exitCodeWithin(20_000);
    assert.equal(code, 0, `exit code after SIGTERM; output:\n${worker.output()}`);
    assert.match(worker.output(), /worker stopped/);
  } finally {
    if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
  }
});

test('a health port that is taken stops the worker with exit code 1 and says why', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const address = taken.address();
  assert.ok(typeof address === 'object' && address !== null);
  const worker = startWorkerProcess({
    WORKER_HEALTH_PORT: String(address.port),
    WORKER_HEALTH_HOST: '127.0.0.1',
  });
  try {
    const code = await worker.exitCodeWithin(20_000);
    assert.equal(code, 1, `exit code with the port taken; output:\n${worker.output()}`);
    assert.match(worker.output(), /the health server could not listen/);
    assert.match(worker.output(), /EADDRINUSE/);
    assert.doesNotMatch(worker.output(), /Unhandled 'error' event/);
  } finally {
    if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
});
