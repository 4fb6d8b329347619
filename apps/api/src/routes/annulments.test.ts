// Sequences and annulments over HTTP (issue 17): the contract's refusals (428, 400 with field
// paths, 403 without tenant:admin), hostile input (malformed JSON, reversed and overlapping ranges,
// another type's prefix, 10,000-number ranges, other tenants' documents never in conflicts), and
// the send / replay / reconcile cycle against the tax authority simulator.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { seedApiKey, seedDocument, seedTenant } from '@ecf/db';
import { createTestDatabase, type TTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, loadCertificate, type TSigningCertificate } from '@ecf/fiscal-core';
import { createTaxauthClients } from '@ecf/taxauth-client';
import { startSimulator } from '@ecf/taxauth-sim';
import { startTestApi, TEST_XSD_DIRECTORY, type TTestApi } from '../../test/test-api.ts';

let api: TTestApi;
let simulatorDatabase: TTestDatabase;
let simulator: Awaited<ReturnType<typeof startSimulator>>;
const certificates = new Map<string, TSigningCertificate>();

type TAccount = { tenant: { id: string; rnc: string }; key: string; certeKey: string; readKey: string };
let account: TAccount;
let other: TAccount;

function certificateOf(rnc: string): TSigningCertificate {
  const cached = certificates.get(rnc);
  if (cached) return cached;
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('test certificate');
  certificates.set(rnc, loaded.data);
  return loaded.data;
}

async function seedAccount(): Promise<TAccount> {
  const tenant = await seedTenant(api.database);
  certificateOf(tenant.rnc);
  const { key } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['tenant:admin'],
  });
  const { key: certeKey } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'CerteCF',
    scopes: ['tenant:admin'],
  });
  const { key: readKey } = await seedApiKey(api.database, {
    tenantId: tenant.id,
    environment: 'TesteCF',
    scopes: ['ecf:validate', 'ecf:create', 'ecf:read', 'status:read'],
  });
  return { tenant, key, certeKey, readKey };
}

before(async () => {
  simulatorDatabase = await createTestDatabase({ migrated: false });
  simulator = await startSimulator({
    databaseUrl: simulatorDatabase.url,
    xsdDirectory: TEST_XSD_DIRECTORY,
    logLevel: 'silent',
    port: 0,
  });
  api = await startTestApi({}, undefined, {
    taxauthClientFor: createTaxauthClients({
      baseUrls: { ecf: simulator.baseUrl, fc: simulator.baseUrl, status: simulator.baseUrl },
      timeoutMs: 3000,
    }),
    loadCertificate: async (tenantId: string) => {
      const tenant = await api.database.tenant.findUniqueOrThrow({ where: { id: tenantId } });
      return certificateOf(tenant.rnc);
    },
  });
  account = await seedAccount();
  other = await seedAccount();
});
after(async () => {
  await api?.close();
  await simulator?.close();
  await simulatorDatabase?.drop();
});

/** A fresh block of `size` numbers of a type, never used by another test of this file. */
let block = 0;
function freshRange(type = '31', size = 10): { type: string; from: string; to: string } {
  block += 1;
  const start = (Date.now() % 100_000) * 100_000 + block * 20_000 + 1;
  const encf = (sequence: number) => `E${type}${String(sequence).padStart(10, '0')}`;
  return { type, from: encf(start), to: encf(start + size - 1) };
}

const encfAt = (range: { type: string; from: string }, offset: number) =>
  `E${range.type}${String(Number(range.from.slice(3)) + offset).padStart(10, '0')}`;

function post(url: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  return api.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string; details: Record<string, unknown> } }).error;

describe('authentication and the Idempotency-Key', () => {
  test('every route needs tenant:admin: a standard key is 403 INSUFFICIENT_SCOPE', async () => {
    const range = freshRange();
    for (const [method, url, body] of [
      ['GET', '/TesteCF/secuencias', undefined],
      ['POST', '/TesteCF/secuencias', { ...range, sequenceExpirationDate: '2028-12-31' }],
      ['POST', '/TesteCF/anulaciones-ecf/prevalidar', { ranges: [range] }],
      ['POST', '/TesteCF/anulaciones-ecf', { ranges: [range] }],
      ['GET', `/TesteCF/anulaciones-ecf/${randomUUID()}`, undefined],
    ] as const) {
      const response = await api.app.inject({
        method,
        url,
        headers: { 'x-api-key': account.readKey, 'content-type': 'application/json', 'idempotency-key': 'k' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      assert.equal(response.statusCode, 403, `${method} ${url}`);
      assert.equal(errorOf(response).code, 'INSUFFICIENT_SCOPE');
    }
  });

  test('send without Idempotency-Key: 428, nothing stored; an empty key too', async () => {
    const range = freshRange();
    for (const headers of [{}, { 'idempotency-key': '' }, { 'idempotency-key': '   ' }] as Array<
      Record<string, string>
    >) {
      const response = await post('/TesteCF/anulaciones-ecf', account.key, { ranges: [range] }, headers);
      assert.equal(response.statusCode, 428);
      assert.equal(errorOf(response).code, 'ANECF_IDEMPOTENCY_KEY_REQUIRED');
    }
    // Even a malformed body: the key is looked at first.
    const malformed = await post('/TesteCF/anulaciones-ecf', account.key, { ranges: 'x' });
    assert.equal(malformed.statusCode, 428);
  });

  test('a key of 201 characters, or with spaces or non-ASCII, is 400; 200 characters is taken', async () => {
    const range = freshRange();
    for (const key of ['k'.repeat(201), 'two words', 'clave-ñ']) {
      const response = await post(
        '/TesteCF/anulaciones-ecf',
        account.key,
        { ranges: [range] },
        {
          'idempotency-key': key,
        },
      );
      assert.equal(response.statusCode, 400, key);
      assert.equal(errorOf(response).details['reason'], 'idempotency_key_invalid');
    }
    const response = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      { ranges: [range] },
      {
        'idempotency-key': 'k'.repeat(200),
      },
    );
    assert.notEqual(response.statusCode, 400, response.body);
    assert.notEqual(response.statusCode, 428);
  });
});

describe('hostile bodies', () => {
  test('malformed JSON, an empty body, a wrong content type: 400 before any use-case', async () => {
    for (const url of ['/TesteCF/secuencias', '/TesteCF/anulaciones-ecf/prevalidar']) {
      const syntax = await post(url, account.key, '{"ranges": [');
      assert.equal(syntax.statusCode, 400);
      assert.equal(errorOf(syntax).code, 'INVALID_JSON');
      const duplicate = await post(url, account.key, '{"type":"31","type":"32"}');
      assert.equal(errorOf(duplicate).code, 'INVALID_JSON');
      const empty = await post(url, account.key, '');
      assert.equal(empty.statusCode, 400);
      const text = await api.app.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': account.key, 'content-type': 'text/plain' },
        payload: 'ranges',
      });
      assert.equal(text.statusCode, 400);
      assert.equal(errorOf(text).code, 'UNSUPPORTED_CONTENT_TYPE');
    }
  });

  test('unknown properties, non-eNCF ends, no ranges: 400 INVALID_REQUEST with the field paths', async () => {
    const range = freshRange();
    const cases: Array<[unknown, string]> = [
      [{ ranges: [range], extra: true }, ''],
      [{ ranges: [{ ...range, note: 'x' }] }, 'ranges.0'],
      [{ ranges: [{ ...range, from: 'E31000000001' }] }, 'ranges.0.from'],
      [{ ranges: [{ ...range, to: 'B0100000001' }] }, 'ranges.0.to'],
      [{ ranges: [{ ...range, type: '99' }] }, 'ranges.0.type'],
      [{ ranges: [] }, 'ranges'],
      [{ ranges: [range], reason: 'x'.repeat(501) }, 'reason'],
      [[range], ''],
    ];
    for (const [body, path] of cases) {
      const response = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      const error = errorOf(response);
      assert.equal(error.code, 'INVALID_REQUEST');
      const issues = error.details['issues'] as Array<{ path: string }>;
      assert.ok(
        issues.some((issue) => issue.path === path),
        `${JSON.stringify(body)}: ${JSON.stringify(issues)}`,
      );
    }
  });

  test('reversed, overlapping and other-prefix ranges: 400 ANECF_INVALID on the offending range', async () => {
    const range = freshRange('31', 100);
    const reversed = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, {
      ranges: [{ type: '31', from: range.to, to: range.from }],
    });
    assert.equal(reversed.statusCode, 400);
    assert.equal(errorOf(reversed).code, 'ANECF_INVALID');
    assert.deepEqual(
      (errorOf(reversed).details['errors'] as Array<{ path: string; code: string }>).map((issue) => [
        issue.path,
        issue.code,
      ]),
      [['ranges[0]', 'ANNULMENT_RANGE_REVERSED']],
    );

    const overlapping = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, {
      ranges: [range, { type: '31', from: encfAt(range, 99), to: encfAt(range, 150) }],
    });
    assert.equal(overlapping.statusCode, 400);
    const overlap = errorOf(overlapping).details['errors'] as Array<{ path: string; code: string }>;
    assert.deepEqual(
      overlap.map((issue) => [issue.path, issue.code]),
      [['ranges[1]', 'ANNULMENT_RANGES_OVERLAP']],
    );

    // An E32 number in a range of type 31 (another type's prefix).
    const prefix = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, {
      ranges: [{ type: '31', from: range.from, to: `E32${range.to.slice(3)}` }],
    });
    assert.equal(prefix.statusCode, 400);
    const mismatch = errorOf(prefix).details['errors'] as Array<{ path: string; code: string }>;
    assert.deepEqual(
      mismatch.map((issue) => [issue.path, issue.code]),
      [['ranges[0].to', 'ANNULMENT_RANGE_TYPE_MISMATCH']],
    );
  });

  test('a 10,000-number range prevalidates in one answer; ranges of all ten types fit one ANECF', async () => {
    const range = freshRange('32', 10_000);
    const started = Date.now();
    const response = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, { ranges: [range] });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.status, 'validated');
    assert.equal(body.totalEncf, 10_000);
    assert.ok(Date.now() - started < 10_000, 'looked up by range, not number by number');

    const types = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47'];
    const eleven = [...types.map((type) => freshRange(type, 1)), freshRange('31', 1)];
    const many = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, { ranges: eleven });
    // Ten types is the most one ANECF holds; eleven ranges of ten types are fine.
    assert.equal(many.statusCode, 200, many.body);
  });

  test('10,001 ranges of one type: 400 ANECF_INVALID ANNULMENT_TOO_MANY_RANGES, answered fast', async () => {
    const first = freshRange('31', 20_002);
    const start = Number(first.from.slice(3));
    const ranges = Array.from({ length: 10_001 }, (_unused, index) => {
      const encf = `E31${String(start + index * 2).padStart(10, '0')}`;
      return { type: '31', from: encf, to: encf };
    });
    const started = Date.now();
    const response = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, { ranges });
    assert.equal(response.statusCode, 400, response.body.slice(0, 500));
    const error = errorOf(response);
    assert.equal(error.code, 'ANECF_INVALID');
    assert.ok(
      (error.details['errors'] as Array<{ code: string }>).some(
        (issue) => issue.code === 'ANNULMENT_TOO_MANY_RANGES',
      ),
    );
    assert.ok(Date.now() - started < 10_000);
  });

  test('CerteCF: 400 ANECF_NOT_AVAILABLE_IN_CERTECF', async () => {
    const response = await post('/CerteCF/anulaciones-ecf/prevalidar', account.certeKey, {
      ranges: [freshRange()],
    });
    assert.equal(response.statusCode, 400);
    assert.equal(errorOf(response).code, 'ANECF_NOT_AVAILABLE_IN_CERTECF');
  });
});

describe('conflicts', () => {
  test('a document that left blocks the range with its reason; another tenant’s same eNCF never shows', async () => {
    const range = freshRange('31', 20);
    const accepted = await seedDocument(api.database, {
      tenantId: account.tenant.id,
      encf: encfAt(range, 3),
      status: 'accepted',
    });
    const contingency = await seedDocument(api.database, {
      tenantId: account.tenant.id,
      encf: encfAt(range, 7),
      status: 'contingency',
      contingencySince: new Date(),
    });
    // The other tenant used numbers of the same range (same eNCF text): none of this tenant's business.
    for (const offset of [3, 5, 7, 9])
      await seedDocument(api.database, {
        tenantId: other.tenant.id,
        encf: encfAt(range, offset),
        status: 'accepted',
      });

    const response = await post('/TesteCF/anulaciones-ecf/prevalidar', account.key, { ranges: [range] });
    assert.equal(response.statusCode, 400, response.body);
    const error = errorOf(response);
    assert.equal(error.code, 'ANECF_DOCUMENT_CONFLICT');
    const conflicts = error.details['conflicts'] as Array<{
      encf: string;
      documentId: string;
      status: string;
      reason: string;
    }>;
    assert.deepEqual(
      conflicts
        .map((conflict) => [conflict.encf, conflict.documentId, conflict.status, conflict.reason])
        .sort(),
      [
        [accepted.encf, accepted.id, 'accepted', 'document_already_submitted_or_taxauth_validated'],
        [contingency.encf, contingency.id, 'contingency', 'document_in_contingency'],
      ].sort(),
    );

    // The other tenant's view of the same range: only its own four documents.
    const theirs = await post('/TesteCF/anulaciones-ecf/prevalidar', other.key, { ranges: [range] });
    const theirConflicts = errorOf(theirs).details['conflicts'] as Array<{ documentId: string }>;
    assert.equal(theirConflicts.length, 4);
    assert.ok(
      !theirConflicts.some((conflict) => [accepted.id, contingency.id].includes(conflict.documentId)),
    );
  });
});

describe('sequences', () => {
  test('register (201), list with counts, overlap 409, reversed and other prefix 400', async () => {
    const range = freshRange('31', 10_000);
    const created = await post('/TesteCF/secuencias', account.key, {
      ...range,
      type: 'E31',
      sequenceExpirationDate: '2028-12-31',
    });
    assert.equal(created.statusCode, 201, created.body);
    const sequence = created.json().sequence;
    assert.equal(sequence.type, '31');
    assert.equal(sequence.from, range.from);
    assert.equal(sequence.counts.total, 10_000);

    await seedDocument(api.database, {
      tenantId: account.tenant.id,
      encf: encfAt(range, 0),
      status: 'accepted',
    });
    await seedDocument(api.database, {
      tenantId: other.tenant.id,
      encf: encfAt(range, 1),
      status: 'accepted',
    });
    const list = await api.app.inject({
      method: 'GET',
      url: '/TesteCF/secuencias',
      headers: { 'x-api-key': account.key },
    });
    assert.equal(list.statusCode, 200);
    const listed = list
      .json()
      .items.find((item: { sequenceId: string }) => item.sequenceId === sequence.sequenceId);
    assert.deepEqual(listed.counts, { total: 10_000, used: 1, annulled: 0, free: 9_999 });
    // The other tenant sees none of this tenant's ranges.
    const theirs = await api.app.inject({
      method: 'GET',
      url: '/TesteCF/secuencias',
      headers: { 'x-api-key': other.key },
    });
    assert.ok(
      !theirs.json().items.some((item: { sequenceId: string }) => item.sequenceId === sequence.sequenceId),
    );

    const overlapping = await post('/TesteCF/secuencias', account.key, {
      type: '31',
      from: encfAt(range, 9_999),
      to: encfAt(range, 10_500),
      sequenceExpirationDate: '2028-12-31',
    });
    assert.equal(overlapping.statusCode, 409);
    assert.equal(errorOf(overlapping).code, 'SEQUENCE_RANGE_OVERLAP');
    // The same numbers for another tenant are not an overlap.
    const otherTenant = await post('/TesteCF/secuencias', other.key, {
      ...range,
      sequenceExpirationDate: '2028-12-31',
    });
    assert.equal(otherTenant.statusCode, 201, otherTenant.body);

    const reversed = await post('/TesteCF/secuencias', account.key, {
      type: '31',
      from: range.to,
      to: range.from,
      sequenceExpirationDate: '2028-12-31',
    });
    assert.equal(reversed.statusCode, 400);
    assert.equal(errorOf(reversed).code, 'SEQUENCE_RANGE_INVALID');
    assert.equal(errorOf(reversed).details['reason'], 'reversed');

    const prefix = freshRange('31', 5);
    const mismatch = await post('/TesteCF/secuencias', account.key, {
      type: '31',
      from: prefix.from,
      to: `E32${prefix.to.slice(3)}`,
      sequenceExpirationDate: '2028-12-31',
    });
    assert.equal(mismatch.statusCode, 400);
    assert.equal(errorOf(mismatch).code, 'SEQUENCE_RANGE_INVALID');
    assert.equal(errorOf(mismatch).details['reason'], 'type_mismatch');
  });
});

describe('send, replay, state, reconcile', () => {
  test('accepted (202): replay 200, same key other body 409, overlapping range 409 ANECF_RANGE_RESERVED', async () => {
    const range = freshRange('31', 50);
    const signed = await seedDocument(api.database, {
      tenantId: account.tenant.id,
      encf: encfAt(range, 10),
      status: 'signed',
    });
    const key = randomUUID();
    const sent = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      { ranges: [range], reason: 'Caja 3' },
      {
        'idempotency-key': key,
      },
    );
    assert.equal(sent.statusCode, 202, sent.body);
    const body = sent.json();
    assert.equal(body.ok, true);
    assert.equal(body.status, 'accepted');
    assert.equal(body.reason, 'Caja 3');
    assert.deepEqual(body.coveredDocuments.cancelled, [{ documentId: signed.id, encf: signed.encf }]);

    const replay = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      { ranges: [range], reason: 'Caja 3' },
      {
        'idempotency-key': key,
      },
    );
    assert.equal(replay.statusCode, 200);
    assert.equal(replay.json().annulmentId, body.annulmentId);

    const otherBody = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      { ranges: [range] },
      {
        'idempotency-key': key,
      },
    );
    assert.equal(otherBody.statusCode, 409);
    assert.equal(errorOf(otherBody).code, 'ANECF_IDEMPOTENCY_CONFLICT');

    const again = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      {
        ranges: [{ type: '31', from: encfAt(range, 49), to: encfAt(range, 60) }],
      },
      { 'idempotency-key': randomUUID() },
    );
    assert.equal(again.statusCode, 409);
    assert.equal(errorOf(again).code, 'ANECF_RANGE_RESERVED');

    const state = await api.app.inject({
      method: 'GET',
      url: `/TesteCF/anulaciones-ecf/${body.annulmentId}`,
      headers: { 'x-api-key': account.key },
    });
    assert.equal(state.statusCode, 200);
    assert.equal(state.json().status, 'accepted');
    // Another tenant's annulment is not found; neither is a malformed id.
    const hidden = await api.app.inject({
      method: 'GET',
      url: `/TesteCF/anulaciones-ecf/${body.annulmentId}`,
      headers: { 'x-api-key': other.key },
    });
    assert.equal(hidden.statusCode, 404);
    const malformed = await api.app.inject({
      method: 'GET',
      url: '/TesteCF/anulaciones-ecf/not-a-uuid',
      headers: { 'x-api-key': account.key },
    });
    assert.equal(malformed.statusCode, 400);

    // Reconciling an accepted annulment is a 409.
    const reconcile = await post(`/TesteCF/anulaciones-ecf/${body.annulmentId}/reconciliar`, account.key, {
      outcome: 'accepted',
      evidence: { content: 'codigo 1' },
    });
    assert.equal(reconcile.statusCode, 409);
    assert.equal(errorOf(reconcile).code, 'ANECF_NOT_UNCERTAIN');
  });

  test('uncertain (502) on a lost answer, then reconciled once (200, replay 200, other outcome 409)', async () => {
    const faults = await fetch(`${simulator.baseUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environment: '*', service: 'anulacionrangos', fault: 'lose_answer', count: 1 }),
    });
    assert.equal(faults.status, 201);
    const range = freshRange('31', 5);
    const sent = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      { ranges: [range] },
      {
        'idempotency-key': randomUUID(),
      },
    );
    assert.equal(sent.statusCode, 502, sent.body);
    const body = sent.json();
    assert.equal(body.ok, false);
    assert.equal(body.status, 'uncertain');

    const request = {
      outcome: 'accepted',
      evidence: { content: '{"codigo":"1"}', contentType: 'application/json' },
    };
    const url = `/TesteCF/anulaciones-ecf/${body.annulmentId}/reconciliar`;
    const first = await post(url, account.key, request);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().status, 'accepted');
    assert.match(first.json().reconciliation.evidenceSha256, /^[0-9a-f]{64}$/);
    const replay = await post(url, account.key, request);
    assert.equal(replay.statusCode, 200);
    const conflicting = await post(url, account.key, { ...request, outcome: 'rejected' });
    assert.equal(conflicting.statusCode, 409);
    // Another tenant cannot reconcile it.
    const hidden = await post(url, other.key, request);
    assert.equal(hidden.statusCode, 404);
  });

  test('a partial annulment is uncertain too (502): never resent, reconcile', async () => {
    const faults = await fetch(`${simulator.baseUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        environment: '*',
        service: 'anulacionrangos',
        fault: 'partial_annulment',
        count: 1,
      }),
    });
    assert.equal(faults.status, 201);
    const sent = await post(
      '/TesteCF/anulaciones-ecf',
      account.key,
      { ranges: [freshRange('31', 4)] },
      {
        'idempotency-key': randomUUID(),
      },
    );
    assert.equal(sent.statusCode, 502, sent.body);
    assert.equal(sent.json().status, 'uncertain');
    assert.ok(sent.json().taxauth === null || Array.isArray(sent.json().taxauth.mensajes));
  });
});

describe('the list (GET /{environment}/anulaciones-ecf)', () => {
  test('newest first in cursor pages, a status filter, only this account; bad query 400', async () => {
    const lister = await seedAccount();
    const sentIds: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const sent = await post(
        '/TesteCF/anulaciones-ecf',
        lister.key,
        { ranges: [freshRange('32', 3)] },
        { 'idempotency-key': randomUUID() },
      );
      assert.equal(sent.statusCode, 202, sent.body);
      sentIds.push(sent.json().annulmentId);
    }
    // Another account's annulment never shows in this list.
    const foreign = await post(
      '/TesteCF/anulaciones-ecf',
      other.key,
      { ranges: [freshRange('32', 2)] },
      { 'idempotency-key': randomUUID() },
    );
    assert.equal(foreign.statusCode, 202, foreign.body);

    const get = (query: string, key = lister.key) =>
      api.app.inject({
        method: 'GET',
        url: `/TesteCF/anulaciones-ecf${query}`,
        headers: { 'x-api-key': key },
      });
    const first = await get('?limit=2');
    assert.equal(first.statusCode, 200, first.body);
    const firstBody = first.json();
    assert.deepEqual(
      firstBody.items.map((item: { annulmentId: string }) => item.annulmentId),
      [sentIds[2], sentIds[1]],
    );
    assert.equal(firstBody.items[0].status, 'accepted');
    assert.deepEqual(firstBody.items[0].coveredCounts, { cancelled: 0, skipped: 0 });
    assert.equal(firstBody.items[0].totalEncf, 3);
    assert.equal('coveredDocuments' in firstBody.items[0], false);
    assert.equal(typeof firstBody.nextCursor, 'string');
    const second = await get(`?limit=2&cursor=${encodeURIComponent(firstBody.nextCursor)}`);
    assert.equal(second.statusCode, 200, second.body);
    assert.deepEqual(
      second.json().items.map((item: { annulmentId: string }) => item.annulmentId),
      [sentIds[0]],
    );
    assert.equal(second.json().nextCursor, null);

    const uncertainOnly = await get('?status=uncertain');
    assert.equal(uncertainOnly.statusCode, 200);
    assert.deepEqual(uncertainOnly.json().items, []);
    // A cursor is bound to its filter; a forged one is refused with the field path.
    const otherFilter = await get(`?status=accepted&cursor=${encodeURIComponent(firstBody.nextCursor)}`);
    assert.equal(otherFilter.statusCode, 400);
    assert.equal(errorOf(otherFilter).code, 'INVALID_REQUEST');
    const forged = await get('?cursor=bm90LWEtY3Vyc29y');
    assert.equal(forged.statusCode, 400);
    assert.equal((errorOf(forged).details.issues as Array<{ path: string }>)[0]?.path, 'cursor');
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?status=done', '?unknown=1']) {
      const refused = await get(query);
      assert.equal(refused.statusCode, 400, `${query}: ${refused.body}`);
    }
    // Scope: a key without tenant:admin is 403.
    const standard = await get('', lister.readKey);
    assert.equal(standard.statusCode, 403);
  });
});
