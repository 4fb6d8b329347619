import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, mkdir, writeFile, appendFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TTestDatabase } from './testing.ts';
import {
  getMigrationStatus,
  migrate,
  MIGRATIONS_DIRECTORY,
  MigrationHistoryError,
  readMigrationFiles,
} from './migrate.ts';

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function emptyDatabase(): Promise<TTestDatabase> {
  const database = await createTestDatabase({ migrated: false });
  cleanups.push(database.drop);
  return database;
}

async function copyOfMigrations(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'ecf-migrations-'));
  await cp(MIGRATIONS_DIRECTORY, directory, { recursive: true });
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

test('applies every migration from empty, records checksums, and is a no-op the second time', async () => {
  const database = await emptyDatabase();
  const files = await readMigrationFiles();
  const first = await migrate({ databaseUrl: database.url });
  assert.deepEqual(
    first.applied,
    files.map((file) => file.id),
  );
  const second = await migrate({ databaseUrl: database.url });
  assert.deepEqual(second.applied, []);
  const ledger = await query<{ id: string; checksum: string }>(
    database.url,
    'SELECT id, checksum FROM _ecf_migrations ORDER BY id',
  );
  assert.deepEqual(
    ledger.map((row) => [row.id, row.checksum]),
    files.map((file) => [file.id, file.checksum]),
  );
  const tables = await query<{ tablename: string }>(
    database.url,
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
  );
  for (const table of [
    'tenants',
    'api_keys',
    'documents',
    'document_events',
    'artifacts',
    'idempotency_records',
  ]) {
    assert.ok(
      tables.some((row) => row.tablename === table),
      `table ${table} exists`,
    );
  }
});

test('reports pending migrations before applying and none after', async () => {
  const database = await emptyDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const before = await getMigrationStatus(client);
    assert.ok(before.pending.length > 0);
    assert.deepEqual(before.applied, []);
    await migrate({ databaseUrl: database.url });
    const afterwards = await getMigrationStatus(client);
    assert.deepEqual(afterwards.pending, []);
    assert.deepEqual(afterwards.modified, []);
  } finally {
    await client.end();
  }
});

test('refuses to run when an applied migration was edited, and applies nothing', async () => {
  const database = await emptyDatabase();
  const directory = await copyOfMigrations();
  await migrate({ databaseUrl: database.url, directory });
  const [first] = await readMigrationFiles(directory);
  assert.ok(first);
  await appendFile(path.join(directory, first.id, 'migration.sql'), '\n-- edited later\n');
  await mkdir(path.join(directory, '9999_new_table'));
  await writeFile(
    path.join(directory, '9999_new_table', 'migration.sql'),
    'CREATE TABLE should_not_exist (id int);',
  );
  await assert.rejects(migrate({ databaseUrl: database.url, directory }), (error: unknown) => {
    assert.ok(error instanceof MigrationHistoryError);
    assert.match(error.message, new RegExp(first.id));
    return true;
  });
  const created = await query(database.url, "SELECT 1 FROM pg_tables WHERE tablename = 'should_not_exist'");
  assert.equal(created.length, 0);
});

test('refuses to run when an applied migration disappeared', async () => {
  const database = await emptyDatabase();
  const directory = await copyOfMigrations();
  await mkdir(path.join(directory, '9999_extra'));
  await writeFile(path.join(directory, '9999_extra', 'migration.sql'), 'CREATE TABLE extra (id int);');
  await migrate({ databaseUrl: database.url, directory });
  await rm(path.join(directory, '9999_extra'), { recursive: true });
  await assert.rejects(migrate({ databaseUrl: database.url, directory }), /missing from disk: 9999_extra/);
});

test('a failing migration is rolled back whole and not recorded', async () => {
  const database = await emptyDatabase();
  const directory = await copyOfMigrations();
  await mkdir(path.join(directory, '9999_broken'));
  await writeFile(
    path.join(directory, '9999_broken', 'migration.sql'),
    'CREATE TABLE half_done (id int);\nSELECT * FROM table_that_does_not_exist;',
  );
  await assert.rejects(
    migrate({ databaseUrl: database.url, directory }),
    /9999_broken failed and was rolled back/,
  );
  const halfDone = await query(database.url, "SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
  assert.equal(halfDone.length, 0);
  const recorded = await query(database.url, "SELECT 1 FROM _ecf_migrations WHERE id = '9999_broken'");
  assert.equal(recorded.length, 0);
});

test('two migrators started together apply each migration once', async () => {
  const database = await emptyDatabase();
  const [one, two] = await Promise.all([
    migrate({ databaseUrl: database.url }),
    migrate({ databaseUrl: database.url }),
  ]);
  const files = await readMigrationFiles();
  assert.equal(one.applied.length + two.applied.length, files.length);
});

/** A folder of migrations written without a schema name, as a schema's own migrations are. */
async function schemaMigrations(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), 'ecf-schema-migrations-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  await mkdir(path.join(directory, '0001_init'));
  await writeFile(
    path.join(directory, '0001_init', 'migration.sql'),
    "CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL);\nINSERT INTO items VALUES (1, 'first');\n",
  );
  await mkdir(path.join(directory, '0002_more'));
  await writeFile(
    path.join(directory, '0002_more', 'migration.sql'),
    'ALTER TABLE items ADD COLUMN note text;\n',
  );
  return directory;
}

test('with a schema: unqualified migrations land in it, its ledger is its own, a second run is a no-op', async () => {
  const database = await emptyDatabase();
  const directory = await schemaMigrations();
  const first = await migrate({ databaseUrl: database.url, directory, schema: 'sim_a' });
  assert.deepEqual(first.applied, ['0001_init', '0002_more']);
  assert.deepEqual((await migrate({ databaseUrl: database.url, directory, schema: 'sim_a' })).applied, []);
  const rows = await query<{ id: number; name: string; note: string | null }>(
    database.url,
    'SELECT * FROM sim_a.items',
  );
  assert.deepEqual(rows, [{ id: 1, name: 'first', note: null }]);
  const ledger = await query<{ id: string }>(
    database.url,
    'SELECT id FROM sim_a._ecf_migrations ORDER BY id',
  );
  assert.deepEqual(
    ledger.map((row) => row.id),
    ['0001_init', '0002_more'],
  );
  // Nothing in the public schema: no table, no ledger.
  const stray = await query<{ present: boolean }>(
    database.url,
    `SELECT to_regclass('public.items') IS NOT NULL OR to_regclass('public._ecf_migrations') IS NOT NULL AS present`,
  );
  assert.deepEqual(stray, [{ present: false }]);
});

test('with a schema: two schemas in one database are independent, and an edited applied migration is refused', async () => {
  const database = await emptyDatabase();
  const directory = await schemaMigrations();
  // Started together: each schema's own lock, each gets its tables.
  await Promise.all([
    migrate({ databaseUrl: database.url, directory, schema: 'sim_a' }),
    migrate({ databaseUrl: database.url, directory, schema: 'sim_b' }),
    migrate({ databaseUrl: database.url, directory, schema: 'sim_b' }),
  ]);
  for (const schema of ['sim_a', 'sim_b']) {
    const count = await query<{ count: number }>(
      database.url,
      `SELECT count(*)::int AS count FROM ${schema}.items`,
    );
    assert.deepEqual(count, [{ count: 1 }], schema);
  }
  // The application's own migrations beside them are unaffected.
  assert.ok((await migrate({ databaseUrl: database.url })).applied.length > 0);
  await appendFile(path.join(directory, '0001_init', 'migration.sql'), '-- edited\n');
  await assert.rejects(
    migrate({ databaseUrl: database.url, directory, schema: 'sim_a' }),
    (error: Error) => error instanceof MigrationHistoryError && /0001_init/.test(error.message),
  );
  await assert.rejects(
    migrate({ databaseUrl: database.url, directory, schema: 'bad"name' }),
    /invalid schema name/,
  );
});
