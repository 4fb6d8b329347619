/**
 * The servers of the API benchmark, in a process of their own so the load generator does not
 * share their CPU: the API on a fresh database (rate limit raised, logs off) and a bare Fastify
 * route returning a fixed JSON body (the ceiling). Prints one JSON line with their URLs, then
 * serves until SIGTERM, when it closes everything and drops the database.
 */
import Fastify from 'fastify';
import { createDatabaseClient, seedApiKey, seedDocument, seedTenant, sqlPoolOf } from '@ecf/db';
import { createTestDatabase } from '@ecf/db/testing';
import { buildApp, readEnv } from '@ecf/api';

const testDatabase = await createTestDatabase();
const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 10 });
const env = readEnv({
  DATABASE_URL: testDatabase.url,
  LOG_LEVEL: 'silent',
  API_RATE_LIMIT_PER_MINUTE: '100000000',
  API_RATE_LIMIT_PLANS: 'standard=100000000',
});
// BENCH_WITHOUT_ANNULMENT_GUARD=1: emission without the annulment guard (the insert trigger of
// migration 0013 that takes the eNCF prefix's shared lock and looks for a reserving range), to
// measure what that guard costs an emission.
if (process.env['BENCH_WITHOUT_ANNULMENT_GUARD'] === '1')
  await sqlPoolOf(database).query('ALTER TABLE documents DISABLE TRIGGER documents_refuse_reserved_encf');
const api = await buildApp({ env, database });
await api.listen({ host: '127.0.0.1', port: 0 });

const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true, status: 'ok', service: 'bare', version: '0.2.0' }));
await bare.listen({ host: '127.0.0.1', port: 0 });

const tenant = await seedTenant(database, {
  rnc: '131880738',
  legalName: 'Distribuidora Caribe Digital SRL',
});
const { key } = await seedApiKey(database, { tenantId: tenant.id, environment: 'TesteCF' });
const encfs: string[] = [];
for (let index = 0; index < 50; index += 1) {
  const document = await seedDocument(database, {
    tenantId: tenant.id,
    encf: `E31${String(9_000_000_000 + index).padStart(10, '0')}`,
    status: 'accepted',
  });
  encfs.push(document.encf);
}

const address = (server: { server: { address(): unknown } }) => {
  const info = server.server.address() as { port: number };
  return `http://127.0.0.1:${info.port}`;
};
console.log(
  JSON.stringify({ apiUrl: address(api), bareUrl: address(bare), key, encfs, databaseUrl: testDatabase.url }),
);

process.once('SIGTERM', () => {
  void (async () => {
    await bare.close();
    await api.close();
    await database.$disconnect();
    await testDatabase.drop();
    process.exit(0);
  })();
});
