// The embedded PostgreSQL on a machine state without a server: each test points DATABASE_URL at a
// port where nothing runs (taken free from the system) and the embedded data at a temporary
// directory, so it runs beside any other suite and never touches .data/ or the Debian cluster.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureDatabase, migrate, readMigrationFiles } from '../migrate.ts';
import { freePort } from '../testing.ts';

const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
let directory: string;
let port: number;
let databaseUrl: string;
const scratch: string[] = [];

type TRun = { code: number; stdout: string; stderr: string; milliseconds: number };

function runFile(file: string, args: string[], env: Record<string, string>): Promise<TRun> {
  const began = performance.now();
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: { ...process.env, ...env }, cwd: REPOSITORY_ROOT },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr, milliseconds: Math.round(performance.now() - began) });
      },
    );
  });
}

/** One of the repository's scripts, as an operator runs it. */
function script(name: string, args: string[] = [], env: Record<string, string> = {}): Promise<TRun> {
  return runFile('bash', [path.join(REPOSITORY_ROOT, 'scripts', name), ...args], {
    DATABASE_URL: databaseUrl,
    EMBEDDED_POSTGRES_DIRECTORY: directory,
    ...env,
  });
}

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

async function postmasterPid(): Promise<string> {
  return (await readFile(path.join(directory, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0] ?? '';
}

before(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'ecf-embedded-postgres-'));
  scratch.push(directory);
  port = await freePort();
  databaseUrl = `postgresql://postgres@127.0.0.1:${port}/ecf`;
});

after(async () => {
  await script('embedded-postgres.sh', ['stop']);
  for (const folder of scratch) await rm(folder, { recursive: true, force: true });
});

test('nothing answers at DATABASE_URL: ensure-postgres.sh starts an embedded PostgreSQL 18 there, and the migrations apply to it', async (t) => {
  await assert.rejects(query(databaseUrl, 'SELECT 1'), /ECONNREFUSED/, 'nothing runs there before');

  const started = await script('ensure-postgres.sh');
  t.diagnostic(`first start (initdb + start + Node start-up): ${started.milliseconds} ms`);
  t.diagnostic(started.stderr.trim());
  assert.equal(started.code, 0, started.stderr);
  assert.match(started.stderr, /initialised .*data in \d+ ms/);
  assert.match(
    started.stderr,
    new RegExp(`embedded PostgreSQL 18\\.\\d+ started on 127\\.0\\.0\\.1:${port}`),
  );

  const adminUrl = databaseUrl.replace(/\/ecf$/, '/postgres');
  const [version] = await query(adminUrl, "SELECT version(), current_setting('server_encoding') AS encoding");
  assert.match(String(version?.version), /^PostgreSQL 18\.\d+/);
  assert.equal(version?.encoding, 'UTF8');

  assert.deepEqual(await ensureDatabase(databaseUrl), { created: true });
  const { applied } = await migrate({ databaseUrl });
  assert.equal(applied.length, (await readMigrationFiles()).length);
  const [ledger] = await query(databaseUrl, 'SELECT count(*)::int AS count FROM _ecf_migrations');
  assert.equal(ledger?.count, applied.length);

  // Its files are where the documentation says: the cluster (with its pid file) and the log.
  assert.ok(existsSync(path.join(directory, 'data', 'PG_VERSION')));
  assert.match(await postmasterPid(), /^\d+$/);
  assert.match(await readFile(path.join(directory, 'server.log'), 'utf8'), /ready to accept connections/);
});

test('a later run reuses the running server; status names its pid and port', async () => {
  const pid = await postmasterPid();
  const again = await script('ensure-postgres.sh');
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stderr, '', 'nothing started, nothing said');
  assert.equal(await postmasterPid(), pid);

  const status = await script('embedded-postgres.sh', ['status']);
  assert.equal(status.code, 0);
  assert.match(status.stdout, new RegExp(`running: pid ${pid}, port ${port}`));
});

test('stop stops it; the test support and the script then start it again together, on the same data', async () => {
  const stopped = await script('embedded-postgres.sh', ['stop']);
  assert.equal(stopped.code, 0, stopped.stderr);
  assert.match(stopped.stderr, /embedded server stopped/);
  await assert.rejects(query(databaseUrl, 'SELECT 1'), /ECONNREFUSED/);
  const status = await script('embedded-postgres.sh', ['status']);
  assert.equal(status.code, 3);
  assert.match(status.stdout, /^stopped \(data /);

  // What `npm test` does on a machine without a server: the test support finds nothing answering
  // and brings the embedded server up, while a script asks for the same server at the same time.
  const testSupport = runFile(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '--eval',
      `const { createTestDatabase } = await import(${JSON.stringify(path.join(import.meta.dirname, '..', 'testing.ts'))});
       const database = await createTestDatabase();
       console.log(database.name);
       await database.drop();`,
    ],
    {
      TEST_DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      EMBEDDED_POSTGRES_DIRECTORY: directory,
    },
  );
  const [fromTests, fromScript] = await Promise.all([testSupport, script('ensure-postgres.sh')]);
  assert.equal(fromTests.code, 0, fromTests.stderr);
  assert.match(fromTests.stdout, /^ecf_test_[0-9a-f]+$/m);
  assert.equal(fromScript.code, 0, fromScript.stderr);

  // Started once, on the cluster of the first run: the database migrated there is still there.
  const log = await readFile(path.join(directory, 'server.log'), 'utf8');
  assert.equal(log.match(/starting PostgreSQL 18/g)?.length, 2, 'the first start and one restart');
  const [ledger] = await query(databaseUrl, 'SELECT count(*)::int AS count FROM _ecf_migrations');
  assert.equal(ledger?.count, (await readMigrationFiles()).length);
});

test('a server that answers at DATABASE_URL wins: no embedded server is started, whatever the credentials', async () => {
  const untouched = await mkdtemp(path.join(tmpdir(), 'ecf-embedded-postgres-unused-'));
  scratch.push(untouched);
  for (const url of [databaseUrl, `postgresql://nobody:wrong@127.0.0.1:${port}/missing`]) {
    const result = await script('ensure-postgres.sh', [], {
      DATABASE_URL: url,
      EMBEDDED_POSTGRES_DIRECTORY: untouched,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, '');
  }
  assert.deepEqual(await readdir(untouched), []);
});

test('no server is started for an address of another machine', async () => {
  const result = await script('ensure-postgres.sh', [], {
    DATABASE_URL: 'postgresql://postgres@ecf-database.invalid:5432/ecf',
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /the database server at ecf-database\.invalid:5432 cannot be reached: ENOTFOUND/,
  );
  assert.ok(!existsSync(path.join(directory, 'lock')));
});

test(
  'as root, a data directory the user postgres cannot reach is refused, naming the directory in the way',
  {
    skip: process.getuid?.() === 0 ? false : 'the server runs as the user postgres only when started by root',
  },
  async () => {
    const closed = await mkdtemp(path.join(tmpdir(), 'ecf-embedded-postgres-closed-'));
    scratch.push(closed);
    const result = await script('ensure-postgres.sh', [], {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/ecf`,
      EMBEDDED_POSTGRES_DIRECTORY: path.join(closed, 'postgres'),
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`cannot write its data directory .*: it cannot enter ${closed};`));
    assert.ok(!existsSync(path.join(closed, 'postgres', 'data')), 'nothing initialised');
  },
);
