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
