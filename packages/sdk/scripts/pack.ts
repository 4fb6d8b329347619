/**
 * `npm run pack -w @ecf/sdk`: the package as it is published. tsc compiles src/ (ES2022, the DOM's
 * types and no Node's: the core cannot use a Node-only API) into build/package/dist with its
 * declarations; build/package/package.json is this one with `exports` pointing at dist (the
 * workspace's own points at the sources, which the repository runs directly); README.md and
 * CHANGELOG.md go with it; `npm pack` writes the tarball. Prints the tarball's path.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PACKAGE = path.resolve(import.meta.dirname, '..');
const STAGING = path.join(PACKAGE, 'build', 'package');

/** Builds and packs into `destination`; returns the tarball's path. */
export function packSdk(destination: string): string {
  rmSync(STAGING, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(PACKAGE, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  delete manifest['scripts'];
  delete manifest['devDependencies'];
  const published = {
    ...manifest,
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    files: ['dist', 'README.md', 'CHANGELOG.md'],
    sideEffects: false,
  };
  writeFileSync(path.join(STAGING, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
  for (const file of ['README.md', 'CHANGELOG.md'])
    copyFileSync(path.join(PACKAGE, file), path.join(STAGING, file));
  mkdirSync(destination, { recursive: true });
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: STAGING,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack printed no tarball: ${output}`);
  return path.join(destination, packed.filename);
}

if (import.meta.main) console.log(packSdk(path.join(PACKAGE, 'build')));
