// schema.prisma and the SQL migrations must describe the same database. Two databases are built,
// one by applying the migrations and one from the SQL Prisma derives from schema.prisma alone,
// and their catalogs (tables, columns, types, defaults, nullability, enums, indexes, keys) compared.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TTestDatabase } from './testing.ts';
import { MIGRATIONS_DIRECTORY } from './migrate.ts';

const packageRoot = path.join(import.meta.dirname, '..');
const databases: TTestDatabase[] = [];
after(async () => {
  for (const database of databases) await database.drop();
});

const CATALOG_QUERIES = {
  columns: `SELECT table_name, column_name, data_type, udt_name, character_maximum_length, numeric_precision,
              numeric_scale, datetime_precision, is_nullable, column_default
            FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_ecf_migrations'
            ORDER BY table_name, column_name`,
  enums: `SELECT t.typname, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS labels
          FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname ORDER BY t.typname`,
  // Partial indexes (WHERE ...) and the GiST indexes of exclusion constraints (0013's ranges) are
  // hand-written SQL that Prisma cannot express, so they are left out.
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes
            WHERE schemaname = 'public' AND tablename <> '_ecf_migrations' AND indexdef NOT LIKE '% WHERE %'
              AND indexdef NOT LIKE '% USING gist %'
            ORDER BY tablename, indexname`,
  // CHECK constraints are hand-written SQL that Prisma cannot express, so they are left out.
  constraints: `SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
                FROM pg_constraint WHERE contype IN ('p', 'f', 'u') AND connamespace = 'public'::regnamespace
                  AND conrelid::regclass::text <> '_ecf_migrations'
                ORDER BY 1, 2`,
};

async function catalogOf(url: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const catalog: Record<string, unknown[]> = {};
    for (const [name, sql] of Object.entries(CATALOG_QUERIES)) catalog[name] = (await client.query(sql)).rows;
    return catalog;
  } finally {
    await client.end();
  }
}

test('the migrations build exactly the database schema.prisma describes', async () => {
  const fromMigrations = await createTestDatabase();
  databases.push(fromMigrations);
  const fromSchema = await createTestDatabase({ migrated: false });
  databases.push(fromSchema);

  const sql = execFileSync(
    'npx',
    [
      'prisma',
      'migrate',
      'diff',
      '--from-empty',
      '--to-schema-datamodel',
      'prisma/schema.prisma',
      '--script',
    ],
    {
      cwd: packageRoot,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: fromSchema.url, CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const client = new pg.Client({ connectionString: fromSchema.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }

  const [expected, actual] = await Promise.all([catalogOf(fromSchema.url), catalogOf(fromMigrations.url)]);
  for (const part of Object.keys(CATALOG_QUERIES)) {
    assert.deepEqual(
      actual[part],
      expected[part],
      `${part} differ between the migrations and schema.prisma: run npm run db:migration:create -- <name>`,
    );
  }
});

test('the schema snapshot of the last migration is the current schema.prisma', () => {
  const schema = readFileSync(path.join(packageRoot, 'prisma', 'schema.prisma'), 'utf8');
  const snapshot = readFileSync(path.join(MIGRATIONS_DIRECTORY, 'schema.snapshot.prisma'), 'utf8');
  assert.equal(
    snapshot,
    schema,
    'schema.prisma changed without a migration: run npm run db:migration:create -- <name>',
  );
});
