// Compiles workspaces to JavaScript for production processes: each workspace's `src/` becomes
// `dist/` file for file (the same layout, so paths relative to a module, such as `../migrations`,
// stay true), with source maps. Files are transpiled one by one (TypeScript's `transpileModule`:
// types are erased, `./x.ts` imports become `./x.js`, enums compiled); types are checked by
// `npm run typecheck`, not here. Tests (`*.test.ts`) are left out; other files under `src/` (JSON)
// are copied. A workspace's package.json sends the `ecf-compiled` condition to `dist/`, so
// `node --conditions=ecf-compiled --enable-source-maps apps/api/dist/main.js` runs compiled code
// only (its default condition stays `src/`, for the tests, the portal's bundler and the editor).
//
//   node scripts/compile.mjs                    the workspace in the current directory
//   node scripts/compile.mjs --with-deps        and every workspace it depends on (@ecf/*)
//   node scripts/compile.mjs --with-deps apps/api apps/worker
//
// A workspace whose dist/ is newer than every file of its src/ is left as it is.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const REPOSITORY = path.resolve(import.meta.dirname, '..');

const COMPILER_OPTIONS = {
  target: ts.ScriptTarget.ES2024,
  module: ts.ModuleKind.ESNext,
  jsx: ts.JsxEmit.ReactJSX,
  verbatimModuleSyntax: true,
  rewriteRelativeImportExtensions: true,
  sourceMap: true,
  inlineSources: false,
};

/** The workspace directories by package name. */
function workspaces() {
  const byName = new Map();
  for (const group of ['apps', 'packages']) {
    for (const entry of readdirSync(path.join(REPOSITORY, group))) {
      const file = path.join(REPOSITORY, group, entry, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      byName.set(manifest.name, { directory: path.dirname(file), manifest });
    }
  }
  return byName;
}

/** The workspace and every @ecf/* workspace it depends on, dependencies first. */
function withDependencies(directory, byName) {
  const ordered = [];
  const seen = new Set();
  const visit = (dir) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      const dependency = byName.get(name);
      if (dependency !== undefined) visit(dependency.directory);
    }
    ordered.push(dir);
  };
  visit(directory);
  return ordered;
}

/** The files under a directory; `directories` collects the directories walked (a deleted file changes its directory's time). */
function filesUnder(directory, directories = []) {
  directories.push(directory);
  const files = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full, directories));
    else files.push(full);
  }
  return files;
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

/** Compiles one workspace's src/ to dist/; returns the number of files written, or 0 when current. */
export function compileWorkspace(directory) {
  const source = path.join(directory, 'src');
  const output = path.join(directory, 'dist');
  if (!existsSync(source)) return 0;
  const directories = [];
  const files = filesUnder(source, directories).filter((file) => !isTest(file));
  const stamp = path.join(output, '.compiled');
  if (existsSync(stamp)) {
    const compiledAt = statSync(stamp).mtimeMs;
    const newest = Math.max(...[...files, ...directories].map((file) => statSync(file).mtimeMs));
    if (newest < compiledAt) return 0;
  }
  rmSync(output, { recursive: true, force: true });
  let written = 0;
  for (const file of files) {
    const relative = path.relative(source, file);
    const target = path.join(output, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    if (!/\.(ts|tsx|mts)$/.test(file) || file.endsWith('.d.ts')) {
      cpSync(file, target);
      continue;
    }
    const jsTarget = target.replace(/\.(ts|tsx|mts)$/, '.js');
    const result = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: COMPILER_OPTIONS,
      fileName: file,
      reportDiagnostics: true,
    });
    const errors = (result.diagnostics ?? []).filter(
      (diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error,
    );
    if (errors.length > 0)
      throw new Error(
        `${path.relative(REPOSITORY, file)}: ${errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ')}`,
      );
    const mapName = `${path.basename(jsTarget)}.map`;
    const map = JSON.parse(result.sourceMapText ?? '{}');
    map.file = path.basename(jsTarget);
    map.sources = [path.relative(path.dirname(jsTarget), file)];
    writeFileSync(
      jsTarget,
      `${result.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '')}\n//# sourceMappingURL=${mapName}\n`,
    );
    writeFileSync(`${jsTarget}.map`, JSON.stringify(map));
    written += 1;
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return written;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const withDeps = args.includes('--with-deps');
  const targets = args.filter((arg) => !arg.startsWith('--')).map((arg) => path.resolve(arg));
  if (targets.length === 0) targets.push(process.cwd());
  const byName = workspaces();
  const directories = [];
  for (const target of targets)
    for (const directory of withDeps ? withDependencies(target, byName) : [target])
      if (!directories.includes(directory)) directories.push(directory);
  const started = performance.now();
  let total = 0;
  for (const directory of directories) {
    const written = compileWorkspace(directory);
    total += written;
    if (written > 0)
      console.log(`compile: ${path.relative(REPOSITORY, directory)} → dist/ (${written} modules)`);
  }
  console.log(
    `compile: ${directories.length} workspaces, ${total} modules written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
