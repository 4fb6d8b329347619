import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The schema's datasource reads DATABASE_URL; commands that never connect (generate, diff)
// must still be able to parse it, so a local default stands in when it is unset.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/ecf';
const databaseUrl = process.env.DATABASE_URL;

// engine "js": no Prisma engine binaries are downloaded; the schema engine talks to
// PostgreSQL through the same driver adapter as the runtime client.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  // A short idle timeout lets the CLI exit as soon as it is done instead of waiting on the pool.
  adapter: async () => new PrismaPg({ connectionString: databaseUrl, idleTimeoutMillis: 50 }),
});
