import { z } from 'zod';

/** The database URL for the db command-line tools, with the documented local default. */
export function readDatabaseUrl(): string {
  const parsed = z
    .string()
    .url()
    .default('postgresql://postgres@127.0.0.1:5432/ecf')
    .safeParse(process.env.DATABASE_URL || undefined);
  if (!parsed.success) {
    console.error('db: DATABASE_URL is not a valid URL');
    process.exit(1);
  }
  return parsed.data;
}
