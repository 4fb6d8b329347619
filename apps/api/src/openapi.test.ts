import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { documentedPathOf } from './openapi.ts';
import { isApiReferenceRoute } from './routes/api-reference.ts';
import { startTestApi, type TTestApi } from '../test/test-api.ts';

type TOperation = {
  operationId: string;
  description?: string;
  security: unknown[];
  parameters: Array<{ name: string; in: string; description?: string; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: TSchema }> }>;
};
type TSchema = Record<string, unknown> & { properties?: Record<string, TSchema>; required?: string[] };
type TDocument = {
  openapi: string;
  info: { version: string; license?: Record<string, string> };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }>;
};

let api: TTestApi;
let served: { text: string; document: TDocument };
before(async () => {
  api = await startTestApi();
  const response = await api.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(response.statusCode, 200);
  served = { text: response.body, document: response.json() };
});
after(async () => {
  await api.close();
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(document: TDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, item, operation: operation as TOperation })),
  );
}

function operation(operationId: string): TOperation {
  const found = operations(served.document).find((entry) => entry.operation.operationId === operationId);
  assert.ok(found, `operation ${operationId} is not in /openapi.json`);
  return found.operation;
}

test('GET /openapi.json serves contract 0.2.0 with every registered route', async () => {
  const { document } = served;
  assert.equal(document.openapi, '3.1.0');
  assert.equal(document.info.version, '0.2.0');
  // `/docs` (a redirect), `/docs/` (the page) and `/docs/js/scalar.js` belong to the API reference
  // renderer: an HTML page about this document, not an operation of the API. Documenting them
  // would also take `/docs/`, a path with a trailing slash, which the OpenAPI linters refuse.
  const routes = api.app.registeredRoutes.filter(
    (route) => route.method !== 'HEAD' && !route.url.startsWith('/__') && !isApiReferenceRoute(route.url),
  );
  assert.ok(routes.length >= 10);
  const routed = new Set<string>();
  for (const route of routes) {
    const { path, underEnvironment } = documentedPathOf(route.url);
    const item = document.paths[path];
    assert.ok(
      item?.[route.method.toLowerCase()],
      `${route.method} ${route.url} is missing from /openapi.json`,
    );
    assert.deepEqual(
      item.servers?.map((server) => server.url),
      underEnvironment ? ['/{environment}'] : undefined,
      `${route.url}: the environment prefix is the server of its path`,
    );
    routed.add(`${route.method.toLowerCase()} ${path}`);
  }
  // And nothing documented that the API does not serve.
  for (const { path, method } of operations(document))
    assert.ok(routed.has(`${method} ${path}`), `${method} ${path} is documented but not served`);
});

test('request schemas in the document are the ones the handlers enforce', async () => {
  const { document } = served;
  const list = operation('listDocuments');
  const limit = list.parameters.find((parameter) => parameter.name === 'limit');
  assert.equal(limit?.in, 'query');
  assert.equal(limit?.schema['type'], 'string');
  const batch = operation('statusBatch');
  assert.equal(batch.requestBody?.content['application/json']?.schema['additionalProperties'], false);
  const submit = operation('submitDocument');
  for (const status of ['200', '201', '202', '400', '401', '403', '409', '422', '423', '429'])
    assert.ok(submit.responses[status], status);
  // Under the environment's server the environment is its variable, never a path parameter too.
  assert.ok(!submit.parameters.some((parameter) => parameter.name === 'environment'));
  assert.ok(document.paths['/documentos-ecf'] && !document.paths['/{environment}/documentos-ecf']);
});

test('/openapi.json passes redocly lint with the recommended rules: no problem of any severity', async () => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: served.text, absoluteRef: '/openapi.json', config });
  const listed = problems.map(
    (problem) =>
      `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location
        .map((location) => location.pointer)
        .join(', ')}`,
  );
  assert.deepEqual(listed, []);
  // What the lint asked for before: servers, a licence, an operationId everywhere, 4xx answers.
  assert.ok(served.document.servers?.length);
  assert.ok(served.document.info.license?.['identifier']);
  for (const { path, method, operation } of operations(served.document)) {
    assert.match(operation.operationId, /^[a-z][A-Za-z]+$/, `${method} ${path}`);
    assert.ok(
      Object.keys(operation.responses).some((status) => status.startsWith('4')),
      `${method} ${path} has no 4xx answer`,
    );
  }
});

/** Every member of `schema` the contract promises, required. */
function assertRequired(schema: TSchema | undefined, members: string[], label: string) {
  assert.ok(schema, label);
  for (const member of members) {
    assert.ok(schema.properties?.[member], `${label}: ${member} is not documented`);
    assert.ok(schema.required?.includes(member), `${label}: ${member} is not required`);
  }
}

const json = (value: unknown) => JSON.stringify(value ?? null);

test('every clarification is documented on the operation it concerns', async () => {
  const submit = operation('submitDocument');
  const schemaOf = (target: TOperation, status: string) =>
    target.responses[status]?.content?.['application/json']?.schema;
  const at = {
    operation: (target: TOperation) =>
      json({ description: target.description, parameters: target.parameters }),
    response: (target: TOperation, status: string) => json(target.responses[status]),
    body: (target: TOperation) => json(target.requestBody),
  };
  const cases: Array<[clarification: number, where: string, strings: string[]]> = [
    [1, at.response(submit, '422'), ['VALIDATION_FAILED', 'Clarification 1']],
    [2, at.response(submit, '422'), ['FieldError', '[i] for array positions', 'mirrors details.code']],
    [3, at.response(submit, '200'), ['Warning', 'SQUARING_ABOVE_TAXAUTH_TOLERANCE', 'toleranceCents']],
    [3, at.response(submit, '422'), ['Warning', 'declared', 'expected', 'decimal string with two decimals']],
    [4, at.response(submit, '202'), ['SubmitResponse', 'absent in a preflight', 'validated']],
    [5, at.response(operation('statusBatch'), '200'), ['Clarification 5', 'lastError', 'errors']],
    [5, at.operation(operation('statusBatch')), ['the same error appears in errors']],
    [6, at.operation(operation('listDocuments')), ['YYYY-MM-DD', 'E31 or 31', '1 to 100', 'default 50']],
    [6, at.response(operation('listDocuments'), '200'), ['nextCursor']],
    [7, at.response(submit, '422'), ['ISSUER_RNC_MISMATCH', 'issuer.rnc', 'ECF.Encabezado.Emisor.RNCEmisor']],
    [8, at.response(submit, '422'), ['REFERENCE_CODE_NOT_APPLICABLE']],
    [9, at.response(submit, '422'), ['XSD_VALIDATION_FAILED', 'path ECF', 'details.line']],
    [10, at.response(submit, '422'), ['SIGNATURE_DATE_IN_FUTURE', 'SIGNATURE_DATE_INVALID']],
    [11, at.response(submit, '422'), ['SEQUENCE_EXPIRATION_DATE_INVALID', 'over DATE_INVALID']],
    [13, at.response(submit, '201'), ['Clarification 13', 'whether or not Prefer was sent']],
    [14, at.body(submit), ['JSON strings or JSON numbers', 'TablaTelefonoEmisor.TelefonoEmisor[]']],
    [15, at.body(submit), ['FechaHoraFirma omitted', 'signatureDate omitted', 'signing time']],
    [16, at.operation(submit), ['Clarification 16', 'never issued through the service']],
    [18, at.body(submit), ['simplified-contract.md', 'camelCase', 'reference.encf']],
  ];
  for (const kind of ['documentXml', 'documentPdf']) {
    const download = operation(kind);
    const types =
      kind === 'documentXml' ? ['application/xml', 'text/xml', '*/*'] : ['application/pdf', '*/*'];
    cases.push(
      [17, at.operation(download), ['Clarification 17', 'Error answers are JSON ErrorResponse', ...types]],
      [17, at.response(download, '400'), ['NOT_ACCEPTABLE', 'clarification 17']],
      [17, at.response(download, '404'), ['whatever Accept says']],
    );
  }
  // Clarification 12 on every operation an API key opens.
  for (const { operation: authenticated } of operations(served.document).filter(
    (entry) => entry.operation.security.length > 0,
  ))
    cases.push([12, at.response(authenticated, '403'), ['INSUFFICIENT_SCOPE', 'environment_mismatch']]);
  for (const [clarification, where, strings] of cases)
    for (const text of strings)
      assert.ok(where.includes(text), `clarification ${clarification}: "${text}" not found in ${where}`);

  // The shapes themselves (clarifications 1, 2, 4, 5).
  const validationError = schemaOf(submit, '422');
  assertRequired(validationError, ['ok', 'error', 'errors', 'warnings', 'correlationId'], '422');
  const fieldError = (validationError?.properties?.['errors'] as { items?: TSchema } | undefined)?.items;
  assertRequired(fieldError, ['path', 'code', 'message', 'details'], 'FieldError');
  assertRequired(fieldError?.properties?.['details'], ['code'], 'FieldError.details');
  for (const status of ['200', '201', '202'])
    assertRequired(
      schemaOf(submit, status),
      ['ok', 'encf', 'environment', 'status', 'warnings', 'errors', 'result', 'correlationId'],
      `SubmitResponse ${status}`,
    );
  const batch = schemaOf(operation('statusBatch'), '200');
  assertRequired(batch, ['ok', 'found', 'unfound', 'correlationId'], 'status batch');
  const statusResult = (batch?.properties?.['found'] as { items?: TSchema } | undefined)?.items;
  assertRequired(
    statusResult,
    [
      'documentId',
      'encf',
      'type',
      'status',
      'trackId',
      'securityCode',
      'printing',
      'printingStatus',
      'lastError',
      'errors',
      'updatedAt',
    ],
    'StatusResult',
  );
});

test("the submission's 422 lists every emission code of the specification", async () => {
  // The specification's "422 emission codes" row, as written there.
  const SPEC_422_CODES = [
    'SEQUENCE_EXPIRATION_DATE_REQUIRED',
    'SEQUENCE_EXPIRATION_DATE_INVALID',
    'SEQUENCE_EXPIRATION_DATE_NOT_APPLICABLE',
    'SEQUENCE_EXPIRED_AT_ISSUE_DATE',
    'SEQUENCE_EXPIRATION_RANGE_MISMATCH',
    'GLOBAL_AMOUNT_WITH_PRICES_INCLUDE_TAX',
    'UNKNOWN_FIELD',
    'SIMPLIFIED_CONTRACT_UNSUPPORTED',
    'BUYER_ID_REQUIRED',
    'REFERENCED_ENCF_NOT_ACCEPTED',
    'CONTINGENCY_PAPER_REPLACEMENT_UNSUPPORTED',
    'REFERENCED_BUYER_MISMATCH',
    'REFERENCED_DATE_MISMATCH',
    'CREDIT_NOTES_EXCEED_ORIGINAL',
    'REFERENCE_DATE_AFTER_ISSUE_DATE',
    'CREDIT_NOTE_INDICATOR_MISMATCH',
    'SIGNATURE_DATE_IN_FUTURE',
    'SIGNATURE_DATE_INVALID',
    'NORMA_1007_REQUIRES_ITBIS_INCLUDED',
    'ITBIS_RATE_MISMATCH',
    'EXCHANGE_RATE_INVALID',
    'PAGINATION_INVALID',
    'ISC_SPECIFIC_AMOUNT_REQUIRED',
    'ITBIS_RETENTION_EXCEEDS_LINE_ITBIS',
    'ISR_RETENTION_REQUIRES_SERVICE',
    'DECIMAL_FORMAT_INVALID',
    'DATE_INVALID',
    'PAYMENT_DUE_DATE_REQUIRED',
    'ISSUER_PHONE_INVALID',
    'UNRESOLVED_PLACEHOLDER',
  ];
  const unprocessable = json(operation('submitDocument').responses['422']);
  for (const code of SPEC_422_CODES) assert.ok(unprocessable.includes(code), code);
});
