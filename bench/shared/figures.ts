// What every benchmark hands to bench/compare: its figures on one line of its output, and the
// processes it starts as production runs them (compiled, dist/).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { NODE_COMPILED_FLAGS, NODE_TYPESCRIPT_FLAGS } from '@ecf/db/testing';

/** The prefix of the line bench/compare reads. */
export const FIGURES_PREFIX = 'BENCH-FIGURES ';

/** Prints a benchmark's figures for bench/compare (one JSON line after the human-readable output). */
export function reportFigures(bench: string, figures: Record<string, number>): void {
  console.log(`${FIGURES_PREFIX}${JSON.stringify({ bench, figures })}`);
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How a benchmark starts the API, the worker or the simulator: compiled, as `npm start` does
 * (scripts/compile.mjs first: only what changed), unless BENCH_TYPESCRIPT=1 asks for the sources.
 * The entry is the process's source path (`apps/api/src/main.ts`); the path to run is returned.
 */
export function processCommand(entry: string): { flags: string[]; path: string } {
  if (process.env['BENCH_TYPESCRIPT'] === '1')
    return { flags: NODE_TYPESCRIPT_FLAGS, path: `${ROOT}${entry}` };
  compileOnce();
  return {
    flags: NODE_COMPILED_FLAGS,
    path: `${ROOT}${entry.replace('/src/', '/dist/').replace(/\.ts$/, '.js')}`,
  };
}

/**
 * For a benchmark's own server script (TypeScript) that imports our packages: the flags that make
 * those imports the compiled `dist/` (after compiling), unless BENCH_TYPESCRIPT=1.
 */
export function compiledImportFlags(): string[] {
  if (process.env['BENCH_TYPESCRIPT'] === '1') return [];
  compileOnce();
  return ['--conditions=ecf-compiled'];
}

let compiled = false;
function compileOnce(): void {
  if (compiled) return;
  execFileSync(
    process.execPath,
    ['scripts/compile.mjs', '--with-deps', 'apps/api', 'apps/worker', 'apps/taxauth-sim'],
    { cwd: ROOT, stdio: 'ignore' },
  );
  compiled = true;
}

/** Median and spread (largest distance from the median, as a fraction of it) of repeated measurements. */
export function medianAndSpread(values: number[]): { median: number; spread: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? Number.NaN)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  const spread = Math.max(...sorted.map((value) => Math.abs(value - median))) / median;
  return { median, spread };
}
