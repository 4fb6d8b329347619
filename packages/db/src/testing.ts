// Test support: every test file gets a database of its own, with every migration applied. The
// migrations run once per set of migration files, into a template database named by their digest;
// each test database is a copy of it (CREATE DATABASE … TEMPLATE: tens of milliseconds instead of
// the hundreds that twenty migrations take, hundreds of times per `npm test`).
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createDatabaseClient, type TDatabase } from './client.ts';
import { migrate, readMigrationFiles } from './migrate.ts';

/**
 * How a TypeScript entry point of ours runs as a process: Node's own TypeScript support (types
 * erased, enums and the generated Prisma client's namespaces transformed), the flags the package
 * scripts spell too. tsx is kept for the portal (JSX, Next.js) and the dev watchers.
 */
export const NODE_TYPESCRIPT_FLAGS = [
  '--experimental-transform-types',
  '--disable-warning=ExperimentalWarning',
];

/**
 * How a production process runs: the JavaScript `npm run build` wrote to each workspace's `dist/`
 * (scripts/compile.mjs), every @ecf/* import resolved to `dist/` by the `ecf-compiled` condition,
 * stack traces through the source maps to the TypeScript lines. `--no-experimental-strip-types`
 * makes loading any `.ts` file an error: such a process runs compiled code only.
 */
export const NODE_COMPILED_FLAGS = [
  '--conditions=ecf-compiled',
  '--enable-source-maps',
  '--no-experimental-strip-types',
];

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
    [...NODE_TYPESCRIPT_FLAGS, path.join(import.meta.dirname, 'cli', 'embedded-postgres.ts'), 'ensure'],
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

const TEMPLATE_PREFIX = 'ecf_template_';
/** Arbitrary constant: one process at a time makes (or drops) templates on the test server. */
const TEMPLATE_LOCK_KEY = 7_314_159_266;
let templateName: Promise<string> | undefined;

/**
 * The name of the migrated template of the current migration files, made when the server has none
 * (under an advisory lock, so concurrent test processes make it once). Templates of other migration
 * files are dropped then: a changed or new migration gets a fresh template, never a stale one.
 */
function migratedTemplate(): Promise<string> {
  templateName ??= (async () => {
    const files = await readMigrationFiles();
    const digest = createHash('sha256')
      .update(files.map((file) => `${file.id}:${file.checksum}`).join('\n'))
      .digest('hex')
      .slice(0, 16);
    const name = `${TEMPLATE_PREFIX}${digest}`;
    await onAdminConnection(async (client) => {
      await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
      try {
        const existing = await client.query<{ datname: string }>(
          `SELECT datname FROM pg_database WHERE datname LIKE '${TEMPLATE_PREFIX}%'`,
        );
        for (const { datname } of existing.rows) {
          if (datname !== name) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
        }
        if (existing.rows.some((row) => row.datname === name)) return;
        // Made under another name and renamed once migrated: a template that exists is complete.
        const building = `${name}_${randomBytes(4).toString('hex')}`;
        await client.query(`CREATE DATABASE "${building}"`);
        try {
          await migrate({ databaseUrl: withDatabase(testServerUrl(), building) });
          await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
        } catch (error) {
          await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
          throw error;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
      }
    });
    return name;
  })();
  templateName.catch(() => (templateName = undefined));
  return templateName;
}

/** Creates a database with a unique name: migrated (a copy of the template, default) or empty. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TTestDatabase> {
  const name = `ecf_test_${randomBytes(6).toString('hex')}`;
  const template = (options.migrated ?? true) ? await migratedTemplate() : null;
  await onAdminConnection((client) =>
    client.query(
      template === null ? `CREATE DATABASE "${name}"` : `CREATE DATABASE "${name}" TEMPLATE "${template}"`,
    ),
  );
  const url = withDatabase(testServerUrl(), name);
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
 * Starts a process's entry point (`node <NODE_TYPESCRIPT_FLAGS> entry`) with `env` added, expecting it to
 * refuse to start over its connection budget: resolves with its exit code and stderr once it exits.
 */
export async function exitOfStart(
  entry: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, entry], {
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

/** A TCP port free on 127.0.0.1 now (the OS picks it), for a process a test or bench starts. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
