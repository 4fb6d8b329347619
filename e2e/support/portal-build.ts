/**
 * The portal's production build for the e2e run, made once and reused while its sources do not
 * change. The server packages (@ecf/services, @ecf/db...) are not in the build (they are loaded from
 * source at run time, apps/web/next.config.ts), so the build depends on apps/web, packages/ui,
 * packages/contract and
 * the installed packages only: their files' digest is kept beside the build (`.next/e2e-stamp`),
 * and a build whose stamp matches is used as it is.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const REPOSITORY = path.join(import.meta.dirname, '..', '..');
export const WEB_DIRECTORY = path.join(REPOSITORY, 'apps', 'web');
const STAMP = path.join(WEB_DIRECTORY, '.next', 'e2e-stamp');
const SKIPPED = new Set(['node_modules', '.next', '.turbo', 'test']);

function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(full));
    else if (!/\.test\.tsx?$/.test(entry.name)) found.push(full);
  }
  return found;
}

/** Digest of everything the build reads. */
export function portalSourceDigest(): string {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder(WEB_DIRECTORY),
    ...filesUnder(path.join(REPOSITORY, 'packages', 'ui', 'src')),
    ...filesUnder(path.join(REPOSITORY, 'packages', 'contract', 'src')),
    path.join(REPOSITORY, 'package-lock.json'),
  ].sort();
  for (const file of files) {
    hash.update(path.relative(REPOSITORY, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

/** Builds the portal unless the current build is of these sources; returns how long it took. */
export async function ensurePortalBuild(): Promise<{ built: boolean; milliseconds: number }> {
  const started = Date.now();
  const digest = portalSourceDigest();
  const current =
    existsSync(path.join(WEB_DIRECTORY, '.next', 'BUILD_ID')) && existsSync(STAMP)
      ? readFileSync(STAMP, 'utf8').trim()
      : null;
  if (current === digest) return { built: false, milliseconds: Date.now() - started };
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'build'], {
      cwd: WEB_DIRECTORY,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`next build failed (exit ${String(code)}):\n${output}`)),
    );
  });
  writeFileSync(STAMP, `${digest}\n`);
  return { built: true, milliseconds: Date.now() - started };
}

/** Every file of the build the browser may download. */
export function clientBundleFiles(): string[] {
  const root = path.join(WEB_DIRECTORY, '.next', 'static');
  return filesUnder(root).filter((file) => statSync(file).isFile());
}
