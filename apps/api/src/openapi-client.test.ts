// The client generated from the OpenAPI document, @ecf/sdk, against a listening API with the
// Partner API on: its generated half must be what the served document generates (a route cannot
// ship without its SDK method), and its typed calls preflight, emit and read an e-CF; a bad one is a
// typed 422, no key a typed 401. (e2e/specs/sdk.spec.ts calls every method against the whole stack.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { EcfAuthenticationError, EcfClient, EcfValidationError } from '@ecf/sdk';
import { generateSdkSources, SDK_GENERATED_DIRECTORY } from '../test/sdk-generation.ts';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { dominicanToday, nextEncf } from '../test/submissions.ts';

let api: TTestApi;
let origin: string;
before(async () => {
  api = await startTestApi({ PSFE_PARTNER_API_ENABLED: 'true' });
  origin = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await api.close();
});

test("@ecf/sdk's generated methods and types are what the served /openapi.json generates: a route cannot ship without its SDK method", async () => {
  const served: unknown = await (await fetch(`${origin}/openapi.json`)).json();
  for (const [name, text] of Object.entries(await generateSdkSources(served)))
    assert.equal(
      text,
      await readFile(path.join(SDK_GENERATED_DIRECTORY, name), 'utf8'),
      `packages/sdk/src/generated/${name} is stale: run \`bash ../../scripts/node24.sh node --experimental-transform-types test/sdk-generation.ts\` in apps/api`,
    );
});

test('the typed client preflights, emits and reads the status of one e-CF; a bad one is a typed 422, no key a typed 401', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const client = new EcfClient({ apiKey: key, environment: 'TesteCF', baseUrl: origin });
  const year = Number(dominicanToday().slice(0, 4));
  const submission = {
    type: 'E31',
    encf: nextEncf('31'),
    sequenceExpirationDate: `31-12-${year + 1}`,
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [
      { name: 'Cemento gris 42.5 kg', quantity: 10, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' },
    ],
  };

  const preflight = await client.submitDocument({ validate: 'true', body: submission });
  assert.equal(preflight.status, 'validated');
  assert.equal(preflight.documentId, undefined);

  // No worker here: the document stays queued, the answer is the 202 of a queued emission.
  const emitted = await client.submitDocument({ body: submission });
  const documentId = emitted.documentId;
  assert.ok(documentId);
  assert.equal(emitted.encf, submission.encf);
  assert.equal(emitted.status, 'queued_for_signing');

  const status = await client.statusBatch({
    body: { encfs: [submission.encf], documentReferences: [documentId, nextEncf('31')] },
  });
  assert.deepEqual(
    status.found.map((result) => [result.documentId, result.status, result.lastError, result.errors]),
    [
      [documentId, 'queued_for_signing', null, []],
      [documentId, 'queued_for_signing', null, []],
    ],
  );
  assert.equal(status.unfound.length, 1);

  const invalid = await client
    .submitDocument({ body: { ...submission, encf: nextEncf('31'), sequenceExpirationDate: '31-02-2027' } })
    .catch((error: unknown) => error);
  assert.ok(invalid instanceof EcfValidationError, String(invalid));
  assert.equal(invalid.code, 'VALIDATION_FAILED');
  assert.deepEqual(
    invalid.errors.map((fieldError) => [fieldError.path, fieldError.code]),
    [['sequenceExpirationDate', 'SEQUENCE_EXPIRATION_DATE_INVALID']],
  );

  const unauthenticated = new EcfClient({ environment: 'TesteCF', baseUrl: origin });
  // The SDK refuses to send a keyed operation without a key; the service's own 401 is reached with an empty one.
  await assert.rejects(unauthenticated.statusBatch({ body: { encfs: ['x'] } }), /needs the client's apiKey/);
  const refused = await new EcfClient({
    apiKey: 'ecf_test_no-such-key',
    environment: 'TesteCF',
    baseUrl: origin,
  })
    .statusBatch({ body: { encfs: ['x'] } })
    .catch((error: unknown) => error);
  assert.ok(refused instanceof EcfAuthenticationError, String(refused));
  assert.equal(refused.status, 401);
});
