// `npm run db:migration:create -- <name>`: writes the SQL that takes the database from the schema
// of the last migration (migrations/schema.snapshot.prisma) to prisma/schema.prisma, as a new
// numbered migration folder. Hand-written SQL (triggers, data moves) may be appended to the new
// file before it is first applied; after that the file is frozen by its checksum.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDatabase, MIGRATIONS_DIRECTORY } from '../migrate.ts';
import { readDatabaseUrl } from './database-url.ts';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration:create -- <name_in_snake_case>');
  process.exit(1);
}
const packageRoot = path.join(import.meta.dirname, '..', '..');
const schema = path.join(packageRoot, 'prisma', 'schema.prisma');
const snapshot = path.join(MIGRATIONS_DIRECTORY, 'schema.snapshot.prisma');

// The js schema engine connects even for file-to-file diffs, so the database must exist.
await ensureDatabase(readDatabaseUrl());
const from = existsSync(snapshot) ? ['--from-schema-datamodel', snapshot] : ['--from-empty'];
const sql = execFileSync(
  'npx',
  ['prisma', 'migrate', 'diff', ...from, '--to-schema-datamodel', schema, '--script'],
  {
    cwd: packageRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CHECKPOINT_DISABLE: '1' },
  },
);
if (!/^\s*(CREATE|ALTER|DROP|COMMENT)/m.test(sql)) {
  console.log('db: schema.prisma matches the last migration; nothing to create');
  process.exit(0);
}
const existing = readdirSync(MIGRATIONS_DIRECTORY, { withFileTypes: true }).filter((entry) =>
  entry.isDirectory(),
);
const id = `${String(existing.length + 1).padStart(4, '0')}_${name}`;
mkdirSync(path.join(MIGRATIONS_DIRECTORY, id));
writeFileSync(path.join(MIGRATIONS_DIRECTORY, id, 'migration.sql'), sql);
copyFileSync(schema, snapshot);
console.log(`db: created migrations/${id}/migration.sql`);
