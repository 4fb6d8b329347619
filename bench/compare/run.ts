/**
 * Every benchmark in one run, and one table of the figures issue 29 set goals for, each with its
 * goal and MET / NOT MET: the way to compare a change before and after on the same machine.
 *
 * Run from the repository root:  bash scripts/node24.sh npx tsx bench/compare/run.ts
 * Optional: BENCH_ONLY=fiscal-core,pdf (a subset), --save <file> (write the figures as JSON),
 * --against <file> (a table with the saved figures beside this run's: run it on the old commit
 * with --save, then on the new one with --against, on the same machine).
 *
 * Each benchmark runs in its own process, one after the other (never two at once: they would
 * share the CPU), and prints its usual report into bench/compare/last-run.log; its figures come
 * back on its `BENCH-FIGURES` line (bench/shared/figures.ts). Not a test: CI does not run it.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { FIGURES_PREFIX } from '../shared/figures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BENCHES = ['fiscal-core', 'pipeline', 'api', 'pdf', 'webhooks', 'startup'] as const;
type TBench = (typeof BENCHES)[number];
type TFigures = Partial<Record<TBench, Record<string, number>>>;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const only = process.env['BENCH_ONLY']?.split(',').map((name) => name.trim());
const selected = BENCHES.filter((bench) => only === undefined || only.includes(bench));
const logPath = `${ROOT}bench/compare/last-run.log`;
const log = createWriteStream(logPath);

/** Runs one benchmark; its figures, or undefined when it failed (its output is in the log). */
async function run(bench: TBench): Promise<Record<string, number> | undefined> {
  const started = performance.now();
  process.stdout.write(`${bench.padEnd(12)} running...`);
  const child = spawn(process.execPath, ['--import', 'tsx', `${ROOT}bench/${bench}/run.ts`], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let figures: Record<string, number> | undefined;
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    log.write(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines)
      if (line.startsWith(FIGURES_PREFIX))
        figures = (JSON.parse(line.slice(FIGURES_PREFIX.length)) as { figures: Record<string, number> })
          .figures;
  });
  child.stderr.on('data', (chunk: Buffer) => log.write(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(
    `\r${bench.padEnd(12)} ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds} s\n`,
  );
  return code === 0 ? figures : undefined;
}

type TRow = {
  figure: string;
  value: (figures: TFigures) => number | undefined;
  unit: string;
  goal?: { text: string; met: (value: number) => boolean };
  digits?: number;
};

const ROWS: TRow[] = [
  {
    figure: 'fiscal-core 10-line pipeline / raw RSA-2048',
    value: (f) => f['fiscal-core']?.['pipeline10Ratio'],
    unit: '×',
    digits: 3,
    goal: { text: '≥ 0.5 ×', met: (v) => v >= 0.5 },
  },
  {
    figure: '  (its spread over the rounds)',
    value: (f) => {
      const spread = f['fiscal-core']?.['pipeline10RatioSpread'];
      return spread === undefined ? undefined : spread * 100;
    },
    unit: '%',
    goal: { text: '≤ 5 %', met: (v) => v <= 5 },
  },
  {
    figure: 'fiscal-core 10-line pipeline',
    value: (f) => f['fiscal-core']?.['pipeline10PerSecond'],
    unit: 'docs/s',
  },
  {
    figure: 'fiscal-core 1,000-line pipeline',
    value: (f) => f['fiscal-core']?.['pipeline1000PerSecond'],
    unit: 'docs/s',
    digits: 1,
    goal: { text: '≥ 100 docs/s', met: (v) => v >= 100 },
  },
  {
    figure: 'end to end 202 → accepted / in-process fiscal-core',
    value: (f) => f.pipeline?.['endToEndRatio'],
    unit: '×',
    digits: 3,
    goal: { text: '≥ 0.5 ×', met: (v) => v >= 0.5 },
  },
  {
    figure: 'end to end 202 → accepted',
    value: (f) => f.pipeline?.['endToEndPerSecond'],
    unit: 'docs/s',
    digits: 1,
  },
  {
    figure: 'product CPU per document (API + worker + PostgreSQL)',
    value: (f) => f.pipeline?.['productCpuMsPerDocument'],
    unit: 'ms',
    digits: 2,
    goal: { text: '≤ 2.5 ms', met: (v) => v <= 2.5 },
  },
  {
    figure: 'PostgreSQL transactions per document',
    value: (f) => f.pipeline?.['transactionsPerDocument'],
    unit: '',
    digits: 2,
    goal: { text: '≤ 1.0', met: (v) => v <= 1 },
  },
  {
    figure: 'documents lost or sent twice (pipeline)',
    value: (f) =>
      f.pipeline === undefined ? undefined : (f.pipeline['lost'] ?? 0) + (f.pipeline['sentTwice'] ?? 0),
    unit: '',
    goal: { text: '0', met: (v) => v === 0 },
  },
  {
    figure: 'API emission 202, 16 connections',
    value: (f) => f.api?.['emissionRequestsPerSecond'],
    unit: 'req/s',
    goal: { text: '≥ 2,000 req/s', met: (v) => v >= 2000 },
  },
  {
    figure: 'API preflight, 10-line E31 / in-process preflight',
    value: (f) => f.api?.['preflightRatio'],
    unit: '×',
    digits: 3,
    goal: { text: '≥ 0.5 ×', met: (v) => v >= 0.5 },
  },
  {
    figure: 'API preflight, 10-line E31',
    value: (f) => f.api?.['preflightRequestsPerSecond'],
    unit: 'req/s',
  },
  {
    figure: 'status batch of 50',
    value: (f) => f.api?.['statusBatchRequestsPerSecond'],
    unit: 'req/s',
    goal: { text: '≥ 1,000 req/s', met: (v) => v >= 1000 },
  },
  {
    figure: 'PDF, 10 lines, CPU',
    value: (f) => f.pdf?.['cpuMs10Lines'],
    unit: 'ms',
    digits: 1,
    goal: { text: '≤ 25 ms', met: (v) => v <= 25 },
  },
  {
    figure: 'PDF, 200 lines, CPU',
    value: (f) => f.pdf?.['cpuMs200Lines'],
    unit: 'ms',
    digits: 1,
    goal: { text: '≤ 200 ms', met: (v) => v <= 200 },
  },
  {
    figure: 'webhook engine / bare signed POST loop',
    value: (f) => f.webhooks?.['engineRatio'],
    unit: '×',
    digits: 3,
    goal: { text: '≥ 0.5 ×', met: (v) => v >= 0.5 },
  },
  {
    figure: 'webhook CPU per event, worker + PostgreSQL',
    value: (f) =>
      f.webhooks === undefined
        ? undefined
        : (f.webhooks['workerCpuMsPerEvent'] ?? 0) + (f.webhooks['postgresCpuMsPerEvent'] ?? 0),
    unit: 'ms',
    digits: 2,
  },
  { figure: 'API start to ready, compiled', value: (f) => f.startup?.['apiReadyMsCompiled'], unit: 'ms' },
  { figure: 'API start to ready, TypeScript', value: (f) => f.startup?.['apiReadyMsTypescript'], unit: 'ms' },
  {
    figure: 'worker start to ready, compiled',
    value: (f) => f.startup?.['workerReadyMsCompiled'],
    unit: 'ms',
  },
  {
    figure: 'worker start to ready, TypeScript',
    value: (f) => f.startup?.['workerReadyMsTypescript'],
    unit: 'ms',
  },
];

function format(value: number | undefined, row: TRow): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  const digits = row.digits ?? (Math.abs(value) >= 100 ? 0 : 1);
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}${row.unit ? ` ${row.unit}` : ''}`;
}

const against = argument('--against');
const baseline: TFigures | undefined =
  against === undefined
    ? undefined
    : (JSON.parse(readFileSync(against, 'utf8')) as { figures: TFigures }).figures;

console.log(
  `bench/compare: ${selected.join(', ')} on ${os.availableParallelism()} CPUs, Node ${process.version}; reports in bench/compare/last-run.log\n`,
);
const figures: TFigures = {};
for (const bench of selected) {
  const result = await run(bench);
  if (result !== undefined) figures[bench] = result;
}
log.end();

const header = ['Figure', ...(baseline ? ['before (saved)'] : []), baseline ? 'now' : 'value', 'Goal', ''];
const table = ROWS.filter(
  (row) => row.value(figures) !== undefined || (baseline && row.value(baseline) !== undefined),
).map((row) => {
  const value = row.value(figures);
  const verdict =
    row.goal === undefined || value === undefined || Number.isNaN(value)
      ? ''
      : row.goal.met(value)
        ? 'MET'
        : 'NOT MET';
  return [
    row.figure,
    ...(baseline ? [format(row.value(baseline), row)] : []),
    format(value, row),
    row.goal?.text ?? '',
    verdict,
  ];
});
const widths = header.map((_, column) =>
  Math.max(...[header, ...table].map((cells) => (cells[column] ?? '').length)),
);
const line = (cells: string[]) =>
  `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
console.log(`\n${line(header)}`);
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const cells of table) console.log(line(cells));

const save = argument('--save');
if (save !== undefined) {
  writeFileSync(
    save,
    `${JSON.stringify({ at: new Date().toISOString(), cpus: os.availableParallelism(), figures }, null, 2)}\n`,
  );
  console.log(`\nfigures saved to ${save}`);
}
