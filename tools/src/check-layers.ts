/**
 * Checks every import of the repository against the layering rule (`layers.ts`) and prints what
 * breaks it; exits 1 when something does. Run from the root: `npm run check-layers -w @ecf/tools`
 * (its test runs it on the repository as part of `npm test`).
 *
 * Checked, for every TypeScript file of every workspace:
 * - an internal import (`@ecf/...`) names a workspace its layer allows (test code may also use the
 *   test peers and any package), and the importing workspace declares it in its package.json;
 * - a subpath import (`@ecf/db/testing`) is one the imported package exports;
 * - a relative import stays inside its workspace;
 * - production code imports no test code (`test/`, `testing/`, `*.test.ts`, a `testing` export);
 * - no workspace declares a dependency its layer does not allow.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVERYONE_MAY_IMPORT, isTestFile, LAYERS, TEST_PEERS } from './layers.ts';

export type TWorkspace = {
  name: string;
  directory: string;
  dependencies: string[];
  devDependencies: string[];
  exports: string[];
};

export type TViolation = { file: string; message: string };

const IMPORT_PATTERNS = [
  /\bfrom\s+['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /\bexport\s+(?:\*|\{[^}]*\})\s+from\s+['"]([^'"]+)['"]/g,
];
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'generated', '.next', '.turbo', 'dist']);

/** The workspaces of the repository at `root`, from its package.json `workspaces`. */
export function readWorkspaces(root: string): TWorkspace[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  const directories = manifest.workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [path.join(root, pattern)];
    const parent = path.join(root, pattern.slice(0, -2));
    return existsSync(parent)
      ? readdirSync(parent, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => path.join(parent, entry.name))
      : [];
  });
  return directories
    .filter((directory) => existsSync(path.join(directory, 'package.json')))
    .map((directory) => {
      const pkg = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
        name: string;
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
        exports?: Record<string, string>;
      };
      return {
        name: pkg.name,
        directory,
        dependencies: Object.keys(pkg.dependencies ?? {}),
        devDependencies: Object.keys(pkg.devDependencies ?? {}),
        exports: Object.keys(pkg.exports ?? {}),
      };
    });
}

function sourceFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

function importsOf(text: string): string[] {
  const specifiers = new Set<string>();
  for (const pattern of IMPORT_PATTERNS)
    for (const match of text.matchAll(pattern)) if (match[1]) specifiers.add(match[1]);
  return [...specifiers];
}

/** `@ecf/db/testing` → `['@ecf/db', './testing']`. */
function splitInternal(specifier: string): [string, string] {
  const [scope, name, ...rest] = specifier.split('/');
  return [`${scope}/${name}`, rest.length === 0 ? '.' : `./${rest.join('/')}`];
}

/** Every import of the repository at `root` that breaks the layering rule. */
export function findViolations(
  root: string,
  rule: {
    layers: Readonly<Record<string, readonly string[]>>;
    testPeers: readonly string[];
    everyone?: readonly string[];
  } = {
    layers: LAYERS,
    testPeers: TEST_PEERS,
    everyone: EVERYONE_MAY_IMPORT,
  },
): TViolation[] {
  const { layers, testPeers } = rule;
  const everyone = rule.everyone ?? [];
  const workspaces = readWorkspaces(root);
  const byName = new Map(workspaces.map((workspace) => [workspace.name, workspace]));
  const scopes = new Set(workspaces.map((workspace) => `${workspace.name.split('/')[0] ?? ''}/`));
  const violations: TViolation[] = [];
  for (const workspace of workspaces) {
    const allowed = layers[workspace.name];
    const relativeName = (file: string) => path.relative(root, file);
    if (allowed === undefined) {
      violations.push({
        file: relativeName(workspace.directory),
        message: `${workspace.name} has no entry in the layering rule (tools/src/layers.ts)`,
      });
      continue;
    }
    const anything = allowed.includes('*');
    for (const dependency of workspace.dependencies.filter((name) => byName.has(name))) {
      if (!anything && !allowed.includes(dependency) && !everyone.includes(dependency))
        violations.push({
          file: relativeName(path.join(workspace.directory, 'package.json')),
          message: `${workspace.name} may not depend on ${dependency}`,
        });
    }
    for (const file of sourceFiles(workspace.directory)) {
      const inWorkspace = path.relative(workspace.directory, file).split(path.sep).join('/');
      const testCode = anything || isTestFile(inWorkspace);
      const report = (message: string) => violations.push({ file: relativeName(file), message });
      for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) {
          const target = path.resolve(path.dirname(file), specifier);
          const targetInWorkspace = path.relative(workspace.directory, target);
          if (targetInWorkspace.startsWith('..'))
            report(`relative import ${specifier} leaves ${workspace.name}: import the workspace by name`);
          else if (!testCode && isTestFile(targetInWorkspace.split(path.sep).join('/')))
            report(`production code imports test code ${specifier}`);
          continue;
        }
        if (![...scopes].some((scope) => specifier.startsWith(scope))) continue;
        const [name, subpath] = splitInternal(specifier);
        const target = byName.get(name);
        if (target === undefined) {
          report(`imports ${specifier}, which is no workspace`);
          continue;
        }
        if (name === workspace.name) {
          report(`imports itself by name (${specifier}): use a relative import`);
          continue;
        }
        if (!target.exports.includes(subpath))
          report(`imports ${specifier}, which ${name} does not export (package.json "exports")`);
        if (!testCode && subpath === './testing') report(`production code imports test support ${specifier}`);
        const layerAllows =
          anything ||
          allowed.includes(name) ||
          everyone.includes(name) ||
          (testCode && (testPeers.includes(name) || !isApp(target, root)));
        if (!layerAllows)
          report(`${workspace.name} may not import ${name}${testCode ? ' (not even in tests)' : ''}`);
        const declared =
          workspace.dependencies.includes(name) || (testCode && workspace.devDependencies.includes(name));
        if (!declared)
          report(
            `imports ${name} without declaring it in ${testCode ? 'dependencies or devDependencies' : 'dependencies'}`,
          );
      }
    }
  }
  return violations;
}

function isApp(workspace: TWorkspace, root: string): boolean {
  return path.relative(root, workspace.directory).split(path.sep)[0] === 'apps';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const violations = findViolations(root);
  for (const violation of violations) console.error(`${violation.file}: ${violation.message}`);
  if (violations.length > 0) {
    console.error(`check-layers: ${violations.length} import(s) break the layering rule (ARCHITECTURE.md)`);
    process.exit(1);
  }
  console.log('check-layers: every import follows the layering rule');
}
