import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ZErrorResponse, ZSubmitValidationError } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { simplifiedE31 } from '../test/submissions.ts';

let api: TTestApi;
let key: string;
let tenantId: string;
before(async () => {
  api = await startTestApi();
  const seeded = await seedTenantWithKey(api.database);
  key = seeded.key;
  tenantId = seeded.tenant.id;
});
after(async () => {
  // Nothing any of these requests sent may have been stored.
  assert.equal(await api.database.document.count({ where: { tenantId } }), 0);
  await api.close();
});

const post = (
  payload: string | Buffer | undefined,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  query = '',
) =>
  api.app.inject({
    method: 'POST',
    url: `/TesteCF/documentos-ecf${query}`,
    headers: { 'x-api-key': key, ...headers },
    ...(payload === undefined ? {} : { payload }),
  });

function assertError(
  response: { statusCode: number; json: () => unknown; body: string },
  status: number,
  code: string,
) {
  assert.equal(response.statusCode, status, response.body);
  const body = ZErrorResponse.parse(response.json());
  assert.equal(body.error.code, code);
  return body;
}

function assertFieldError(
  response: { statusCode: number; json: () => unknown; body: string },
  path: string,
  code: string,
) {
  assertError(response, 422, 'VALIDATION_FAILED');
  const body = ZSubmitValidationError.parse(response.json());
  assert.ok(
    body.errors.some((error) => error.path === path && error.code === code),
    `${path}:${code} in ${JSON.stringify(body.errors)}`,
  );
}

test('malformed JSON, an empty body or no body: 400 INVALID_JSON', async () => {
  for (const query of ['', '?validate=true']) {
    assertError(await post('{"type": "E31",', undefined, query), 400, 'INVALID_JSON');
    assertError(await post(''), 400, 'INVALID_JSON');
    assertError(await post(undefined, {}, query), 400, 'INVALID_JSON');
  }
});

test('a body that is not JSON: 400 UNSUPPORTED_CONTENT_TYPE', async () => {
  assertError(
    await post('type=E31', { 'content-type': 'application/x-www-form-urlencoded' }),
    400,
    'UNSUPPORTED_CONTENT_TYPE',
  );
  assertError(await post('<ECF/>', { 'content-type': 'application/xml' }), 400, 'UNSUPPORTED_CONTENT_TYPE');
});

test('a 10 MB body: 400 BODY_TOO_LARGE', async () => {
  const huge = JSON.stringify(simplifiedE31({ internalInvoiceNumber: 'x'.repeat(10 * 1024 * 1024) }));
  const body = assertError(await post(huge), 400, 'BODY_TOO_LARGE');
  assert.equal(typeof body.error.details.limitBytes, 'number');
});

test('not an object, both formats, neither format: 422 on the body; a repeated name: 400', async () => {
  for (const payload of ['[]', '"E31"', '42', 'null', 'true'])
    assertFieldError(await post(payload), '', 'SUBMISSION_FORMAT_UNRECOGNIZED');
  assertFieldError(await post(JSON.stringify({ colour: 'blue' })), '', 'SUBMISSION_FORMAT_UNRECOGNIZED');
  assertFieldError(
    await post(JSON.stringify({ ...simplifiedE31(), ECF: { Encabezado: {} } })),
    '',
    'SUBMISSION_FORMAT_AMBIGUOUS',
  );
  // A repeated member name is a fault of the JSON itself, refused by the one body parser of every
  // route: 400 INVALID_JSON (duplicate_key, with its path), not a field error.
  const duplicate = assertError(await post('{"type":"E31","type":"E32"}'), 400, 'INVALID_JSON');
  assert.equal(duplicate.error.details.reason, 'duplicate_key');
  assert.equal(duplicate.error.details.path, 'type');
});

test('wrong types and unknown fields: 422 on the field', async () => {
  assertFieldError(
    await post(JSON.stringify(simplifiedE31({ lines: 'many' }))),
    'lines',
    'FIELD_TYPE_INVALID',
  );
  assertFieldError(
    await post(JSON.stringify(simplifiedE31({ buyer: { rnc: 101672919, name: 'X' } }))),
    'buyer.rnc',
    'FIELD_TYPE_INVALID',
  );
  assertFieldError(await post(JSON.stringify(simplifiedE31({ colour: 'blue' }))), 'colour', 'UNKNOWN_FIELD');
  const badDecimal = simplifiedE31();
  (badDecimal['lines'] as Array<Record<string, unknown>>)[1]!['unitPrice'] = '1,500.00';
  assertFieldError(await post(JSON.stringify(badDecimal)), 'lines[1].unitPrice', 'DECIMAL_FORMAT_INVALID');
  assertFieldError(await post(JSON.stringify({ ECF: 'yes' })), 'ECF', 'FIELD_TYPE_INVALID');
});

test('a bad validate flag is 400 INVALID_REQUEST', async () => {
  assertError(
    await post(JSON.stringify(simplifiedE31()), undefined, '?validate=yes'),
    400,
    'INVALID_REQUEST',
  );
});

/** Issue 25, item 1: eNCF-shaped nowhere, and once a database lookup with it was a 500. */
const HOSTILE_ENCFS = ['abc', 'E31', 'E31000000010X', "' OR '1'='1"];

test('a malformed eNCF on preflight and emission, both formats: 422 rule 2 on its path, never a lookup, nothing stored', async () => {
  // A tenant of its own: no "no registered ranges" memory from the other tests' submissions.
  const fresh = await seedTenantWithKey(api.database);
  const send = (body: unknown, query: string) =>
    api.app.inject({
      method: 'POST',
      url: `/TesteCF/documentos-ecf${query}`,
      headers: { 'x-api-key': fresh.key, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  for (const encf of HOSTILE_ENCFS) {
    for (const query of ['?validate=true', '']) {
      assertFieldError(await send(simplifiedE31({ encf }), query), 'encf', 'FIELD_VALUE_INVALID');
      const taxauth = {
        ECF: {
          Encabezado: {
            Version: '1.0',
            IdDoc: { TipoeCF: '31', eNCF: encf, FechaVencimientoSecuencia: '31-12-2030' },
          },
          DetallesItems: { Item: [{ NumeroLinea: '1' }] },
        },
      };
      assertFieldError(await send(taxauth, query), 'ECF.Encabezado.IdDoc.eNCF', 'FIELD_VALUE_INVALID');
    }
  }
  assert.equal(await api.database.document.count({ where: { tenantId: fresh.tenant.id } }), 0);
});
