/**
 * Issue 14: a name holding U+0085 or U+2028 was answered 201/202, signed, and then rejected by the
 * tax authority's verifier. Such characters are refused at the door: 422 on the field the client wrote.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { validateSubmission } from '@ecf/fiscal-core';
import { accountDataOf } from '@ecf/services';
import { ZSubmitResponse, ZSubmitValidationError } from '@ecf/contract';
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
  try {
    // Nothing any of these requests sent may have been stored.
    assert.equal(await api.database.document.count({ where: { tenantId } }), 0);
  } finally {
    await api.close();
  }
});

const post = (payload: string, query = '') =>
  api.app.inject({
    method: 'POST',
    url: `/TesteCF/documentos-ecf${query}`,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    payload,
  });

function textErrorsOf(response: { statusCode: number; json: () => unknown; body: string }) {
  assert.equal(response.statusCode, 422, response.body);
  const body = ZSubmitValidationError.parse(response.json());
  assert.equal(body.error.code, 'VALIDATION_FAILED');
  return body.errors.map((error) => ({ path: error.path, code: error.code, details: error.details }));
}

const textError = (path: string, codePoint: string, position: number) => ({
  path,
  code: 'TEXT_CHARACTER_NOT_ALLOWED',
  details: { code: 'TEXT_CHARACTER_NOT_ALLOWED', codePoint, position },
});

test('simplified contract: U+0085 and U+2028 in names are 422 on their fields, sent raw or escaped, emission or preflight', async () => {
  const body = simplifiedE31();
  (body['buyer'] as Record<string, unknown>)['name'] = 'Ferretería\u0085Los Pinos SRL';
  (body['lines'] as Array<Record<string, unknown>>)[1]!['name'] = 'Artículo\u20282';
  const raw = JSON.stringify(body);
  assert.ok(raw.includes('\u0085') && raw.includes('\u2028'), 'the characters travel raw in the JSON text');
  const escaped = raw.replace('\u0085', '\\u0085').replace('\u2028', '\\u2028');
  const expected = [textError('buyer.name', 'U+0085', 11), textError('lines[1].name', 'U+2028', 9)];
  for (const payload of [raw, escaped]) {
    assert.deepEqual(textErrorsOf(await post(payload)), expected);
    assert.deepEqual(textErrorsOf(await post(payload, '?validate=true')), expected);
  }
});

test('tax-authority JSON: 422 on the element path, the same document without them passes the preflight', async () => {
  const tenant = await api.database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
  const built = await validateSubmission(JSON.stringify(simplifiedE31()), {
    now: new Date(),
    account: accountDataOf(tenant),
  });
  assert.ok(built.success, JSON.stringify(!built.success && built.errors));
  const document = structuredClone(built.data.document) as {
    ECF: {
      Encabezado: { Comprador: Record<string, string> };
      DetallesItems: { Item: Array<Record<string, string>> };
    };
  };
  assert.equal(
    (await post(JSON.stringify(document), '?validate=true')).statusCode,
    200,
    'the tax-authority JSON is valid as built',
  );
  document.ECF.Encabezado.Comprador['RazonSocialComprador'] = 'Ferretería Los Pinos\u2029SRL';
  document.ECF.DetallesItems.Item[0]!['NombreItem'] = '\u009BArtículo 1';
  assert.deepEqual(textErrorsOf(await post(JSON.stringify(document))), [
    textError('ECF.Encabezado.Comprador.RazonSocialComprador', 'U+2029', 21),
    textError('ECF.DetallesItems.Item[0].NombreItem', 'U+009B', 1),
  ]);
});

test('tab and line feed are text like any other: the preflight passes', async () => {
  const body = simplifiedE31();
  (body['buyer'] as Record<string, unknown>)['name'] = 'Ferretería Los Pinos SRL\nSucursal\tNorte';
  const response = await post(JSON.stringify(body), '?validate=true');
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(ZSubmitResponse.parse(response.json()).status, 'validated');
});
