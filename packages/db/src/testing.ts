// Test support: every test file gets a database of its own, migrated from empty.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createDatabaseClient, type TDatabase } from './client.ts';
import { migrate } from './migrate.ts';

/** Base URL of the test server; the database name in it is replaced per test database. */
export function testServerUrl(): string {
  return (
    process.env.TEST_DATABASE_URL ||
    process.env.DATABASE_URL ||
    'postgresql://postgres@127.0.0.1:5432/postgres'
  );
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

let serverEnsured: Promise<unknown> | undefined;

/**
 * When nothing answers at the test server's address, the embedded PostgreSQL is started there (the
 * CLI behind scripts/ensure-postgres.sh, once per process; concurrent test processes serialise on its
 * lock), so `npm test` needs no PostgreSQL installed on the machine. A server that answers always wins.
 */
function ensureTestServer(): Promise<unknown> {
  serverEnsured ??= promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'cli', 'embedded-postgres.ts'), 'ensure'],
    { cwd: path.join(import.meta.dirname, '..'), env: { ...process.env, DATABASE_URL: testServerUrl() } },
  ).catch((error: unknown) => {
    const { stderr } = error as { stderr?: string };
    throw new Error(
      `no PostgreSQL answers at the test server and none could be started: ${stderr ?? String(error)}`,
    );
  });
  return serverEnsured;
}

/** Nothing answers yet, or a server another process just started is still starting (57P03): `ensureTestServer` waits for it. */
function isServerNotReady(error: unknown): boolean {
  const { code, errors } = error as { code?: unknown; errors?: unknown[] };
  return (
    code === 'ECONNREFUSED' || code === '57P03' || (Array.isArray(errors) && errors.some(isServerNotReady))
  );
}

async function onAdminConnection<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const connect = async () => {
    const client = new pg.Client({ connectionString: withDatabase(testServerUrl(), 'postgres') });
    await client.connect();
    return client;
  };
  const client = await connect().catch(async (error: unknown) => {
    if (!isServerNotReady(error)) throw error;
    await ensureTestServer();
    return connect();
  });
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export type TTestDatabase = {
  name: string;
  url: string;
  /** Drops the database (terminating leftover connections). */
  drop: () => Promise<void>;
};

/** Creates an empty database with a unique name; `migrated: true` (default) applies all migrations. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TTestDatabase> {
  const name = `ecf_test_${randomBytes(6).toString('hex')}`;
  await onAdminConnection((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(testServerUrl(), name);
  if (options.migrated ?? true) await migrate({ databaseUrl: url });
  return {
    name,
    url,
    drop: () =>
      onAdminConnection(async (client) => {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
  };
}

/** A migrated test database with a Prisma client on it; `close` disconnects and drops it. */
export async function openTestDatabase(): Promise<
  TTestDatabase & { database: TDatabase; close: () => Promise<void> }
> {
  const testDatabase = await createTestDatabase();
  const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 5 });
  return {
    ...testDatabase,
    database,
    close: async () => {
      await database.$disconnect();
      await testDatabase.drop();
    },
  };
}

/**
 * Starts a process's entry point (`node --import tsx entry`) with `env` added, expecting it to
 * refuse to start over its connection budget: resolves with its exit code and stderr once it exits.
 */
export async function exitOfStart(
  entry: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: options.cwd,
    env: { ...process.env, LOG_LEVEL: 'silent', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}
