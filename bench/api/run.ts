/**
 * Direct account API benchmark: requests per second and p50/p99 latency of preflight (10-line E31),
 * emission (202 path, distinct eNCFs) and a status batch of 50, against a bare Fastify route
 * returning a fixed JSON body measured in the same run (the ceiling).
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/api/run.ts
 * Optional: BENCH_SECONDS (per measurement, default 10), BENCH_CONNECTIONS (default 16),
 * BENCH_SERVER_NODE_OPTIONS (flags of the API's process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`),
 * BENCH_WITHOUT_ANNULMENT_GUARD=1 (emission without migration 0013's insert trigger, to price it).
 *
 * The API runs its compiled code (dist/, as `npm start`); BENCH_TYPESCRIPT=1 runs the sources.
 *
 * Goals (issue 29): emission >= 2,000 req/s, preflight >= 1/2 of the in-process preflight
 * (fiscal-core's validateSubmission of the same body, measured in this process on one core),
 * a status batch of 50 >= 1,000 req/s, no error responses.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { validateSubmission } from '@ecf/fiscal-core';
import { BENCH_ACCOUNT, e31 } from '../shared/documents.ts';
import { compiledImportFlags, reportFigures } from '../shared/figures.ts';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '10');
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? '16');

type TServers = { apiUrl: string; bareUrl: string; key: string; encfs: string[]; databaseUrl: string };

async function startServers(): Promise<{ servers: TServers; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      ...NODE_TYPESCRIPT_FLAGS,
      ...compiledImportFlags(),
      // e.g. BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof": a profile of the API's process.
      ...(process.env['BENCH_SERVER_NODE_OPTIONS']?.split(' ').filter(Boolean) ?? []),
      new URL('./server.ts', import.meta.url).pathname,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    servers: JSON.parse(first) as TServers,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

type TResult = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
  statuses: Record<string, number>;
};

async function measure(name: string, options: autocannon.Options): Promise<TResult> {
  const statuses: Record<string, number> = {};
  // Without a callback autocannon returns its running instance, an event emitter that is also a promise of the result.
  const instance = autocannon({
    connections: CONNECTIONS,
    duration: SECONDS,
    ...options,
  }) as unknown as Promise<autocannon.Result> & {
    on(event: 'response', listener: (client: unknown, statusCode: number) => void): void;
  };
  instance.on('response', (_client: unknown, statusCode: number) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await instance;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
    statuses,
  };
}

/** The preflight's own work in this process, on one core: the ceiling of the preflight route. */
async function inProcessPreflight(): Promise<number> {
  const body = e31('E310000000001');
  const context = { now: new Date(), account: BENCH_ACCOUNT };
  const once = async () => {
    const result = await validateSubmission(body, context);
    if (!result.success) throw new Error(JSON.stringify(result.errors.slice(0, 2)));
  };
  const warmUntil = performance.now() + 1000;
  while (performance.now() < warmUntil) await once();
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < 3000) {
    await once();
    count += 1;
  }
  return (count * 1000) / (performance.now() - start);
}

const preflightInProcess = await inProcessPreflight();
const { servers, stop } = await startServers();
const json = { 'content-type': 'application/json', 'x-api-key': servers.key };
try {
  // Warm-up (JIT, connection pools, the job queue).
  await measure('warm-up', {
    url: `${servers.apiUrl}/TesteCF/documentos-ecf?validate=true`,
    method: 'POST',
    headers: json,
    body: e31('E310000000001'),
    duration: 2,
  });
  await measure('warm-up', { url: `${servers.bareUrl}/bare`, duration: 2 });

  const bare = await measure('bare Fastify route (ceiling)', { url: `${servers.bareUrl}/bare` });
  const preflight = await measure('preflight, 10-line E31', {
    url: `${servers.apiUrl}/TesteCF/documentos-ecf?validate=true`,
    method: 'POST',
    headers: json,
    body: e31('E310000000001'),
  });
  let sequence = 0;
  const emission = await measure('emission (202), distinct eNCFs', {
    url: `${servers.apiUrl}/TesteCF/documentos-ecf`,
    method: 'POST',
    headers: json,
    requests: [
      {
        setupRequest: (request) => {
          sequence += 1;
          return { ...request, body: e31(`E31${String(sequence).padStart(10, '0')}`) };
        },
      },
    ],
  });
  // The emission phase filled `documents` in seconds; autovacuum would analyze it within a minute.
  // Without statistics, the status statement's plan (made when the table was empty) scans the
  // tenant's documents instead of probing its 50 keys: that measures the stale plan, not the route.
  const analyzer = new pg.Client({ connectionString: servers.databaseUrl });
  await analyzer.connect();
  await analyzer.query('ANALYZE documents');
  await analyzer.end();
  const batch = await measure('status batch of 50', {
    url: `${servers.apiUrl}/TesteCF/documentos-ecf/status/batch`,
    method: 'POST',
    headers: json,
    body: JSON.stringify({ encfs: servers.encfs }),
  });

  const rows = [bare, preflight, emission, batch];
  console.log(
    `\nAPI benchmark: ${SECONDS} s per measurement, ${CONNECTIONS} connections, autocannon in its own process\n`,
  );
  console.log(
    'measurement'.padEnd(34),
    'req/s'.padStart(9),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'x bare'.padStart(8),
    '  statuses',
  );
  for (const row of rows) {
    console.log(
      row.name.padEnd(34),
      row.rps.toFixed(0).padStart(9),
      String(row.p50).padStart(8),
      String(row.p99).padStart(8),
      (row.rps / bare.rps).toFixed(3).padStart(8),
      ' ',
      JSON.stringify(row.statuses),
      row.errors ? `errors=${row.errors}` : '',
    );
  }
  console.log(
    `${'preflight in process (one core)'.padEnd(34)} ${preflightInProcess.toFixed(0).padStart(9)}   (validateSubmission alone)`,
  );
  const goals = [
    { name: `emission >= 2,000 req/s (${emission.rps.toFixed(0)})`, ok: emission.rps >= 2000 },
    {
      name: `preflight >= 1/2 of the in-process preflight (${(preflight.rps / preflightInProcess).toFixed(3)} x)`,
      ok: preflight.rps >= preflightInProcess / 2,
    },
    { name: `status batch of 50 >= 1,000 req/s (${batch.rps.toFixed(0)})`, ok: batch.rps >= 1000 },
    { name: 'no error responses', ok: rows.every((row) => row.errors === 0 && row.non2xx === 0) },
  ];
  reportFigures('api', {
    bareRequestsPerSecond: bare.rps,
    preflightRequestsPerSecond: preflight.rps,
    preflightInProcessPerSecond: preflightInProcess,
    preflightRatio: preflight.rps / preflightInProcess,
    emissionRequestsPerSecond: emission.rps,
    emissionRatioToBare: emission.rps / bare.rps,
    statusBatchRequestsPerSecond: batch.rps,
    errors: rows.reduce((sum, row) => sum + row.errors + row.non2xx, 0),
  });
  console.log('');
  for (const goal of goals) console.log(`${goal.ok ? 'MET    ' : 'NOT MET'} ${goal.name}`);
} finally {
  await stop();
}
