/**
 * End-to-end issuance benchmark: documents per second from the first 202 to the last `accepted`,
 * with the API, the worker and the tax authority simulator (load-test mode: answers at once, no
 * signature or XSD checks) each in a process of its own on a fresh database, against the
 * in-process fiscal-core pipeline (validate → build → sign → XSD) on the same 10-line e-CF 31,
 * measured in the same run.
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/pipeline/run.ts
 * Optional: BENCH_DOCUMENTS (default 2000), BENCH_CONCURRENCY (submissions in flight, default 16),
 * BENCH_SECONDS (fiscal-core measurement, default 3), BENCH_WORKER_NODE_OPTIONS, BENCH_API_NODE_OPTIONS,
 * BENCH_SIM_NODE_OPTIONS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a CPU profile of that process);
 * BENCH_WORKERS (worker processes, default 1: pg-boss hands each job to one of them); BENCH_TIMELINE=1
 * (events per second of each stage: which one lags);
 * WORKER_CONCURRENCY and other WORKER_* variables reach the workers.
 *
 * The API, the worker and the simulator run compiled (dist/, as `npm start`); BENCH_TYPESCRIPT=1
 * runs their sources.
 *
 * Goals (issue 29): end-to-end >= 1/2 of the fiscal-core pipeline rate; product CPU (API, worker
 * and PostgreSQL) <= 2.5 ms per document; <= 1 PostgreSQL transaction per document; no document
 * lost or sent twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDatabaseClient, seedApiKey, seedTenant } from '@ecf/db';
import { createTestDatabase, freePort } from '@ecf/db/testing';
import {
  createTestCertificate,
  createXsdValidators,
  loadCertificate,
  signEcfDocument,
  validateSubmission,
} from '@ecf/fiscal-core';
import { createCertificateKeyring, storeTenantCertificate } from '@ecf/services';
import { readdirSync, readFileSync } from 'node:fs';
import { BENCH_ACCOUNT, e31 } from '../shared/documents.ts';
import { processCommand, reportFigures } from '../shared/figures.ts';
import { percentile, postgresCpuSeconds, processCpuSeconds, TICKS_PER_SECOND } from '../shared/measures.ts';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import path from 'node:path';

const DOCUMENTS = Number(process.env['BENCH_DOCUMENTS'] ?? '2000');
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? '16');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '3');
const WORKERS = Number(process.env['BENCH_WORKERS'] ?? '1');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;
const RNC = '131880738';

type TChild = { name: string; process: ChildProcess; output: () => string };

function startChild(name: string, entry: string, env: Record<string, string>): TChild {
  const command = processCommand(entry);
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
  return { name, process: child, output: () => output };
}

async function waitForHttp(child: TChild, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.process.exitCode !== null)
      throw new Error(`${child.name} exited (${child.process.exitCode}):\n${child.output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`${child.name} did not answer on ${url}:\n${child.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function stopChild(child: TChild): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** CPU seconds used so far: the whole machine (all cores, busy time) or one process. */
function machineCpuSeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const busy = fields.reduce(
    (sum, value, index) => (index === 3 || index === 4 ? sum : sum + (value || 0)),
    0,
  );
  return busy / TICKS_PER_SECOND;
}

// ---------------------------------------------------------------------------------------------
// fiscal-core pipeline, in process: the ceiling a single core reaches on the same document.

const generated = createTestCertificate({ rnc: RNC, commonName: 'Firmante de benchmark' });
const loaded = loadCertificate({
  privateKeyPem: generated.privateKeyPem,
  certificatePem: generated.certificatePem,
});
if (!loaded.success) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
const signingCertificate = loaded.data;
const schemas: Record<string, Uint8Array> = {};
for (const name of readdirSync(XSD_DIRECTORY))
  if (name.endsWith('.xsd')) schemas[name] = readFileSync(path.join(XSD_DIRECTORY, name));
const compiled = createXsdValidators(schemas);
if (!compiled.success) throw new Error('xsd');
const validators = compiled.data;
const account = BENCH_ACCOUNT;

async function pipelineOnce(body: string): Promise<void> {
  const now = new Date();
  const validated = await validateSubmission(body, { now, account });
  if (!validated.success)
    throw new Error(`validateSubmission: ${JSON.stringify(validated.errors.slice(0, 3))}`);
  const signed = signEcfDocument(validated.data.document, signingCertificate, now);
  if (!signed.success) throw new Error('signEcfDocument failed');
  const checked = validators.validateXml(signed.data.xml);
  if (!checked.success) throw new Error(`XSD: ${JSON.stringify(checked.issues.slice(0, 2))}`);
}

const sample = e31('E310000000001');
const warmUntil = performance.now() + 500;
while (performance.now() < warmUntil) await pipelineOnce(sample);
let iterations = 0;
const pipelineStart = performance.now();
while (performance.now() - pipelineStart < SECONDS * 1000) {
  await pipelineOnce(sample);
  iterations += 1;
}
const pipelineRate = (iterations * 1000) / (performance.now() - pipelineStart);
console.log(
  `fiscal-core pipeline (validate → build → sign → XSD), 10-line E31, one core: ${pipelineRate.toFixed(1)} docs/s`,
);

// ---------------------------------------------------------------------------------------------
// End to end.

const appDatabase = await createTestDatabase();
const simDatabase = await createTestDatabase({ migrated: false });
const database = createDatabaseClient({ databaseUrl: appDatabase.url, maxConnections: 4 });
const masterKey = randomBytes(32).toString('base64');
const children: TChild[] = [];
try {
  const tenant = await seedTenant(database, { rnc: RNC, legalName: 'Distribuidora Caribe Digital SRL' });
  const { key } = await seedApiKey(database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
  });
  await storeTenantCertificate({
    database,
    keyring: createCertificateKeyring({ currentKey: masterKey }),
    tenantId: tenant.id,
    p12: generated.p12,
    password: generated.password,
  });

  const [simPort, apiPort] = [await freePort(), await freePort()];
  const healthPorts: number[] = [];
  for (let index = 0; index < WORKERS; index += 1) healthPorts.push(await freePort());
  const simUrl = `http://127.0.0.1:${simPort}`;
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const sim = startChild('simulator', 'apps/taxauth-sim/src/main.ts', {
    SIM_PORT: String(simPort),
    SIM_DATABASE_URL: simDatabase.url,
    SIM_LOAD_TEST: 'true',
    XSD_DIRECTORY,
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: process.env['BENCH_SIM_NODE_OPTIONS'] ?? '',
  });
  const api = startChild('api', 'apps/api/src/main.ts', {
    DATABASE_URL: appDatabase.url,
    API_PORT: String(apiPort),
    LOG_LEVEL: 'warn',
    XSD_DIRECTORY,
    CERTIFICATE_MASTER_KEY: masterKey,
    API_RATE_LIMIT_PER_MINUTE: '100000000',
    API_RATE_LIMIT_PLANS: 'standard=100000000',
    NODE_OPTIONS: process.env['BENCH_API_NODE_OPTIONS'] ?? '',
  });
  const workers = healthPorts.map((healthPort, index) =>
    startChild(`worker ${index + 1}`, 'apps/worker/src/main.ts', {
      DATABASE_URL: appDatabase.url,
      WORKER_HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'warn',
      XSD_DIRECTORY,
      CERTIFICATE_MASTER_KEY: masterKey,
      TAXAUTH_ECF_BASE_URL: simUrl,
      TAXAUTH_FC_BASE_URL: simUrl,
      TAXAUTH_STATUS_BASE_URL: simUrl,
      // e.g. --cpu-prof --cpu-prof-dir=/tmp/prof: a CPU profile of the worker, written when it stops.
      NODE_OPTIONS: process.env['BENCH_WORKER_NODE_OPTIONS'] ?? '',
    }),
  );
  children.push(sim, api, ...workers);
  await Promise.all([
    waitForHttp(sim, `${simUrl}/`),
    waitForHttp(api, `${apiUrl}/healthz`),
    ...workers.map((worker, index) => waitForHttp(worker, `http://127.0.0.1:${healthPorts[index]}/healthz`)),
  ]);

  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  // Warm-up outside the measured set: JIT, pools, the token cache of the worker.
  for (let index = 0; index < 20; index += 1) {
    const response = await fetch(`${apiUrl}/TesteCF/documentos-ecf?validate=true`, {
      method: 'POST',
      headers,
      body: e31('E310000000001'),
    });
    await response.arrayBuffer();
  }

  const encfs = Array.from(
    { length: DOCUMENTS },
    (_, index) => `E31${String(1_000_000 + index).padStart(10, '0')}`,
  );
  let next = 0;
  let first202: number | undefined;
  let last202 = 0;
  const refused: string[] = [];
  async function submitter(): Promise<void> {
    for (;;) {
      const index = next;
      next += 1;
      if (index >= encfs.length) return;
      const encf = encfs[index] ?? '';
      const response = await fetch(`${apiUrl}/TesteCF/documentos-ecf`, {
        method: 'POST',
        headers,
        body: e31(encf),
      });
      const text = await response.text();
      if (response.status === 202) {
        first202 ??= Date.now();
        last202 = Date.now();
      } else {
        refused.push(`${encf}: ${response.status} ${text.slice(0, 200)}`);
      }
    }
  }
  // PostgreSQL's own count of the application database's transactions (pg-boss's included).
  const transactionsOf = async (): Promise<number> => {
    const [row] = await database.$queryRaw<Array<{ count: bigint }>>`
      SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = current_database()`;
    return Number(row?.count ?? 0);
  };
  const transactionsBefore = await transactionsOf();
  const cpuBefore = {
    machine: machineCpuSeconds(),
    children: children.map((child) => processCpuSeconds(child.process.pid)),
    self: process.cpuUsage(),
    postgres: postgresCpuSeconds(),
  };
  const submitStart = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, () => submitter()));
  const submitSeconds = (last202 - submitStart) / 1000;
  console.log(
    `submitted ${DOCUMENTS - refused.length} documents in ${submitSeconds.toFixed(1)} s (${((DOCUMENTS - refused.length) / submitSeconds).toFixed(1)} 202/s)${refused.length ? `, refused ${refused.length}: ${refused[0]}` : ''}`,
  );

  const finals = ['accepted', 'accepted_conditional', 'rejected', 'transmission_failed'];
  const deadline = Date.now() + 10 * 60_000;
  let counts: Record<string, number> = {};
  for (;;) {
    const rows = await database.$queryRaw<
      Array<{ status: string; count: bigint }>
    >`SELECT status::text AS status, count(*) AS count FROM documents GROUP BY status`;
    counts = Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
    const final = finals.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
    if (final >= DOCUMENTS - refused.length) break;
    if (Date.now() > deadline)
      throw new Error(
        `not final after 10 minutes: ${JSON.stringify(counts)}\n${workers.map((worker) => worker.output().slice(-3000)).join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const cpuAfter = {
    machine: machineCpuSeconds(),
    children: children.map((child) => processCpuSeconds(child.process.pid)),
    self: process.cpuUsage(cpuBefore.self),
    postgres: postgresCpuSeconds(),
  };
  // Statistics reach pg_stat_database when a backend goes idle (at most a second late).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const transactionsPerDocument =
    ((await transactionsOf()) - transactionsBefore) / (DOCUMENTS - refused.length);

  const timings = await database.$queryRaw<Array<{ submitted: Date; accepted: Date }>>`
    SELECT d.submitted_at AS submitted, a.created_at AS accepted
    FROM documents d JOIN document_events a ON a.document_id = d.id AND a.type = 'accepted'`;
  const latencies = timings
    .map((row) => row.accepted.getTime() - row.submitted.getTime())
    .sort((a, b) => a - b);
  const lastAccepted = Math.max(...timings.map((row) => row.accepted.getTime()));
  const endToEndSeconds = (lastAccepted - (first202 ?? submitStart)) / 1000;
  const endToEndRate = timings.length / endToEndSeconds;

  if (process.env['BENCH_TIMELINE']) {
    // Which stage lags: events of each kind per second since the first 202.
    const timeline = await database.$queryRaw<Array<{ second: number; type: string; count: bigint }>>`
      SELECT floor(extract(epoch FROM created_at - ${new Date(first202 ?? submitStart)}::timestamptz))::int AS second, type, count(*) AS count
      FROM document_events WHERE type IN ('submitted', 'signed', 'sent', 'accepted') GROUP BY 1, 2 ORDER BY 1`;
    const bySecond = new Map<number, Record<string, number>>();
    for (const row of timeline)
      bySecond.set(row.second, { ...bySecond.get(row.second), [row.type]: Number(row.count) });
    console.log('second  submitted  signed  sent  accepted');
    for (const [second, counts] of [...bySecond].sort((a, b) => a[0] - b[0]))
      console.log(
        `${String(second).padStart(6)}  ${String(counts['submitted'] ?? 0).padStart(9)}  ${String(counts['signed'] ?? 0).padStart(6)}  ${String(counts['sent'] ?? 0).padStart(4)}  ${String(counts['accepted'] ?? 0).padStart(8)}`,
      );
  }

  const simClient = new pg.Client({ connectionString: simDatabase.url });
  await simClient.connect();
  const receptions = await simClient.query<{ total: string; distinct: string }>(
    `SELECT count(*) AS total, count(DISTINCT encf) AS distinct FROM taxauth_sim.tracks`,
  );
  await simClient.end();
  const received = Number(receptions.rows[0]?.total ?? 0);
  const distinctReceived = Number(receptions.rows[0]?.distinct ?? 0);

  console.log(
    `\npipeline benchmark: ${DOCUMENTS} documents (10-line E31), ${CONCURRENCY} submissions in flight, ${WORKERS} worker process(es), WORKER_CONCURRENCY=${process.env['WORKER_CONCURRENCY'] ?? 'default'}, ${(await import('node:os')).availableParallelism()} CPUs\n`,
  );
  console.log(`statuses                              ${JSON.stringify(counts)}`);
  console.log(`simulator receptions                  ${received} (${distinctReceived} distinct eNCF)`);
  console.log(
    `end to end (first 202 → last accepted) ${endToEndRate.toFixed(1)} docs/s over ${endToEndSeconds.toFixed(1)} s`,
  );
  console.log(
    `latency submission → accepted         p50 ${percentile(latencies, 0.5)} ms   p95 ${percentile(latencies, 0.95)} ms   max ${latencies.at(-1)} ms`,
  );
  console.log(
    `PostgreSQL transactions per document  ${transactionsPerDocument.toFixed(1)} (API, worker and pg-boss; polling of this script included)`,
  );
  const accepted = DOCUMENTS - refused.length;
  const cpuMs = (seconds: number) => ((seconds * 1000) / accepted).toFixed(2);
  const childCpu = children.map(
    (child, index) => (cpuAfter.children[index] ?? 0) - (cpuBefore.children[index] ?? 0),
  );
  const machineCpu = cpuAfter.machine - cpuBefore.machine;
  // This script: the submitting client (HTTP and JSON) and its polling of the statuses.
  const selfCpu = (cpuAfter.self.user + cpuAfter.self.system) / 1e6;
  console.log(
    `CPU per document (ms, whole run)      ${cpuMs(machineCpu)} machine = ${children.map((child, index) => `${child.name} ${cpuMs(childCpu[index] ?? 0)}`).join(', ')}, benchmark client ${cpuMs(selfCpu)}, PostgreSQL ${cpuMs(cpuAfter.postgres - cpuBefore.postgres)}, the rest ${cpuMs(machineCpu - selfCpu - (cpuAfter.postgres - cpuBefore.postgres) - childCpu.reduce((sum, value) => sum + value, 0))}`,
  );
  console.log(`fiscal-core pipeline CPU per document ${(1000 / pipelineRate).toFixed(2)} ms`);
  console.log(`fiscal-core pipeline, in process      ${pipelineRate.toFixed(1)} docs/s`);
  console.log(`ratio end to end / fiscal-core        ${(endToEndRate / pipelineRate).toFixed(3)}`);
  // The product: the API, the workers and PostgreSQL (the simulator and this client are not ours to run).
  const productCpuSeconds =
    (childCpu[children.indexOf(api)] ?? 0) +
    workers.reduce((sum, worker) => sum + (childCpu[children.indexOf(worker)] ?? 0), 0) +
    (cpuAfter.postgres - cpuBefore.postgres);
  const productCpuMs = (productCpuSeconds * 1000) / accepted;
  console.log(`product CPU per document (API + worker + PostgreSQL) ${productCpuMs.toFixed(2)} ms`);
  reportFigures('pipeline', {
    endToEndPerSecond: endToEndRate,
    fiscalCorePerSecond: pipelineRate,
    endToEndRatio: endToEndRate / pipelineRate,
    productCpuMsPerDocument: productCpuMs,
    transactionsPerDocument,
    lost: DOCUMENTS - (counts['accepted'] ?? 0),
    sentTwice: received - distinctReceived,
  });
  const goals = [
    { name: 'end to end >= 1/2 of the fiscal-core pipeline', ok: endToEndRate >= pipelineRate / 2 },
    { name: `product CPU <= 2.5 ms per document (${productCpuMs.toFixed(2)})`, ok: productCpuMs <= 2.5 },
    {
      name: `<= 1 PostgreSQL transaction per document (${transactionsPerDocument.toFixed(2)})`,
      ok: transactionsPerDocument <= 1,
    },
    {
      name: `all ${DOCUMENTS} accepted, none lost`,
      ok: (counts['accepted'] ?? 0) === DOCUMENTS && refused.length === 0,
    },
    {
      name: `simulator received each eNCF exactly once (${DOCUMENTS})`,
      ok: received === DOCUMENTS && distinctReceived === DOCUMENTS,
    },
  ];
  console.log('');
  for (const goal of goals) console.log(`${goal.ok ? 'MET    ' : 'NOT MET'} ${goal.name}`);
} finally {
  await Promise.all(children.map((child) => stopChild(child)));
  await database.$disconnect();
  validators.dispose();
  await appDatabase.drop();
  await simDatabase.drop();
}
