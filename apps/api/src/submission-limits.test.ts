// The cheap limits of a submission come before everything expensive: an e-CF of more than 1000
// lines (the official XSDs' maxOccurs of Item) is refused without fiscal-core's validation, the
// XML or the XSD check; each route reads at most the body it can need.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { loadXsdValidators } from '@ecf/config';
import type { TXsdValidators } from '@ecf/fiscal-core';
import { openTestDatabase } from '@ecf/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ZErrorResponse, ZSubmitValidationError } from '@ecf/contract';
import { readEnv } from './env.ts';
import { RECONCILIATION_BODY_LIMIT_BYTES, STATUS_BATCH_BODY_LIMIT_BYTES } from './plugins/body-limits.ts';
import { seedTenantWithKey, TEST_XSD_DIRECTORY } from '../test/test-api.ts';
import { simplifiedE31 } from '../test/submissions.ts';

let app: FastifyInstance;
let closeDatabase: () => Promise<void>;
let xsd: TXsdValidators;
let key: string;
let countDocuments: () => Promise<number>;
/** How many times the official XSD check ran: the last and most expensive step of validation. */
let xsdChecks = 0;

before(async () => {
  const testDatabase = await openTestDatabase();
  closeDatabase = testDatabase.close;
  const real = await loadXsdValidators(TEST_XSD_DIRECTORY);
  xsd = real;
  const counted: TXsdValidators = {
    kinds: real.kinds,
    validateXml: (...parameters) => {
      xsdChecks += 1;
      return real.validateXml(...parameters);
    },
    dispose: () => real.dispose(),
  };
  const env = readEnv({
    DATABASE_URL: testDatabase.url,
    LOG_LEVEL: 'silent',
    XSD_DIRECTORY: TEST_XSD_DIRECTORY,
  });
  app = await buildApp({ env, database: testDatabase.database, xsd: counted });
  await app.ready();
  const seeded = await seedTenantWithKey(testDatabase.database);
  key = seeded.key;
  countDocuments = () => testDatabase.database.document.count({ where: { tenantId: seeded.tenant.id } });
});
after(async () => {
  await app.close();
  xsd.dispose();
  await closeDatabase();
});

const submit = (payload: unknown, query = '') =>
  app.inject({
    method: 'POST',
    url: `/TesteCF/documentos-ecf${query}`,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

function assertOnlyErrors(
  response: { statusCode: number; body: string; json: () => unknown },
  expected: string[],
) {
  assert.equal(response.statusCode, 422, response.body);
  const body = ZSubmitValidationError.parse(response.json());
  assert.equal(body.error.code, 'VALIDATION_FAILED');
  assert.deepEqual(
    body.errors.map((error) => `${error.path}:${error.code}`),
    expected,
  );
  return body;
}

/** A tax-authority-shaped body with `lines` items (only the line count matters to the limit). */
function taxauthBody(lines: number) {
  return {
    ECF: {
      Encabezado: { Version: '1.0', IdDoc: { TipoeCF: '31', eNCF: 'E310000000001' } },
      DetallesItems: {
        Item: Array.from({ length: lines }, (_, index) => ({
          NumeroLinea: String(index + 1),
          IndicadorFacturacion: '1',
          NombreItem: 'Artículo',
          IndicadorBienoServicio: '1',
          CantidadItem: '1',
          PrecioUnitarioItem: '100.00',
          MontoItem: '100.00',
        })),
      },
    },
  };
}

test('1001 lines: 422 LINE_LIMIT_EXCEEDED on the lines path, before validation, XML and XSD, nothing stored', async () => {
  for (const query of ['', '?validate=true']) {
    // Also wrong in ways validation would report (an unknown field, a bad decimal): only the limit is.
    const body = simplifiedE31({ colour: 'blue' }, 1001);
    (body['lines'] as Array<Record<string, unknown>>)[5]!['unitPrice'] = '1,500.00';
    const response = assertOnlyErrors(await submit(body, query), ['lines:LINE_LIMIT_EXCEEDED']);
    assert.deepEqual(response.errors[0]?.details, { code: 'LINE_LIMIT_EXCEEDED', limit: 1000, count: 1001 });
    assertOnlyErrors(await submit(taxauthBody(1001), query), ['ECF.DetallesItems.Item:LINE_LIMIT_EXCEEDED']);
  }
  assert.equal(xsdChecks, 0, 'the XSD check never ran');
  assert.equal(await countDocuments(), 0);
});

test('75,000 lines within the body limit: the same single error, without validating a line', async () => {
  const lines = Array.from({ length: 75_000 }, () => ({
    name: 'A',
    quantity: 1,
    unitPrice: '1',
    itbisRate: 18,
    itemKind: 'good',
  }));
  const response = assertOnlyErrors(await submit({ ...simplifiedE31(), lines }, '?validate=true'), [
    'lines:LINE_LIMIT_EXCEEDED',
  ]);
  assert.equal(response.errors[0]?.details['count'], 75_000);
  assert.equal(xsdChecks, 0);
});

test('other arrays over 1000 entries and objects over 100 members: 422 STRUCTURE_LIMIT_EXCEEDED, before validation', async () => {
  const phones = simplifiedE31({ issuer: { phone: Array.from({ length: 1001 }, () => '809-555-0101') } });
  const members = simplifiedE31({
    buyer: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`field${index}`, 'x'])),
  });
  const arrays = assertOnlyErrors(await submit(phones, '?validate=true'), [
    'issuer.phone:STRUCTURE_LIMIT_EXCEEDED',
  ]);
  assert.equal(arrays.errors[0]?.details['reason'], 'array_too_long');
  const objects = assertOnlyErrors(await submit(members, '?validate=true'), [
    'buyer:STRUCTURE_LIMIT_EXCEEDED',
  ]);
  assert.equal(objects.errors[0]?.details['reason'], 'too_many_members');
  assert.equal(xsdChecks, 0);
});

test('exactly 1000 lines are validated as usual (preflight 200)', async () => {
  const response = await submit(simplifiedE31({}, 1000), '?validate=true');
  assert.equal(response.statusCode, 200, response.body.slice(0, 500));
  assert.ok(xsdChecks >= 1, 'the full validation ran');
});

test('each route reads at most the body it can need: 400 BODY_TOO_LARGE with its own limit', async () => {
  const cases: Array<[string, number]> = [
    ['/TesteCF/documentos-ecf/status/batch', STATUS_BATCH_BODY_LIMIT_BYTES],
    [`/TesteCF/documentos-ecf/${randomUUID()}/entrega-receptor/reconciliar`, RECONCILIATION_BODY_LIMIT_BYTES],
    ['/TesteCF/documentos-ecf', 6 * 1024 * 1024],
  ];
  for (const [url, limit] of cases) {
    // Valid JSON one byte over the limit, so only its size can be refused.
    const payload = JSON.stringify({ note: 'x'.repeat(limit - 11 + 1) });
    assert.equal(payload.length, limit + 1);
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      payload,
    });
    assert.equal(response.statusCode, 400, `${url}: ${response.body.slice(0, 200)}`);
    const body = ZErrorResponse.parse(response.json());
    assert.equal(body.error.code, 'BODY_TOO_LARGE');
    assert.equal(body.error.details.limitBytes, limit);
  }
  // Routes that read no body take none of size.
  const unknown = await app.inject({
    method: 'POST',
    url: '/no/such/route',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ note: 'x'.repeat(100 * 1024) }),
  });
  assert.equal(ZErrorResponse.parse(unknown.json()).error.code, 'BODY_TOO_LARGE');
});
