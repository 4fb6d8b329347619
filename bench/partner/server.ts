/**
 * The server of the Partner benchmark, in a process of its own: the API with the Partner API
 * enabled on a fresh database (rate limits raised, logs off), one tenant that is both a direct
 * account (a TesteCF API key) and a Partner's fiscal account (a partner key), its RNC and the
 * buyer's in a loaded taxpayer registry (rule 18 runs on both routes alike). Prints one JSON line,
 * serves until SIGTERM, then drops the database.
 */
import { Readable } from 'node:stream';
import { createDatabaseClient, seedApiKey } from '@ecf/db';
import { createTestDatabase } from '@ecf/db/testing';
import { buildApp, readEnv } from '@ecf/api';
import { createPartner, createPartnerKey, importTaxpayerRegistry, linkFiscalAccount } from '@ecf/services';

const testDatabase = await createTestDatabase();
const database = createDatabaseClient({ databaseUrl: testDatabase.url, maxConnections: 10 });
const env = readEnv({
  DATABASE_URL: testDatabase.url,
  LOG_LEVEL: 'silent',
  API_RATE_LIMIT_PER_MINUTE: '100000000',
  API_RATE_LIMIT_PLANS: 'standard=100000000',
  PSFE_PARTNER_API_ENABLED: 'true',
  PARTNER_RATE_LIMITS: 'ip=100000000,partner=100000000,account=100000000,permission=100000000',
});
const rnc = '131880738';
await importTaxpayerRegistry({
  database,
  source: Readable.from([
    `${rnc}|DISTRIBUIDORA CARIBE DIGITAL SRL|CARIBE DIGITAL|VENTA|||||01/01/2000|ACTIVO|NORMAL\n101672919|FERRETERIA LOS PINOS SRL|LOS PINOS|VENTA|||||01/01/2000|ACTIVO|NORMAL\n`,
  ]),
});
const partner = await createPartner({ database, input: { name: 'Bench ERP', paidStatus: 'paid' } });
const { account } = await linkFiscalAccount({
  database,
  partnerId: partner.id,
  externalTenantId: 'bench-customer',
  input: { rnc, legalName: 'Distribuidora Caribe Digital SRL', address: 'Av. Lincoln 1003, Santo Domingo' },
});
const partnerKey = (
  await createPartnerKey({ database, partnerId: partner.id, name: 'bench', profile: 'runtime' })
).key;
const { key: apiKey } = await seedApiKey(database, { tenantId: account.id, environment: 'TesteCF' });

const api = await buildApp({ env, database });
await api.listen({ host: '127.0.0.1', port: 0 });
const { port } = api.server.address() as { port: number };
console.log(
  JSON.stringify({ apiUrl: `http://127.0.0.1:${port}`, apiKey, partnerKey, accountId: account.id }),
);

process.once('SIGTERM', () => {
  void (async () => {
    await api.close();
    await database.$disconnect();
    await testDatabase.drop();
    process.exit(0);
  })();
});
