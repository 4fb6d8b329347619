/**
 * Child process of annulment-kill.test.ts: sends one annulment and SIGKILLs itself right after the
 * tax authority's acceptance is recorded, before the local cancellation of the covered documents.
 */
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { createDatabaseClient } from '@ecf/db';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { sendAnnulment } from '../src/annulments/index.ts';
import { certificateFor } from './transmission-harness.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as {
  databaseUrl: string;
  simulatorUrl: string;
  tenantId: string;
  rnc: string;
  key: string;
  ranges: Array<{ type: string; from: string; to: string }>;
};
const database = createDatabaseClient({ databaseUrl: input.databaseUrl, maxConnections: 2 });
const xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
const certificate = certificateFor(input.rnc);
await sendAnnulment({
  database,
  tenant: { id: input.tenantId, rnc: input.rnc },
  environment: 'TesteCF',
  request: { ranges: input.ranges },
  idempotencyKey: input.key,
  xsd,
  clientFor: createTaxauthClients({
    baseUrls: { ecf: input.simulatorUrl, fc: input.simulatorUrl, status: input.simulatorUrl },
    timeoutMs: 5000,
  }),
  loadCertificate: async () => certificate,
  afterAnswerRecorded: (state) => {
    console.log(`answer recorded: ${state}`);
    if (state === 'accepted') process.kill(process.pid, 'SIGKILL');
  },
});
console.log('not killed');
process.exit(3);
