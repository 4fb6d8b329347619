// `npm test`'s scheduler: the format check, the type-check, the lint and every workspace's tests,
// two at a time, the longest first.
//
// Why not `turbo run`: turbo starts ready tasks in the order of its graph, so the suites of the
// workspaces that depend on the most others (the worker, the API, the portal's e2e) start last,
// and a 6-minute suite that starts at minute 14 ends the run at minute 20 while the other lane
// idles. This runs the same tasks (the workspaces' own `lint` and `test` scripts, and
// `scripts/typecheck.mjs`) after the one task they all need (`@ecf/db`'s Prisma client), handing
// the next task to whichever lane frees first, longest expected first (longest-processing-time
// scheduling). The expected durations are `scripts/check-durations.json`, measured on the 2-CPU
// machine; a task missing from it counts as DEFAULT_SECONDS. Every run prints each task's duration,
// to keep that file true. After a failure no new task starts; those running finish, and every
// failure is named at the end.
//
// Usage: node scripts/run-checks.mjs [--lanes N] [--only <regexp>]
//   CHECK_LANES (or --lanes) sets the number of lanes (default 2).
import { spawn } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DEFAULT_SECONDS = 30;

function option(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const lanes = Number(option('--lanes') ?? process.env.CHECK_LANES ?? 2);
if (!Number.isInteger(lanes) || lanes < 1) {
  console.error('run-checks: --lanes must be a whole number of at least 1');
  process.exit(2);
}
const only = option('--only') === undefined ? null : new RegExp(option('--only'));
const expected = JSON.parse(readFileSync(path.join(ROOT, 'scripts', 'check-durations.json'), 'utf8'));

/** Every workspace with its package name and scripts, in the root package.json's order. */
function workspaces() {
  const { workspaces: patterns } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return patterns
    .flatMap((pattern) => globSync(pattern, { cwd: ROOT }).sort())
    .flatMap((directory) => {
      try {
        const manifest = JSON.parse(readFileSync(path.join(ROOT, directory, 'package.json'), 'utf8'));
        return [{ directory, name: manifest.name, scripts: manifest.scripts ?? {} }];
      } catch {
        return [];
      }
    });
}

/**
 * The tasks: `{ id, cwd, command }`, `command` run by the shell. Every workspace's `lint` script is
 * `eslint .` under the one root configuration, so the lint is ONE eslint over every workspace's
 * folder: its typed rules build a TypeScript program per tsconfig, and one process parses the
 * files those programs share (@ecf/services, @ecf/db, @ecf/fiscal-core...) once instead of once per
 * workspace (2026-11-27: 117 s of CPU against about 187 s for the 17 workspace lints; about 6 GB of
 * memory at its peak, hence the heap size).
 */
function tasks() {
  const all = workspaces();
  const found = [
    // Prettier over the tree: in a lane like the others (it ran alone before them: 23 s with one
    // lane idle), and first, to read the tree before any test writes into it.
    { id: '//#format', cwd: ROOT, command: 'npx prettier --check .', first: true },
    { id: '//#typecheck', cwd: ROOT, command: 'node scripts/typecheck.mjs' },
    {
      id: '//#lint',
      cwd: ROOT,
      command: `node --max-old-space-size=8192 node_modules/eslint/bin/eslint.js ${all
        .filter((workspace) => workspace.scripts.lint === 'eslint .')
        .map((workspace) => workspace.directory)
        .join(' ')}`,
    },
  ];
  for (const workspace of all) {
    if (typeof workspace.scripts.lint === 'string' && workspace.scripts.lint !== 'eslint .') {
      found.push({
        id: `${workspace.name}#lint`,
        cwd: path.join(ROOT, workspace.directory),
        command: 'npm run --silent lint',
      });
    }
    if (typeof workspace.scripts.test !== 'string') continue;
    found.push({
      id: `${workspace.name}#test`,
      cwd: path.join(ROOT, workspace.directory),
      command: 'npm run --silent test',
    });
  }
  return found.filter((task) => only === null || only.test(task.id));
}

function secondsOf(id) {
  return typeof expected[id] === 'number' ? expected[id] : DEFAULT_SECONDS;
}

/** The lines kept of each task's output for the failure digest (its last ones). */
const KEPT_LINES = 600;
/** How many lines of a failed task's digest are printed at the very end (where CI's excerpt looks). */
const DIGEST_LINES = 70;
const outputOf = new Map();

/**
 * What a failed task said of its failures: node:test's "failing tests" summary when it printed one,
 * else its last lines. Printed after the table, so the end of the log names the failing test even
 * when another lane's output came after it.
 */
function digestOf(id) {
  const lines = outputOf.get(id) ?? [];
  const summary = lines.findLastIndex((line) => /^✖ failing tests:/.test(line.trim()));
  const digest = summary >= 0 ? lines.slice(summary) : lines.slice(-DIGEST_LINES);
  return digest.slice(0, DIGEST_LINES);
}

/** Runs one task, every output line prefixed with its id; resolves with its exit code. */
function run(task) {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', task.command], {
      cwd: task.cwd,
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `${task.id.replace('#', ':')}: `;
    const kept = [];
    outputOf.set(task.id, kept);
    const write = (line) => {
      process.stdout.write(`${prefix}${line}\n`);
      kept.push(line);
      if (kept.length > KEPT_LINES) kept.splice(0, kept.length - KEPT_LINES);
    };
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream.on('data', (chunk) => {
        const lines = (pending + chunk.toString()).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) write(line);
      });
      stream.on('end', () => {
        if (pending !== '') write(pending);
      });
    }
    child.once('error', (error) => {
      process.stdout.write(`${prefix}${String(error)}\n`);
      resolve(1);
    });
    child.once('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

const started = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

// The one task every other needs: the Prisma client of @ecf/db (turbo's `^generate`).
const generate = {
  id: '@ecf/db#generate',
  cwd: path.join(ROOT, 'packages', 'db'),
  command: 'npm run --silent generate',
};
if ((await run(generate)) !== 0) {
  console.error('run-checks: @ecf/db#generate failed');
  process.exit(1);
}

const queue = tasks().sort(
  (a, b) =>
    Number(b.first === true) - Number(a.first === true) ||
    secondsOf(b.id) - secondsOf(a.id) ||
    a.id.localeCompare(b.id),
);
const results = [];
let failed = false;

async function lane() {
  for (;;) {
    if (failed) return;
    const task = queue.shift();
    if (task === undefined) return;
    const taskStarted = Date.now();
    process.stdout.write(
      `run-checks: ${task.id} started at ${seconds(started)} s (expected ${secondsOf(task.id)} s)\n`,
    );
    const code = await run(task);
    results.push({ id: task.id, code, seconds: Number(seconds(taskStarted)), at: Number(seconds(started)) });
    if (code !== 0) failed = true;
  }
}
await Promise.all(Array.from({ length: lanes }, lane));

console.log(
  `\nrun-checks: ${results.length} tasks in ${seconds(started)} s on ${lanes} lanes (task, seconds, expected):`,
);
for (const result of [...results].sort((a, b) => b.seconds - a.seconds)) {
  const state = result.code === 0 ? 'ok  ' : `FAIL (exit ${result.code})`;
  console.log(
    `  ${state} ${result.id.padEnd(34)} ${String(result.seconds).padStart(7)} ${String(secondsOf(result.id)).padStart(5)}`,
  );
}
const failures = results.filter((result) => result.code !== 0);
if (failures.length > 0 || queue.length > 0) {
  if (queue.length > 0)
    console.log(`run-checks: not started after the failure: ${queue.map((task) => task.id).join(', ')}`);
  for (const failure of failures) {
    console.log(`\nrun-checks: what ${failure.id} printed of its failures:`);
    for (const line of digestOf(failure.id)) console.log(`  ${line}`);
  }
  console.log(`run-checks: FAILED: ${failures.map((result) => result.id).join(', ')}`);
  process.exit(1);
}
