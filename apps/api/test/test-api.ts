import { Writable } from 'node:stream';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import type { FastifyInstance } from 'fastify';
import { seedApiKey, seedTenant, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { buildApp, type TAppOptions } from '../src/app.ts';
import { readEnv } from '../src/env.ts';

/** The official schemas as the tax authority publishes them (shared fixture of the workspace). */
export const TEST_XSD_DIRECTORY = OFFICIAL_XSD_DIRECTORY;

/** Collects log lines so tests can assert what is (and is not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.lines.push(chunk.toString('utf8'));
    callback();
  }
  get text(): string {
    return this.lines.join('');
  }
}

export type TTestApi = {
  app: FastifyInstance;
  database: TDatabase;
  logs: LogCapture;
  close: () => Promise<void>;
};

/** An API on a fresh, migrated database of its own; `overrides` adjust the environment. */
export async function startTestApi(
  overrides: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  appOptions: Pick<TAppOptions, 'taxauthClientFor' | 'loadCertificate'> = {},
): Promise<TTestApi> {
  const testDatabase = await openTestDatabase();
  const logs = new LogCapture();
  const env = readEnv({
    DATABASE_URL: testDatabase.url,
    LOG_LEVEL: 'info',
    XSD_DIRECTORY: TEST_XSD_DIRECTORY,
    ...overrides,
  });
  const app = await buildApp({ env, database: testDatabase.database, logDestination: logs, ...appOptions });
  beforeReady?.(app);
  try {
    await app.ready();
  } catch (error) {
    // A start refused (a route without edge limits...) must not leave the database open.
    await app.close().catch(() => undefined);
    await testDatabase.close();
    throw error;
  }
  return {
    app,
    database: testDatabase.database,
    logs,
    close: async () => {
      await app.close();
      await testDatabase.close();
    },
  };
}

/** A tenant with a TesteCF key of every standard scope, ready for authenticated requests. */
export async function seedTenantWithKey(database: TDatabase) {
  const tenant = await seedTenant(database);
  const { key } = await seedApiKey(database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
  });
  return { tenant, key };
}
