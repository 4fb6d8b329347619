/**
 * Hostile bodies against the API: how responsive `/healthz` stays and how much memory the API
 * takes while several oversized submissions arrive at once, against an idle baseline measured in
 * the same run.
 *
 * Phases (each BENCH_SECONDS, default 10; SENDERS concurrent senders, default 4, each sending its
 * next body as soon as the previous one is answered), all on the preflight route with a valid key:
 *   idle           nothing but the /healthz probe
 *   75k lines      75,000-line simplified E31 (7.8 MB): over the body limit
 *   max size       as many 100-byte lines as fit under the body limit (~6 MiB, ~60k lines): the
 *                  line limit refuses it after scanning its first 1,001 lines
 *   1000 lines     a valid 1,000-line E31 (the largest legitimate document): full validation
 * The probe sends GET /healthz every 20 ms on its own keep-alive connection and records each
 * latency; peak RSS is the API process's VmHWM (reset between phases through clear_refs).
 *   reception (r)  the API and the reception process as real processes: the API's /healthz and
 *                  memory idle, then while SENDERS flood reception with 2 MB deliveries of 250,000
 *                  extra elements, direct and through the API's /fe (reception.ts)
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/hostile/run.ts
 * BENCH_PHASES=0,3 runs only those API phases; BENCH_PHASES=r only the reception phase.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { dominicanToday } from '../shared/documents.ts';
import { runReceptionBench } from './reception.ts';
import { NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? '10');
const SENDERS = Number(process.env['SENDERS'] ?? '4');
const PROBE_INTERVAL_MS = 20;
/** The API's default submission limit (the max-size body is built just under it). */
const BODY_LIMIT_BYTES = 6 * 1024 * 1024;

type TServer = { apiUrl: string; key: string; pid: number; stop: () => Promise<void> };

async function startServer(): Promise<TServer> {
  // The API benchmark's server: the API on a fresh database, logs off, rate limits raised.
  const child = spawn(
    process.execPath,
    [...NODE_TYPESCRIPT_FLAGS, new URL('../api/server.ts', import.meta.url).pathname],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const { apiUrl, key } = JSON.parse(first) as { apiUrl: string; key: string };
  return {
    apiUrl,
    key,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function simplifiedBody(lineCount: number, name: (index: number) => string): Buffer {
  const year = Number(dominicanToday().slice(0, 4));
  return Buffer.from(
    JSON.stringify({
      type: 'E31',
      encf: 'E310000000001',
      sequenceExpirationDate: `31-12-${year + 1}`,
      issueDate: dominicanToday(),
      buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
      paymentType: 'card',
      incomeType: '01',
      lines: Array.from({ length: lineCount }, (_, index) => ({
        name: name(index),
        quantity: 2,
        unitPrice: '450.00',
        itbisRate: 18,
        itemKind: 'good',
      })),
    }),
  );
}

/** As many ~100-byte lines as fit under the body limit. */
function maxSizeBody(): Buffer {
  const line = (index: number) => `Artículo de prueba número ${String(index).padStart(6, '0')}`;
  const perLine = simplifiedBody(2, line).length - simplifiedBody(1, line).length;
  const lines = Math.floor((BODY_LIMIT_BYTES - simplifiedBody(0, line).length) / perLine) - 1;
  const body = simplifiedBody(lines, line);
  if (body.length > BODY_LIMIT_BYTES) throw new Error('max-size body over the limit');
  return body;
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

/**
 * The senders run in a process of their own (senders.ts): writing megabytes in a loop would
 * otherwise delay the probe's own event loop and be measured as the API's latency.
 */
function startSenders(server: TServer, body: Buffer): { stop: () => Promise<Record<string, number>> } {
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'hostile-')), 'body.json');
  writeFileSync(bodyFile, body);
  const child = spawn(
    process.execPath,
    [...NODE_TYPESCRIPT_FLAGS, new URL('./senders.ts', import.meta.url).pathname],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        HOSTILE_URL: server.apiUrl,
        HOSTILE_KEY: server.key,
        HOSTILE_BODY: bodyFile,
        SENDERS: String(SENDERS),
      },
    },
  );
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dirname(bodyFile), { recursive: true, force: true });
          resolve(JSON.parse(Buffer.concat(output).toString('utf8') || '{}') as Record<string, number>);
        });
        // Closing its stdin tells it to finish the bodies in flight and print its counts.
        child.stdin.end();
      }),
  };
}

type TPhase = { name: string; body: Buffer | null };
type TPhaseResult = {
  name: string;
  bodyMB: number;
  probes: number;
  p50: number;
  p99: number;
  max: number;
  answers: Record<string, number>;
  peakRssMiB: number;
};

async function runPhase(server: TServer, phase: TPhase): Promise<TPhaseResult> {
  const url = new URL(server.apiUrl);
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  const deadline = Date.now() + SECONDS * 1000;

  const probe = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const probeRequest = request(
          { host: url.hostname, port: url.port, path: '/healthz', agent: probeAgent },
          (response) => {
            response.resume();
            response.on('end', () => resolve());
          },
        );
        probeRequest.on('error', reject);
        probeRequest.end();
      });
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
    }
  };

  resetPeakRss(server.pid);
  const senders = phase.body ? startSenders(server, phase.body) : null;
  await probe();
  Object.assign(answers, senders ? await senders.stop() : {});
  probeAgent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name: phase.name,
    bodyMB: phase.body ? phase.body.length / 1e6 : 0,
    probes: latencies.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
    answers,
    peakRssMiB: peakRssMiB(server.pid),
  };
}

// BENCH_PHASES=0,3 runs only those API phases (0, the idle baseline, is always run with them); r the reception phase.
const selectedPhases = (process.env['BENCH_PHASES'] ?? '0,1,2,3,r').split(',').map((phase) => phase.trim());
const apiPhases = selectedPhases.filter((phase) => phase !== 'r');
const server = apiPhases.length > 0 ? await startServer() : undefined;
if (server) {
  try {
    // ~104 bytes a line, 7.8 MB: the issue's "75,000-line request (7.5 MB)".
    const lines75k = simplifiedBody(
      75_000,
      (index) => `Artículo de prueba ${String(index).padStart(5, '0')}`,
    );
    const phases: TPhase[] = [
      { name: 'idle (baseline)', body: null },
      { name: '75,000 lines (over the body limit)', body: lines75k },
      { name: 'max size, ~60k lines (line limit)', body: maxSizeBody() },
      {
        name: '1,000 valid lines (full validation)',
        body: simplifiedBody(1000, (index) => `Artículo ${index + 1}`),
      },
    ];
    // Warm-up: JIT, XSD schemas, connection pools.
    await runPhase(server, { name: 'warm-up', body: phases[3]!.body });
    const selected = new Set(apiPhases.map(Number).concat(0));
    const results: TPhaseResult[] = [];
    for (const [index, phase] of phases.entries()) {
      if (selected.has(index)) results.push(await runPhase(server, phase));
    }
    const baseline = results[0]!;

    console.log(
      `\nHostile bodies: ${SECONDS} s per phase, ${SENDERS} concurrent senders, /healthz probed every ${PROBE_INTERVAL_MS} ms\n`,
    );
    console.log(
      'phase'.padEnd(38),
      'body MB'.padStart(8),
      'probes'.padStart(7),
      'p50 ms'.padStart(8),
      'p99 ms'.padStart(8),
      'max ms'.padStart(8),
      'p99 x idle'.padStart(11),
      'peak RSS MiB'.padStart(13),
      '  answers',
    );
    for (const row of results) {
      console.log(
        row.name.padEnd(38),
        row.bodyMB.toFixed(2).padStart(8),
        String(row.probes).padStart(7),
        row.p50.toFixed(1).padStart(8),
        row.p99.toFixed(1).padStart(8),
        row.max.toFixed(1).padStart(8),
        (row.p99 / baseline.p99).toFixed(1).padStart(11),
        row.peakRssMiB.toFixed(0).padStart(13),
        ' ',
        JSON.stringify(row.answers),
      );
    }
    const hostile = results.filter((row) => row.name.startsWith('75,000') || row.name.startsWith('max size'));
    console.log('');
    console.log(
      `${hostile.every((row) => row.max < 100) ? 'MET    ' : 'NOT MET'} /healthz under 100 ms (max) while oversized bodies arrive`,
    );
  } finally {
    await server.stop();
  }
}
if (selectedPhases.includes('r'))
  await runReceptionBench({ seconds: SECONDS, senders: SENDERS, probeIntervalMs: PROBE_INTERVAL_MS });
