/**
 * Start time and memory of the production processes: the simulator, the API and the worker started
 * from their TypeScript sources (`node --experimental-transform-types`, how they ran before issue 29)
 * and from the compiled JavaScript (`npm run build`: dist/, `--conditions=ecf-compiled`), in
 * alternating rounds on the same databases: milliseconds from spawn to the first answer of the
 * process's health route, and its resident memory (VmRSS) then. What a killed process costs before
 * it works again.
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/startup/run.ts
 * Optional: BENCH_ROUNDS (default 5).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createTestDatabase, freePort, NODE_COMPILED_FLAGS, NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';
import { reportFigures } from '../shared/figures.ts';
import { percentile } from '../shared/measures.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? '5');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 'NaN') / 1024;
}

type TMode = 'typescript' | 'compiled';
type TProcess = { name: string; entry: (mode: TMode) => string; health: (port: number) => string };

const appDatabase = await createTestDatabase();
const simDatabase = await createTestDatabase({ migrated: false });
const masterKey = randomBytes(32).toString('base64');
const simPort = await freePort();

const PROCESSES: Array<TProcess & { env: (port: number) => Record<string, string> }> = [
  {
    name: 'simulator',
    entry: (mode) => (mode === 'compiled' ? 'apps/taxauth-sim/dist/main.js' : 'apps/taxauth-sim/src/main.ts'),
    health: (port) => `http://127.0.0.1:${port}/`,
    env: (port) => ({ SIM_PORT: String(port), SIM_DATABASE_URL: simDatabase.url }),
  },
  {
    name: 'API',
    entry: (mode) => (mode === 'compiled' ? 'apps/api/dist/main.js' : 'apps/api/src/main.ts'),
    health: (port) => `http://127.0.0.1:${port}/healthz`,
    env: (port) => ({ API_PORT: String(port) }),
  },
  {
    name: 'worker',
    entry: (mode) => (mode === 'compiled' ? 'apps/worker/dist/main.js' : 'apps/worker/src/main.ts'),
    health: (port) => `http://127.0.0.1:${port}/healthz`,
    env: (port) => ({
      WORKER_HEALTH_PORT: String(port),
      TAXAUTH_ECF_BASE_URL: `http://127.0.0.1:${simPort}`,
      TAXAUTH_FC_BASE_URL: `http://127.0.0.1:${simPort}`,
      TAXAUTH_STATUS_BASE_URL: `http://127.0.0.1:${simPort}`,
    }),
  },
];

/** Starts one process, waits for its health route, reads its memory, stops it. */
async function startOnce(process_: (typeof PROCESSES)[number], mode: TMode) {
  const port = process_.name === 'simulator' ? simPort : await freePort();
  const flags = mode === 'compiled' ? NODE_COMPILED_FLAGS : NODE_TYPESCRIPT_FLAGS;
  const started = performance.now();
  const child = spawn(process.execPath, [...flags, `${ROOT}${process_.entry(mode)}`], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_URL: appDatabase.url,
      XSD_DIRECTORY: OFFICIAL_XSD_DIRECTORY,
      CERTIFICATE_MASTER_KEY: masterKey,
      ...process_.env(port),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${process_.name} (${mode}) exited:\n${stderr}`);
    try {
      await fetch(process_.health(port));
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  const readyMs = performance.now() - started;
  const rss = rssMiB(child.pid);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { readyMs, rss };
}

try {
  console.log(
    'compile:',
    execFileSync(
      process.execPath,
      ['scripts/compile.mjs', '--with-deps', 'apps/api', 'apps/worker', 'apps/taxauth-sim'],
      { cwd: ROOT, encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .pop(),
  );
  console.log(`start to ready and RSS, ${ROUNDS} alternating rounds (median; min–max)\n`);
  const rows: string[] = [];
  const figures: Record<string, number> = {};
  for (const process_ of PROCESSES) {
    const samples: Record<TMode, { readyMs: number[]; rss: number[] }> = {
      typescript: { readyMs: [], rss: [] },
      compiled: { readyMs: [], rss: [] },
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of round % 2 === 0
        ? (['typescript', 'compiled'] as const)
        : (['compiled', 'typescript'] as const)) {
        const { readyMs, rss } = await startOnce(process_, mode);
        samples[mode].readyMs.push(readyMs);
        samples[mode].rss.push(rss);
      }
    }
    const summary = (values: number[], digits: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${percentile(sorted, 0.5).toFixed(digits)} (${sorted[0]?.toFixed(digits)}–${sorted.at(-1)?.toFixed(digits)})`;
    };
    const ts = samples.typescript;
    const js = samples.compiled;
    const median = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    rows.push(
      `${process_.name.padEnd(10)} ready ms: TypeScript ${summary(ts.readyMs, 0)}, compiled ${summary(js.readyMs, 0)}: ${(median(ts.readyMs) / median(js.readyMs)).toFixed(2)} x faster; ` +
        `RSS MiB: TypeScript ${summary(ts.rss, 0)}, compiled ${summary(js.rss, 0)}`,
    );
    console.log(rows.at(-1));
    const key = process_.name === 'API' ? 'api' : process_.name;
    figures[`${key}ReadyMsTypescript`] = median(ts.readyMs);
    figures[`${key}ReadyMsCompiled`] = median(js.readyMs);
    figures[`${key}RssMiBTypescript`] = median(ts.rss);
    figures[`${key}RssMiBCompiled`] = median(js.rss);
  }
  reportFigures('startup', figures);
} finally {
  await Promise.all([appDatabase.drop(), simDatabase.drop()]);
}
