// Type-checks every workspace in one task, with fewer TypeScript programs than workspaces.
//
// Each workspace's own `npm run typecheck -w <ws>` (tsc -p tsconfig.json) builds a program of its
// files and of every workspace it imports, so 17 programs re-check @ecf/services, @ecf/db and
// @ecf/fiscal-core again and again. Here workspaces whose compiler options are the same are
// checked as ONE program over the union of their tsconfig's files: a file's types, and so its
// errors, do not depend on which other files share its program, as long as nothing global comes
// with them. The guards below keep that true; a group that breaks one is checked workspace by
// workspace instead (exact, slower) with a warning to fix GROUPS:
// - the members' compiler options are identical, except `jsx`, which only changes how .tsx files
//   compile; every .tsx file of a group must belong to a workspace whose own tsconfig sets `jsx`;
// - a group holds no global declaration (`declare global`, `declare module '...'`, a module
//   augmentation) except from the workspaces named in its `declarationsFrom`, whose declarations
//   every member's own program already includes (bench builds the API: it imports its app.ts,
//   which imports every file that augments fastify).
// Workspaces in no group (the portal's Bundler resolution, fiscal-core's exactOptionalPropertyTypes,
// the DOM libraries of ui, e2e and fuzz) are checked alone, exactly as `tsc -p` checks them.
// Measured back to back on the 2-CPU machine: 17 × `npx tsc -p` 341 s wall, 283 s CPU; this
// script 188 s wall, 185 s CPU, at most about 1.2 GB of memory (one child process per program).
import { spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Workspaces checked as one program. Paths are relative to the repository root. */
const GROUPS = [
  {
    name: 'node services',
    members: [
      'apps/worker',
      'apps/taxauth-sim',
      'apps/mail-catcher',
      'examples/erp-integration',
      'examples/partner-onboarding',
      'packages/certification-sets',
      'packages/config',
      'packages/contract',
      'packages/db',
      'packages/taxauth-client',
      'packages/printing',
      'packages/services',
      'tools',
    ],
    declarationsFrom: [],
  },
  { name: 'api and bench', members: ['apps/api', 'bench'], declarationsFrom: ['apps/api'] },
];

/** Options that name the config file itself, not how files are checked. */
const NOT_COMPARED = new Set(['configFilePath', 'pathsBasePath', 'jsx']);
const DECLARES_GLOBAL = /^\s*declare\s+(global\b|module\s+['"])/m;

function workspaces() {
  const { workspaces: patterns } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return patterns
    .flatMap((pattern) => globSync(pattern, { cwd: ROOT }))
    .filter((directory) => ts.sys.fileExists(path.join(ROOT, directory, 'tsconfig.json')))
    .sort();
}

function parse(workspace) {
  const configPath = path.join(ROOT, workspace, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  return { workspace, ...parsed };
}

function comparable(options) {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(options)
        .filter(([key]) => !NOT_COMPARED.has(key))
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  );
}

const workspaceOf = (file, members) =>
  members.find((member) => file.startsWith(path.join(ROOT, member.workspace) + path.sep));

/** Why a group may not be one program, or undefined when it may. */
function groupProblem(group, members, program, jsxWorkspaces) {
  const options = comparable(members[0].options);
  const differing = members.filter((member) => comparable(member.options) !== options);
  if (differing.length > 0)
    return `compiler options of ${differing.map((m) => m.workspace).join(', ')} differ from ${members[0].workspace}'s`;
  for (const file of program.getSourceFiles()) {
    if (file.fileName.includes('/node_modules/')) continue;
    const owner = workspaceOf(file.fileName, members);
    if (file.fileName.endsWith('.tsx') && !jsxWorkspaces.some((w) => file.fileName.startsWith(w + path.sep)))
      return `${path.relative(ROOT, file.fileName)} is .tsx outside a workspace compiled with jsx`;
    if (DECLARES_GLOBAL.test(file.text) && !group.declarationsFrom.includes(owner?.workspace ?? ''))
      return `${path.relative(ROOT, file.fileName)} declares something global or augments a module`;
  }
  return undefined;
}

const host = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};
const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;

const parsed = workspaces().map(parse);
const byWorkspace = new Map(parsed.map((config) => [config.workspace, config]));
const grouped = new Set(GROUPS.flatMap((group) => group.members));
const unknown = [...grouped].filter((workspace) => !byWorkspace.has(workspace));
if (unknown.length > 0)
  throw new Error(`typecheck: not a workspace with a tsconfig.json: ${unknown.join(', ')}`);

/** Exit code of a child whose group may not be one program (see groupProblem). */
const NOT_ONE_PROGRAM = 3;

/** Checks `workspaces` as one program (in this process); returns the exit code. */
function check(workspaces) {
  const started = performance.now();
  const group = GROUPS.find((candidate) => candidate.members.join() === workspaces.join()) ?? {
    name: workspaces.join(', '),
    declarationsFrom: [],
  };
  const members = workspaces.map((workspace) => byWorkspace.get(workspace));
  const jsxMember = members.find((member) => member.options.jsx !== undefined) ?? members[0];
  const program = ts.createProgram({
    rootNames: [...new Set(members.flatMap((member) => member.fileNames))],
    options: jsxMember.options,
  });
  if (members.length > 1) {
    const jsxWorkspaces = parsed
      .filter((config) => config.options.jsx !== undefined)
      .map((config) => path.join(ROOT, config.workspace));
    const problem = groupProblem(group, members, program, jsxWorkspaces);
    if (problem !== undefined) {
      console.warn(
        `typecheck: WARNING the group "${group.name}" cannot be one program (${problem}): ` +
          'its workspaces are checked one by one, slower; update GROUPS in scripts/typecheck.mjs',
      );
      return NOT_ONE_PROGRAM;
    }
  }
  const diagnostics = [...members.flatMap((member) => member.errors), ...ts.getPreEmitDiagnostics(program)];
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const names = workspaces.join(', ');
  if (diagnostics.length === 0) {
    console.log(`typecheck: ${names}: ok (${program.getSourceFiles().length} files, ${seconds} s)`);
    return 0;
  }
  process.stdout.write(format(diagnostics, host));
  console.log(`typecheck: ${names}: ${diagnostics.length} error(s) (${seconds} s)`);
  return 1;
}

if (process.argv[2] === '--one-program') {
  process.exitCode = check(process.argv.slice(3));
} else {
  // One child process per program: memory stays that of the largest program (about 1 GB), not the sum.
  const runs = [
    ...GROUPS.map((group) => group.members),
    ...parsed.filter((config) => !grouped.has(config.workspace)).map((config) => [config.workspace]),
  ];
  let failed = false;
  while (runs.length > 0) {
    const workspaces = runs.shift();
    const { status, signal } = spawnSync(
      process.execPath,
      [import.meta.filename, '--one-program', ...workspaces],
      { stdio: 'inherit' },
    );
    if (status === NOT_ONE_PROGRAM && workspaces.length > 1) runs.unshift(...workspaces.map((one) => [one]));
    else if (status !== 0) {
      failed = true;
      if (signal !== null) console.log(`typecheck: ${workspaces.join(', ')}: killed by ${signal}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}
