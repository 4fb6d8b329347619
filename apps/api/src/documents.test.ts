import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { seedApiKey, seedDocument, seedTenant } from '@ecf/db';
import { ZErrorResponse, ZStatusBatchResponse, ZSubmitResponse, ZSubmitValidationError } from '@ecf/contract';
import { seedTenantWithKey, startTestApi, type TTestApi } from '../test/test-api.ts';
import { dominicanToday, nextEncf, simplifiedE31, storeSignedXml } from '../test/submissions.ts';

let api: TTestApi;
before(async () => {
  api = await startTestApi();
});
after(async () => {
  await api.close();
});

const submit = (
  key: string,
  body: unknown,
  options: { validate?: boolean; environment?: string; headers?: Record<string, string> } = {},
) =>
  api.app.inject({
    method: 'POST',
    url: `/${options.environment ?? 'TesteCF'}/documentos-ecf${options.validate ? '?validate=true' : ''}`,
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...options.headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const errorOf = (response: { json: () => unknown }) => ZErrorResponse.parse(response.json()).error;

async function counts(tenantId: string) {
  const documents = await api.database.document.count({ where: { tenantId } });
  const [jobs] = await api.database.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM pgboss.job j JOIN documents d ON d.id::text = j.data->>'documentId'
    WHERE j.name = 'document.sign' AND d.tenant_id = ${tenantId}::uuid`.catch(() => [{ count: 0n }]);
  return { documents, jobs: Number(jobs?.count ?? 0) };
}

test('preflight: 200 with warnings, status validated, no documentId, nothing stored', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const year = Number(dominicanToday().slice(0, 4));
  const response = await submit(key, simplifiedE31({ sequenceExpirationDate: `31-12-${year + 3}` }), {
    validate: true,
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = ZSubmitResponse.parse(response.json());
  assert.equal(body.status, 'validated');
  assert.equal(body.documentId, undefined);
  assert.ok(body.warnings.some((warning) => warning.code === 'SEQUENCE_EXPIRATION_BEYOND_LEGAL_MAX'));
  assert.deepEqual(await counts(tenant.id), { documents: 0, jobs: 0 });
});

test('emission: 202 with Retry-After; document, fingerprint, submitted event and document.sign job stored', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const response = await submit(key, submission);
  assert.equal(response.statusCode, 202, response.body);
  assert.equal(response.headers['retry-after'], '2');
  const body = ZSubmitResponse.parse(response.json());
  assert.equal(body.status, 'queued_for_signing');
  assert.equal(body.encf, submission['encf']);
  assert.equal(body.result.printing, null);
  const document = await api.database.document.findUniqueOrThrow({
    where: { id: body.documentId },
    include: { fingerprints: true, events: true },
  });
  assert.equal(document.tenantId, tenant.id);
  assert.equal(document.fingerprints.length, 1);
  assert.equal(document.fingerprints[0]?.algorithm, 'v1');
  assert.deepEqual(
    document.events.map((event) => [event.type, event.toStatus]),
    [['submitted', 'queued_for_signing']],
  );
  assert.deepEqual(await counts(tenant.id), { documents: 1, jobs: 1 });
});

test('the submitted payload keeps the numbers as the client wrote them', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const encf = nextEncf();
  const text = JSON.stringify(simplifiedE31({ encf })).replace('"quantity":2', '"quantity":2.50');
  const response = await submit(key, text);
  assert.equal(response.statusCode, 202, response.body);
  const [row] = await api.database.$queryRaw<Array<{ quantity: string }>>`
    SELECT submitted_payload #>> '{lines,0,quantity}' AS quantity FROM documents WHERE encf = ${encf}`;
  assert.equal(row?.quantity, '2.50');
});

test('scopes: preflight needs ecf:validate, emission ecf:create', async () => {
  const tenant = await seedTenant(api.database);
  const { key: validateOnly } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate'],
  });
  const { key: createOnly } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:create'],
  });
  assert.equal((await submit(validateOnly, simplifiedE31(), { validate: true })).statusCode, 200);
  const refused = await submit(validateOnly, simplifiedE31());
  assert.equal(refused.statusCode, 403);
  assert.equal(errorOf(refused).code, 'INSUFFICIENT_SCOPE');
  assert.equal((await submit(createOnly, simplifiedE31(), { validate: true })).statusCode, 403);
  assert.equal((await submit(createOnly, simplifiedE31())).statusCode, 202);
  const { key: readOnly } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:read'],
  });
  const batch = await api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf/status/batch',
    headers: { 'x-api-key': readOnly },
    payload: { encfs: ['E310000000001'] },
  });
  assert.equal(batch.statusCode, 403);
});

test('authentication: 401 without key, 403 with a key of another environment, 404 for an unknown environment', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const missing = await api.app.inject({
    method: 'POST',
    url: '/TesteCF/documentos-ecf',
    headers: { 'content-type': 'application/json' },
    payload: '{}',
  });
  assert.equal(missing.statusCode, 401);
  const other = await submit(key, simplifiedE31(), { environment: 'CerteCF' });
  assert.equal(other.statusCode, 403);
  assert.equal(errorOf(other).details.reason, 'environment_mismatch');
  assert.equal((await submit(key, simplifiedE31(), { environment: 'Produccion' })).statusCode, 404);
  for (const url of ['/Nope/documentos-ecf', '/Nope/documentos-ecf/E310000000001/xml']) {
    assert.equal(
      (await api.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } })).statusCode,
      404,
    );
  }
});

test('422: every field error listed, nothing stored, the eNCF stays free', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const encf = nextEncf();
  const invalid = simplifiedE31({ encf, issuer: { rnc: '131880738' }, sequenceExpirationDate: '31-02-2027' });
  for (const validate of [true, false]) {
    const response = await submit(key, invalid, { validate });
    assert.equal(response.statusCode, 422, response.body);
    const body = ZSubmitValidationError.parse(response.json());
    assert.equal(body.error.code, 'VALIDATION_FAILED');
    const codes = body.errors.map((error) => `${error.path}:${error.code}`);
    assert.ok(codes.includes('issuer.rnc:ISSUER_RNC_MISMATCH'), codes.join());
    assert.ok(codes.includes('sequenceExpirationDate:SEQUENCE_EXPIRATION_DATE_INVALID'), codes.join());
    for (const error of body.errors) assert.equal(error.details.code, error.code);
  }
  assert.deepEqual(await counts(tenant.id), { documents: 0, jobs: 0 });
  assert.equal((await submit(key, simplifiedE31({ encf }))).statusCode, 202);
});

test('422 XSD_VALIDATION_FAILED on ECF when the built XML breaks the official schema', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const response = await submit(key, simplifiedE31({ buyer: { rnc: '101672919', name: 'N'.repeat(400) } }));
  assert.equal(response.statusCode, 422, response.body);
  const body = ZSubmitValidationError.parse(response.json());
  const xsd = body.errors.find((error) => error.code === 'XSD_VALIDATION_FAILED');
  assert.ok(xsd, JSON.stringify(body.errors));
  assert.equal(xsd.path, 'ECF');
  assert.match(xsd.message, /RazonSocialComprador/);
  assert.deepEqual(await counts(tenant.id), { documents: 0, jobs: 0 });
});

test('replay: the same eNCF and JSON return the original document; other content is 409 with conflicts', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const first = ZSubmitResponse.parse((await submit(key, submission)).json());
  // Same JSON written differently (member order, spacing): same fingerprint.
  const reordered = Object.fromEntries(Object.entries(submission).reverse());
  const again = await submit(key, JSON.stringify(reordered, null, 2));
  assert.equal(again.statusCode, 202);
  assert.equal(ZSubmitResponse.parse(again.json()).documentId, first.documentId);
  const changed = await submit(key, { ...submission, paymentType: 'cash' });
  assert.equal(changed.statusCode, 409);
  const error = errorOf(changed);
  assert.equal(error.code, 'ENCF_CONFLICT');
  assert.deepEqual(error.details.conflicts, [
    {
      encf: submission['encf'],
      documentId: first.documentId,
      status: 'queued_for_signing',
      reason: 'encf_already_used_with_other_content',
    },
  ]);
  assert.deepEqual(await counts(tenant.id), { documents: 1, jobs: 1 });
});

test('replay of a document stored under an older fingerprint algorithm is still a replay', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const first = ZSubmitResponse.parse((await submit(key, submission)).json());
  // A future algorithm's fingerprint beside v1: v1 keeps answering replays.
  await api.database.documentFingerprint.create({
    data: { documentId: first.documentId!, algorithm: 'v2', value: 'f'.repeat(64) },
  });
  const again = await submit(key, submission);
  assert.equal(again.statusCode, 202);
  assert.equal(ZSubmitResponse.parse(again.json()).documentId, first.documentId);
});

test('replay of an already printable document answers 201 at once, without Preference-Applied', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const first = ZSubmitResponse.parse((await submit(key, submission)).json());
  await api.database.document.update({
    where: { id: first.documentId! },
    data: { status: 'sent', trackId: 'track-1', securityCode: 'Ab12Cd', qrUrl: 'https://example.test/qr' },
  });
  const again = await submit(key, submission);
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['preference-applied'], undefined);
  const body = ZSubmitResponse.parse(again.json());
  assert.equal(body.result.securityCode, 'Ab12Cd');
  assert.equal(body.result.printing?.pdfUrl, `/TesteCF/documentos-ecf/${first.documentId}/pdf`);
});

test('two identical submissions racing each other produce one document', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const responses = await Promise.all(Array.from({ length: 6 }, () => submit(key, submission)));
  assert.deepEqual(
    responses.map((response) => response.statusCode),
    [202, 202, 202, 202, 202, 202],
    responses.map((response) => response.body).join('\n'),
  );
  const ids = new Set(responses.map((response) => ZSubmitResponse.parse(response.json()).documentId));
  assert.equal(ids.size, 1);
  assert.deepEqual(await counts(tenant.id), { documents: 1, jobs: 1 });
});

test('racing submissions of one eNCF with different content: one document, the others 409', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const encf = nextEncf();
  const responses = await Promise.all(
    ['card', 'cash', 'transfer'].map((paymentType) => submit(key, simplifiedE31({ encf, paymentType }))),
  );
  assert.deepEqual(responses.map((response) => response.statusCode).sort(), [202, 409, 409]);
  assert.deepEqual(await counts(tenant.id), { documents: 1, jobs: 1 });
});

test('Prefer: wait=N answers 201 with Preference-Applied when the document becomes printable in time', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const started = Date.now();
  const pending = submit(key, submission, { headers: { prefer: 'respond-async, wait=10' } });
  // Play the worker: once the document exists, it gets its TrackID.
  let document = null;
  while (!document) {
    document = await api.database.document.findFirst({ where: { encf: submission['encf'] as string } });
    if (!document) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  while (api.app.documentWaiter.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await api.database.document.update({
    where: { id: document.id },
    data: { status: 'signed', signatureDate: new Date() },
  });
  await api.database.document.update({
    where: { id: document.id },
    data: {
      status: 'sent',
      trackId: 'track-wait',
      securityCode: 'Qw12Er',
      qrUrl: 'https://example.test/qr?wait',
    },
  });
  const response = await pending;
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(response.headers['preference-applied'], 'wait=10');
  assert.ok(Date.now() - started < 5000);
  const body = ZSubmitResponse.parse(response.json());
  assert.equal(body.result.securityCode, 'Qw12Er');
  assert.equal(body.result.qrUrl, 'https://example.test/qr?wait');
  assert.equal(body.result.trackId, 'track-wait');
  assert.ok(body.result.printing);
  assert.equal(api.app.documentWaiter.waiting, 0);
});

test('Prefer: wait=N answers 201 when the document goes to contingency', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const pending = submit(key, submission, { headers: { prefer: 'wait=10' } });
  while (api.app.documentWaiter.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await api.database.document.updateMany({
    where: { encf: submission['encf'] as string },
    data: { status: 'contingency', contingencySince: new Date() },
  });
  const response = await pending;
  assert.equal(response.statusCode, 201);
  assert.equal(ZSubmitResponse.parse(response.json()).status, 'contingency');
});

test('Prefer: wait=N gives up after N seconds with the usual 202; signing alone is not enough', async () => {
  const { key } = await seedTenantWithKey(api.database);
  const submission = simplifiedE31();
  const started = Date.now();
  const pending = submit(key, submission, { headers: { prefer: 'wait=1' } });
  while (api.app.documentWaiter.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await api.database.document.updateMany({
    where: { encf: submission['encf'] as string },
    data: { status: 'signed' },
  });
  const response = await pending;
  const elapsed = Date.now() - started;
  assert.equal(response.statusCode, 202);
  assert.equal(response.headers['preference-applied'], undefined);
  assert.equal(response.headers['retry-after'], '2');
  // At least the second asked for; the upper bound only says it did not wait for the document (30 s).
  assert.ok(elapsed >= 950 && elapsed < 8000, `elapsed ${elapsed}`);
  assert.equal(ZSubmitResponse.parse(response.json()).status, 'signed');
});

test('eCF: 423 PRODUCTION_NOT_ACTIVE without active production; emission once active', async () => {
  const tenant = await seedTenant(api.database);
  const { key } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'eCF' });
  const refused = await submit(key, simplifiedE31(), { environment: 'eCF' });
  assert.equal(refused.statusCode, 423);
  assert.equal(errorOf(refused).code, 'PRODUCTION_NOT_ACTIVE');
  const list = await api.app.inject({
    method: 'GET',
    url: '/eCF/documentos-ecf',
    headers: { 'x-api-key': key },
  });
  assert.equal(list.statusCode, 423);
  await api.database.tenant.update({ where: { id: tenant.id }, data: { productionState: 'active' } });
  assert.equal((await submit(key, simplifiedE31(), { environment: 'eCF' })).statusCode, 202);
  assert.equal(
    (await api.app.inject({ method: 'GET', url: '/eCF/documentos-ecf', headers: { 'x-api-key': key } }))
      .statusCode,
    200,
  );
});

test('notes look up the referenced document of the account (rule 20)', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const original = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf('31'),
    status: 'rejected',
  });
  const note = {
    type: 'E33',
    encf: nextEncf('33'),
    sequenceExpirationDate: simplifiedE31()['sequenceExpirationDate'],
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    reference: { encf: original.encf, date: '2026-11-20', modificationCode: 3, reason: 'Intereses' },
    lines: [{ name: 'Intereses', quantity: 1, unitPrice: '350.00', itbisRate: 18, itemKind: 'service' }],
  };
  const response = await submit(key, note, { validate: true });
  assert.equal(response.statusCode, 422, response.body);
  assert.ok(
    ZSubmitValidationError.parse(response.json()).errors.some(
      (error) => error.code === 'REFERENCED_ENCF_NOT_ACCEPTED',
    ),
  );
});

test('status batch: found and unfound, lastError null in final states, more than 100 is 400', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const lastError = { code: 'TAXAUTH_UNAVAILABLE', message: 'no answer' };
  const waiting = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf(),
    status: 'contingency',
    lastError,
  });
  const accepted = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf(),
    status: 'accepted',
    lastError,
  });
  const cancelled = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf(),
    status: 'cancelled',
    lastError,
  });
  const other = await seedTenant(api.database);
  const foreign = await seedDocument(api.database, { tenantId: other.id, encf: nextEncf() });
  const batch = (payload: unknown) =>
    api.app.inject({
      method: 'POST',
      url: '/TesteCF/documentos-ecf/status/batch',
      headers: { 'x-api-key': key },
      payload: payload as Record<string, unknown>,
    });
  const response = await batch({
    encfs: [waiting.encf, accepted.encf, foreign.encf, 'E319999999999'],
    // By id too: one named both ways, and another tenant's (unfound, like its eNCF).
    documentReferences: [cancelled.id, accepted.id, foreign.id],
  });
  assert.equal(response.statusCode, 200);
  const body = ZStatusBatchResponse.parse(response.json());
  assert.deepEqual(
    body.found.map((item) => [item.encf, item.lastError?.['code'] ?? null]),
    [
      [waiting.encf, 'TAXAUTH_UNAVAILABLE'],
      [accepted.encf, null],
      [cancelled.encf, null],
      [accepted.encf, null],
    ],
  );
  assert.deepEqual(body.unfound, [foreign.encf, 'E319999999999', foreign.id]);
  assert.equal(
    (
      await batch({
        encfs: Array.from({ length: 100 }, (_, index) => `E31${String(index).padStart(10, '0')}`),
      })
    ).statusCode,
    200,
  );
  const tooMany = await batch({
    encfs: Array.from({ length: 101 }, (_, index) => `E31${String(index).padStart(10, '0')}`),
  });
  assert.equal(tooMany.statusCode, 400);
  assert.equal(errorOf(tooMany).code, 'INVALID_REQUEST');
  assert.equal((await batch({ encfs: [] })).statusCode, 400);
});

test('contingency lists since, attempts, lastError and lastDeferredAt', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const since = new Date('2026-11-20T10:00:00Z');
  const document = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf(),
    status: 'contingency',
    contingencySince: since,
    lastError: { code: 'TAXAUTH_UNAVAILABLE', message: 'timeout' },
  });
  await api.database.document.update({
    where: { id: document.id },
    data: { attempts: 3, lastDeferredAt: new Date('2026-11-20T11:00:00Z') },
  });
  const response = await api.app.inject({
    method: 'GET',
    url: '/TesteCF/contingencia',
    headers: { 'x-api-key': key },
  });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json().items, [
    {
      documentId: document.id,
      encf: document.encf,
      type: 'E31',
      status: 'contingency',
      since: since.toISOString(),
      attempts: 3,
      lastError: 'timeout',
      lastDeferredAt: '2026-11-20T11:00:00.000Z',
    },
  ]);
});

test('XML honours Accept (clarification 17): application/xml, text/xml and their wildcards are served, anything else is 400 NOT_ACCEPTABLE', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const document = await seedDocument(api.database, { tenantId: tenant.id, encf: nextEncf() });
  await storeSignedXml(api.database, document, '<ECF><Encabezado/></ECF>');
  const get = (accept: string | undefined) =>
    api.app.inject({
      method: 'GET',
      url: `/TesteCF/documentos-ecf/${document.encf}/xml`,
      headers: { 'x-api-key': key, ...(accept === undefined ? {} : { accept }) },
    });
  for (const accept of [
    undefined,
    'application/xml',
    'text/xml',
    'application/*',
    '*/*',
    'text/html, */*;q=0.1',
  ]) {
    const response = await get(accept);
    assert.equal(response.statusCode, 200, String(accept));
    assert.match(String(response.headers['content-type']), /^application\/xml/);
  }
  for (const accept of ['application/pdf', 'application/json', 'application/xml;q=0']) {
    const refused = await get(accept);
    assert.equal(refused.statusCode, 400, accept);
    assert.equal(errorOf(refused).code, 'NOT_ACCEPTABLE');
    assert.match(String(refused.headers['content-type']), /^application\/json/);
  }
});

test('XML: 409 DOCUMENT_NOT_SIGNED before signing, then the stored bytes by documentId or eNCF; other tenants 404', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const document = await seedDocument(api.database, { tenantId: tenant.id, encf: nextEncf() });
  const get = (reference: string, apiKey = key, environment = 'TesteCF') =>
    api.app.inject({
      method: 'GET',
      url: `/${environment}/documentos-ecf/${reference}/xml`,
      headers: { 'x-api-key': apiKey, accept: 'application/xml' },
    });
  const unsigned = await get(document.encf);
  assert.equal(unsigned.statusCode, 409);
  assert.equal(errorOf(unsigned).code, 'DOCUMENT_NOT_SIGNED');
  const xml =
    '<?xml version="1.0" encoding="utf-8"?>\n<ECF><Encabezado>ñ &amp; á</Encabezado><Signature/></ECF>\r\n';
  await storeSignedXml(api.database, document, xml);
  for (const reference of [document.id, document.id.toUpperCase(), document.encf]) {
    const response = await get(reference);
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/xml/);
    assert.equal(
      response.headers['content-disposition'],
      `attachment; filename="${tenant.rnc}${document.encf}.xml"`,
    );
    assert.deepEqual(response.rawPayload, Buffer.from(xml, 'utf8'));
  }
  const { key: otherKey } = await seedTenantWithKey(api.database);
  for (const reference of [document.id, document.encf]) {
    const response = await get(reference, otherKey);
    assert.equal(response.statusCode, 404);
    assert.equal(errorOf(response).code, 'NOT_FOUND');
  }
  assert.equal(errorOf(await get(nextEncf(), otherKey)).code, 'NOT_FOUND');
  const { key: certKey } = await seedApiKey(api.database, { tenantId: tenant.id, environment: 'CerteCF' });
  assert.equal((await get(document.encf, certKey, 'CerteCF')).statusCode, 404);
  const bad = await get('not-a-reference');
  assert.equal(bad.statusCode, 400);
  assert.equal(errorOf(bad).code, 'INVALID_DOCUMENT_REFERENCE');
  const failed = await seedDocument(api.database, {
    tenantId: tenant.id,
    encf: nextEncf(),
    status: 'transmission_failed',
  });
  assert.equal((await get(failed.id)).statusCode, 404);
});

test('PDF: the 409 codes of the contract (rendering: routes/printed-representation.test.ts)', async () => {
  const { tenant, key } = await seedTenantWithKey(api.database);
  const cases: Array<[Parameters<typeof seedDocument>[1]['status'], number, string]> = [
    ['queued_for_signing', 409, 'DOCUMENT_NOT_SIGNED'],
    ['signed', 409, 'RI_AWAITING_TAXAUTH_RESPONSE'],
    ['rejected', 409, 'RI_NOT_DELIVERABLE_REJECTED'],
    ['transmission_failed', 409, 'RI_NOT_DELIVERABLE_NOT_TRANSMITTED'],
    ['cancelled', 409, 'RI_NOT_DELIVERABLE_CANCELLED'],
    // Deliverable but never signed (a seeded row): no signed XML to print from, like the XML download.
    ['accepted', 409, 'DOCUMENT_NOT_SIGNED'],
  ];
  for (const [status, code, errorCode] of cases) {
    const document = await seedDocument(api.database, { tenantId: tenant.id, encf: nextEncf(), status });
    const response = await api.app.inject({
      method: 'GET',
      url: `/TesteCF/documentos-ecf/${document.id}/pdf`,
      headers: { 'x-api-key': key },
    });
    assert.equal(response.statusCode, code, status);
    assert.equal(errorOf(response).code, errorCode);
  }
});
