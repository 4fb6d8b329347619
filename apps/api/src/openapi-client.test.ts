// A client generated from the OpenAPI document (openapi-typescript types, openapi-fetch calls)
// drives the real API over HTTP: if the document and the API disagree, this client cannot work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import createClient from 'openapi-fetch';
import type { paths } from '../test/openapi-types.generated.ts';
import path from 'node:path';
import { GENERATED_TYPES_PATH, generateOpenApiTypes } from '../test/openapi-types.ts';
import { generateSdkSources, SDK_GENERATED_DIRECTORY } from '../test/sdk-generation.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { dominicanToday, nextEncf } from '../test/submissions.ts';

let api: TTestApi;
let origin: string;
before(async () => {
  api = await startTestApi();
  origin = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await api.close();
});

test('the committed client types are what openapi-typescript generates from the served /openapi.json', async () => {
  const served: unknown = await (await fetch(`${origin}/openapi.json`)).json();
  assert.equal(
    await generateOpenApiTypes(served),
    await readFile(GENERATED_TYPES_PATH, 'utf8'),
    'test/openapi-types.generated.ts is stale: run `bash ../../scripts/node24.sh npx tsx test/openapi-types.ts` in apps/api',
  );
});

test("@ecf/sdk's generated methods and types are what the document with the Partner API generates: a route cannot ship without its SDK method", async () => {
  for (const [name, text] of Object.entries(
    await generateSdkSources(buildOpenApiDocument({ partnerApi: true })),
  ))
    assert.equal(
      text,
      await readFile(path.join(SDK_GENERATED_DIRECTORY, name), 'utf8'),
      `packages/sdk/src/generated/${name} is stale: run \`bash ../../scripts/node24.sh npx tsx test/openapi-types.ts\` in apps/api`,
    );
});

test('the typed client preflights, emits and reads the status of one e-CF; a bad one is a typed 422', async () => {
  const { key } = await seedTenantWithKey(api.database);
  // The environment is the server of the direct account operations (/{environment}).
  const client = createClient<paths>({ baseUrl: `${origin}/TesteCF`, headers: { 'X-API-KEY': key } });
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

  const preflight = await client.POST('/documentos-ecf', {
    params: { query: { validate: 'true' } },
    body: submission,
  });
  assert.equal(preflight.response.status, 200, JSON.stringify(preflight.error));
  assert.equal(preflight.data?.status, 'validated');
  assert.equal(preflight.data?.documentId, undefined);

  const emitted = await client.POST('/documentos-ecf', { body: submission });
  assert.equal(emitted.response.status, 202, JSON.stringify(emitted.error));
  assert.equal(emitted.response.headers.get('retry-after'), '2');
  const documentId = emitted.data?.documentId;
  assert.ok(documentId);
  assert.equal(emitted.data?.encf, submission.encf);

  const status = await client.POST('/documentos-ecf/status/batch', {
    body: { encfs: [submission.encf], documentReferences: [documentId, nextEncf('31')] },
  });
  assert.equal(status.response.status, 200, JSON.stringify(status.error));
  assert.deepEqual(
    status.data?.found.map((result) => [result.documentId, result.status, result.lastError, result.errors]),
    [
      [documentId, 'queued_for_signing', null, []],
      [documentId, 'queued_for_signing', null, []],
    ],
  );
  assert.equal(status.data?.unfound.length, 1);

  const invalid = await client.POST('/documentos-ecf', {
    body: { ...submission, encf: nextEncf('31'), sequenceExpirationDate: '31-02-2027' },
  });
  assert.equal(invalid.response.status, 422);
  // The error type is the union of the documented error answers; only the 422's has errors[].
  if (!invalid.error || !('errors' in invalid.error)) assert.fail(JSON.stringify(invalid.error));
  assert.equal(invalid.error.error.code, 'VALIDATION_FAILED');
  assert.deepEqual(
    invalid.error.errors.map((fieldError) => [fieldError.path, fieldError.code]),
    [['sequenceExpirationDate', 'SEQUENCE_EXPIRATION_DATE_INVALID']],
  );

  const unauthenticated = createClient<paths>({ baseUrl: `${origin}/TesteCF` });
  const refused = await unauthenticated.POST('/documentos-ecf/status/batch', { body: { encfs: ['x'] } });
  assert.equal(refused.response.status, 401);
  assert.equal(refused.error?.error.code, 'API_KEY_MISSING');
});
