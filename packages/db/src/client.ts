import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type TDatabase = PrismaClient;

/**
 * Creates a Prisma client over node-postgres (no Prisma engine binaries: the query compiler
 * runs in-process and queries go through the pg driver adapter).
 */
export function createDatabaseClient(options: { databaseUrl: string; maxConnections?: number }): TDatabase {
  const adapter = new PrismaPg({ connectionString: options.databaseUrl, max: options.maxConnections ?? 10 });
  return new PrismaClient({ adapter });
}
