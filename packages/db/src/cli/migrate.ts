// `npm run db:migrate`: creates the database if absent, then applies pending migrations.
import { ensureDatabase, migrate, MigrationHistoryError } from '../migrate.ts';
import { readDatabaseUrl } from './database-url.ts';

const databaseUrl = readDatabaseUrl();
try {
  const { created } = await ensureDatabase(databaseUrl);
  if (created) console.log('db: created database');
  const { applied } = await migrate({ databaseUrl, log: (message) => console.log(`db: ${message}`) });
  console.log(applied.length === 0 ? 'db: up to date' : `db: ${applied.length} migration(s) applied`);
} catch (error) {
  console.error(`db: ${error instanceof MigrationHistoryError ? error.message : String(error)}`);
  process.exitCode = 1;
}
