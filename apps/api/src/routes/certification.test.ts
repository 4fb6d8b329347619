// Certification over HTTP (issue 19): every code of the contract's certification rows, the bodies
// read with the spec's own 400 codes, hostile input (not base64, oversized, corrupt workbooks, a
// workbook of another taxpayer, numbers instead of text, unknown columns), other tenants' runs, and
// that a refused request creates nothing. The runs themselves are driven by the worker (its tests).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { readCertificationWorkbook, type TWorkbookRow } from '@ecf/certification-sets';
import { seedApiKey, seedTenant, sqlPoolOf } from '@ecf/db';
import { createTestCertificate } from '@ecf/fiscal-core';
import { loadXsdValidators } from '@ecf/config';
import {
  advanceCertificationRun,
  createCertificateKeyring,
  getCertificationRun,
  storeTenantCertificate,
} from '@ecf/services';
import { startTestApi, TEST_XSD_DIRECTORY, type TTestApi } from '../../test/test-api.ts';

const modelPath = (name: string) => new URL(import.meta.resolve(`@ecf/certification-sets/model/${name}`));
const ECF_WORKBOOK = readFileSync(modelPath('132641566-set-pruebas-ecf.xlsx'));
const APPROVALS_WORKBOOK = readFileSync(modelPath('131256432-set-aprobaciones-comerciales.xlsx'));
const MASTER_KEY = randomBytes(32).toString('base64');

let api: TTestApi;
const keyring = createCertificateKeyring({ currentKey: MASTER_KEY });

type TAccount = { tenant: { id: string; rnc: string }; certeKey: string; testeKey: string; readKey: string };

async function seedAccount(options: { rnc?: string; certificate?: boolean } = {}): Promise<TAccount> {
  const tenant = await seedTenant(api.database, options.rnc === undefined ? {} : { rnc: options.rnc });
  if (options.certificate !== false) {
    const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: `Firmante ${tenant.rnc}` });
    await storeTenantCertificate({
      database: api.database,
      keyring,
      tenantId: tenant.id,
      p12: certificate.p12,
      password: certificate.password,
    });
  }
  const key = async (environment: 'CerteCF' | 'TesteCF', scopes: Array<'tenant:admin' | 'ecf:read'>) =>
    (await seedApiKey(api.database, { tenantId: tenant.id, environment, scopes })).key;
  return {
    tenant,
    certeKey: await key('CerteCF', ['tenant:admin']),
    testeKey: await key('TesteCF', ['tenant:admin']),
    readKey: await key('CerteCF', ['ecf:read']),
  };
}

/** The model's rows as the JSON form, for `rnc` (the model workbook is RNC 132641566's). */
async function jsonSetFor(
  rnc: string,
): Promise<{ ecf: Record<string, string>[]; rfce: Record<string, string>[] }> {
  const read = await readCertificationWorkbook({ content: ECF_WORKBOOK });
  if (!read.ok || read.workbook.kind !== 'ecf_set') throw new Error('model workbook');
  const rewrite = (row: TWorkbookRow) =>
    Object.fromEntries(
      Object.entries(row.values).map(([column, value]) => [
        column,
        column === 'RNCEmisor' ? rnc : column === 'CasoPrueba' ? `${rnc}${value.slice(9)}` : value,
      ]),
    );
  return { ecf: read.workbook.ecf.map(rewrite), rfce: read.workbook.rfce.map(rewrite) };
}

before(async () => {
  api = await startTestApi({ CERTIFICATE_MASTER_KEY: MASTER_KEY });
});
after(async () => {
  await api?.close();
});

function request(method: 'GET' | 'POST', url: string, key: string, body?: unknown) {
  return api.app.inject({
    method,
    url,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

const errorOf = (response: { json: () => unknown }) =>
  (response.json() as { error: { code: string; details: Record<string, unknown> } }).error;

/** One `certification.advance` step of a run, as the worker runs it (its jobs are not run here). */
async function advanceOnce(runId: string) {
  const pool = sqlPoolOf(api.database);
  const { rows } = await pool.query<{ generation: number; tenantId: string }>(
    `SELECT advance_generation AS generation, tenant_id AS "tenantId" FROM certification_runs WHERE id = $1`,
    [runId],
  );
  const xsd = await loadXsdValidators(TEST_XSD_DIRECTORY);
  try {
    const report = await advanceCertificationRun({
      database: api.database,
      runId,
      generation: rows[0]?.generation ?? -1,
      enqueue: async () => {},
      xsd,
      now: () => new Date(),
    });
    assert.ok(report.issued > 0, JSON.stringify(report));
  } finally {
    xsd.dispose();
  }
  return getCertificationRun({
    database: api.database,
    tenantId: rows[0]?.tenantId ?? '',
    environment: 'CerteCF',
    runId,
  });
}

/** The `document.sign` jobs queued for a document. */
async function signJobsOf(documentId: string): Promise<number> {
  const { rows } = await sqlPoolOf(api.database).query<{ count: number }>(
    `SELECT count(*)::int AS count FROM pgboss.job WHERE name = 'document.sign' AND data->>'documentId' = $1`,
    [documentId],
  );
  return rows[0]?.count ?? 0;
}

async function countRows(table: string, tenantId: string): Promise<number> {
  const { rows } = await sqlPoolOf(api.database).query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${table} WHERE tenant_id = $1`,
    [tenantId],
  );
  return rows[0]?.count ?? 0;
}

describe('access', () => {
  test('every route needs tenant:admin (403) and CerteCF (409 CERTIFICATION_ENVIRONMENT_REQUIRED)', async () => {
    const account = await seedAccount();
    const routes: Array<['GET' | 'POST', string, unknown]> = [
      ['GET', '/certificacion', undefined],
      ['POST', '/certificacion/prevalidar', { taxauthModel: true }],
      ['POST', '/certificacion', { taxauthModel: true }],
      ['GET', `/certificacion/${randomUUID()}`, undefined],
      ['GET', `/certificacion/${randomUUID()}/evidencia`, undefined],
      ['POST', '/certificacion/reiniciar', { part: 'data' }],
      ['GET', '/certificacion/aprobaciones-comerciales', undefined],
      [
        'POST',
        '/certificacion/aprobaciones-comerciales',
        { workbookBase64: APPROVALS_WORKBOOK.toString('base64') },
      ],
      ['POST', `/certificacion/documentos/${randomUUID()}/reenviar`, undefined],
      ['POST', '/certificacion/atestaciones', { step: 'test_service_urls' }],
    ];
    for (const [method, path, body] of routes) {
      const forbidden = await request(method, `/CerteCF${path}`, account.readKey, body);
      assert.equal(forbidden.statusCode, 403, `${method} ${path}`);
      assert.equal(errorOf(forbidden).code, 'INSUFFICIENT_SCOPE');
      const elsewhere = await request(method, `/TesteCF${path}`, account.testeKey, body);
      assert.equal(elsewhere.statusCode, 409, `${method} TesteCF${path}: ${elsewhere.body}`);
      assert.equal(errorOf(elsewhere).code, 'CERTIFICATION_ENVIRONMENT_REQUIRED');
    }
    assert.equal(await countRows('certification_cases', account.tenant.id), 0);
  });

  test('the case before anything: not started, the fifteen steps, the URLs to register', async () => {
    const account = await seedAccount();
    const response = await request('GET', '/CerteCF/certificacion', account.certeKey);
    assert.equal(response.statusCode, 200);
    const body = response.json<{
      state: string;
      caseId: string | null;
      steps: Array<{ step: string; state: string }>;
      nextAction: { step: string };
      serviceUrls: { test: { reception: string }; production: { reception: string } };
    }>();
    assert.equal(body.state, 'not_started');
    assert.equal(body.caseId, null);
    assert.equal(body.steps.length, 15);
    assert.equal(body.steps[0]?.state, 'current');
    assert.equal(body.nextAction.step, 'registered');
    assert.equal(body.serviceUrls.test.reception, 'http://127.0.0.1:3000/CerteCF');
    assert.equal(body.serviceUrls.production.reception, 'http://127.0.0.1:3000/eCF');
  });
});

describe('the set request: 400 INVALID_CERTIFICATION_REQUEST with its reason', () => {
  const cases: Array<[string, unknown, string]> = [
    ['an array', [1, 2], 'not_an_object'],
    ['nothing', {}, 'set_missing'],
    ['taxauthModel false alone', { taxauthModel: false }, 'set_missing'],
    ['taxauthModel not a boolean', { taxauthModel: 'true' }, 'taxauth_model_not_boolean'],
    ['the model with an own set', { taxauthModel: true, workbookBase64: 'UEsDBA==' }, 'sources_combined'],
    ['two own sets', { workbookBase64: 'UEsDBA==', set: { ecf: [] } }, 'sources_combined'],
    ['an unknown property', { workbookBase64: 'UEsDBA==', extra: 1 }, 'invalid_fields'],
    ['a part that is not one', { workbookBase64: 'UEsDBA==', part: 'everything' }, 'invalid_fields'],
    ['workbookBase64 not a string', { workbookBase64: 12 }, 'invalid_fields'],
    ['not base64', { workbookBase64: 'this is not base64!' }, 'not_base64'],
    ['empty base64', { workbookBase64: '' }, 'empty'],
    ['over 700 KB', { workbookBase64: 'A'.repeat(700 * 1024 + 4) }, 'too_large'],
  ];
  for (const [name, body, reason] of cases) {
    test(name, async () => {
      const account = await seedAccount();
      for (const path of ['/CerteCF/certificacion/prevalidar', '/CerteCF/certificacion']) {
        const response = await request('POST', path, account.certeKey, body);
        assert.equal(response.statusCode, 400, `${path}: ${response.body}`);
        assert.equal(errorOf(response).code, 'INVALID_CERTIFICATION_REQUEST');
        assert.equal(errorOf(response).details['reason'], reason);
      }
      assert.equal(await countRows('certification_runs', account.tenant.id), 0);
    });
  }

  test('malformed JSON and invalid UTF-8 are INVALID_JSON', async () => {
    const account = await seedAccount();
    const broken = await request('POST', '/CerteCF/certificacion', account.certeKey, '{"workbookBase64": ');
    assert.equal(broken.statusCode, 400);
    assert.equal(errorOf(broken).code, 'INVALID_JSON');
    const invalid = await api.app.inject({
      method: 'POST',
      url: '/CerteCF/certificacion/prevalidar',
      headers: { 'x-api-key': account.certeKey, 'content-type': 'application/json' },
      payload: Buffer.concat([
        Buffer.from('{"workbookBase64":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}'),
      ]),
    });
    assert.equal(invalid.statusCode, 400);
    assert.equal(errorOf(invalid).code, 'INVALID_JSON');
  });
});

describe('prevalidar: the set read and validated, nothing stored or sent', () => {
  test('the model set as JSON rows of this account: 25 documents in send order, 4 RFCE, types as the tax authority mixes them', async () => {
    const account = await seedAccount();
    const response = await request('POST', '/CerteCF/certificacion/prevalidar', account.certeKey, {
      set: await jsonSetFor(account.tenant.rnc),
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<{
      part: string;
      issuerRnc: string;
      rows: { ecf: number; rfce: number };
      types: Record<string, number>;
      documents: Array<{ position: number; encf: string; dependsOn: string | null }>;
      alreadyUsedEncfs: string[];
    }>();
    assert.equal(body.part, 'data');
    assert.equal(body.issuerRnc, account.tenant.rnc);
    assert.deepEqual(body.rows, { ecf: 25, rfce: 4 });
    assert.deepEqual(body.types, {
      '31': 4,
      '32': 6,
      '33': 1,
      '34': 2,
      '41': 2,
      '43': 2,
      '44': 2,
      '45': 2,
      '46': 2,
      '47': 2,
    });
    for (const document of body.documents.filter((entry) => entry.dependsOn !== null)) {
      const original = body.documents.find((entry) => entry.encf === document.dependsOn);
      assert.ok(original && original.position < document.position);
    }
    assert.deepEqual(body.alreadyUsedEncfs, []);
    assert.equal(await countRows('certification_sets', account.tenant.id), 0);
    assert.equal(await countRows('certification_cases', account.tenant.id), 0);
  });

  test('a workbook of another RNC: 422 CERTIFICATION_SET_ISSUER_MISMATCH, row by row', async () => {
    const account = await seedAccount();
    const response = await request('POST', '/CerteCF/certificacion/prevalidar', account.certeKey, {
      workbookBase64: ECF_WORKBOOK.toString('base64'),
    });
    assert.equal(response.statusCode, 422);
    const error = errorOf(response);
    assert.equal(error.code, 'CERTIFICATION_SET_ISSUER_MISMATCH');
    assert.equal(error.details['expectedRnc'], account.tenant.rnc);
    const errors = error.details['errors'] as Array<{ sheet: string; row: number; column: string }>;
    assert.ok(
      errors.some((entry) => entry.sheet === 'ECF' && entry.row === 2 && entry.column === 'RNCEmisor'),
    );
  });

  test('a corrupt file, the approvals workbook, an unknown column, a number, an invalid row: 422 CERTIFICATION_SET_INVALID located', async () => {
    const account = await seedAccount();
    const post = (body: unknown) =>
      request('POST', '/CerteCF/certificacion/prevalidar', account.certeKey, body);
    const first = (response: { json: () => unknown }) =>
      (errorOf(response).details['errors'] as Array<Record<string, unknown>>)[0] ?? {};

    const corrupt = await post({ workbookBase64: randomBytes(3000).toString('base64') });
    assert.equal(corrupt.statusCode, 422);
    assert.equal(errorOf(corrupt).code, 'CERTIFICATION_SET_INVALID');
    assert.equal(first(corrupt)['code'], 'WORKBOOK_CORRUPT');

    const approvals = await post({ workbookBase64: APPROVALS_WORKBOOK.toString('base64') });
    assert.equal(approvals.statusCode, 422);
    assert.match(errorOf(approvals).code, /^CERTIFICATION_SET_(INVALID|ISSUER_MISMATCH)$/);

    const set = await jsonSetFor(account.tenant.rnc);
    const unknown = structuredClone(set);
    (unknown.ecf[3] as Record<string, string>)['ColumnaInventada[1]'] = 'x';
    const unknownResponse = await post({ set: unknown });
    assert.equal(unknownResponse.statusCode, 422);
    assert.deepEqual(
      {
        sheet: first(unknownResponse)['sheet'],
        column: first(unknownResponse)['column'],
        code: first(unknownResponse)['code'],
      },
      { sheet: 'ECF', column: 'ColumnaInventada[1]', code: 'WORKBOOK_COLUMN_UNKNOWN' },
    );

    const numeric = structuredClone(set) as { ecf: Array<Record<string, unknown>>; rfce: unknown[] };
    (numeric.ecf[0] as Record<string, unknown>)['MontoTotal'] = 118;
    const numericResponse = await post({ set: numeric });
    assert.equal(numericResponse.statusCode, 422);
    assert.deepEqual(
      {
        row: first(numericResponse)['row'],
        column: first(numericResponse)['column'],
        code: first(numericResponse)['code'],
      },
      { row: 1, column: 'MontoTotal', code: 'WORKBOOK_VALUE_NOT_TEXT' },
    );

    const invalid = structuredClone(set);
    (invalid.ecf[0] as Record<string, string>)['MontoTotal'] = '1,000.00';
    const invalidResponse = await post({ set: invalid });
    assert.equal(invalidResponse.statusCode, 422);
    const located = (errorOf(invalidResponse).details['errors'] as Array<Record<string, unknown>>).find(
      (entry) => entry['code'] === 'DECIMAL_FORMAT_INVALID',
    );
    assert.ok(located, invalidResponse.body);
    assert.equal(located['sheet'], 'ECF');
    assert.equal(located['row'], 1);
    assert.equal(located['column'], 'MontoTotal');
    assert.equal(await countRows('certification_sets', account.tenant.id), 0);
  });

  test('the tax authority model before the commercial approvals: 409 CERTIFICATION_OWN_SET_REQUIRED; a simulation before them: 409', async () => {
    const account = await seedAccount();
    const model = await request('POST', '/CerteCF/certificacion/prevalidar', account.certeKey, {
      taxauthModel: true,
    });
    assert.equal(model.statusCode, 409);
    assert.equal(errorOf(model).code, 'CERTIFICATION_OWN_SET_REQUIRED');
    const simulation = await request('POST', '/CerteCF/certificacion/prevalidar', account.certeKey, {
      set: await jsonSetFor(account.tenant.rnc),
      part: 'simulation',
    });
    assert.equal(simulation.statusCode, 409);
    assert.equal(errorOf(simulation).code, 'CERTIFICATION_SIMULATION_NOT_READY');
  });
});

describe('runs', () => {
  test('without an active certificate: 409 CERTIFICATE_NOT_ACTIVE and nothing created', async () => {
    const account = await seedAccount({ certificate: false });
    const response = await request('POST', '/CerteCF/certificacion', account.certeKey, {
      set: await jsonSetFor(account.tenant.rnc),
    });
    assert.equal(response.statusCode, 409);
    assert.equal(errorOf(response).code, 'CERTIFICATE_NOT_ACTIVE');
    assert.equal(await countRows('certification_cases', account.tenant.id), 0);
    assert.equal(await countRows('certification_sets', account.tenant.id), 0);
    assert.equal(await countRows('certification_runs', account.tenant.id), 0);
  });

  test('202 with the run; one run at a time; GET it; another tenant cannot; evidence; restart stops it', async () => {
    const account = await seedAccount();
    const other = await seedAccount();
    const set = await jsonSetFor(account.tenant.rnc);
    const started = await request('POST', '/CerteCF/certificacion', account.certeKey, { set });
    assert.equal(started.statusCode, 202, started.body);
    const run = started.json<{
      runId: string;
      state: string;
      part: string;
      items: unknown[];
      totals: { documents: number };
    }>();
    assert.equal(run.state, 'queued');
    assert.equal(run.part, 'data');
    assert.equal(run.totals.documents, 25);

    const again = await request('POST', '/CerteCF/certificacion', account.certeKey, { set });
    assert.equal(again.statusCode, 409);
    assert.equal(errorOf(again).code, 'CERTIFICATION_RUN_IN_PROGRESS');
    assert.equal(errorOf(again).details['runId'], run.runId);

    const read = await request('GET', `/CerteCF/certificacion/${run.runId}`, account.certeKey);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json<{ runId: string }>().runId, run.runId);
    const foreign = await request('GET', `/CerteCF/certificacion/${run.runId}`, other.certeKey);
    assert.equal(foreign.statusCode, 404);
    assert.equal(errorOf(foreign).code, 'NOT_FOUND');
    const foreignEvidence = await request(
      'GET',
      `/CerteCF/certificacion/${run.runId}/evidencia`,
      other.certeKey,
    );
    assert.equal(foreignEvidence.statusCode, 404);
    const notUuid = await request('GET', '/CerteCF/certificacion/not-a-uuid', account.certeKey);
    assert.equal(notUuid.statusCode, 400);

    const evidence = await request('GET', `/CerteCF/certificacion/${run.runId}/evidencia`, account.certeKey);
    assert.equal(evidence.statusCode, 200);
    const zip = evidence.json<{ content: string; sha256: string; final: boolean; size: number }>();
    assert.equal(zip.final, false);
    const files = unzipSync(Buffer.from(zip.content, 'base64'));
    const manifest = JSON.parse(Buffer.from(files['manifest.json'] ?? new Uint8Array()).toString('utf8')) as {
      runId: string;
      files: Array<{ name: string }>;
    };
    assert.equal(manifest.runId, run.runId);
    assert.ok(manifest.files.some((file) => file.name === 'run.json'));
    assert.ok(manifest.files.some((file) => file.name === 'set/rows.json'));

    const caseView = (await request('GET', '/CerteCF/certificacion', account.certeKey)).json<{
      state: string;
      steps: Array<{ step: string; state: string; source: string | null }>;
    }>();
    assert.equal(caseView.state, 'in_progress');
    assert.equal(caseView.steps[0]?.state, 'done');
    assert.equal(caseView.steps[0]?.source, 'set');

    const restarted = await request('POST', '/CerteCF/certificacion/reiniciar', account.certeKey, {
      part: 'data',
    });
    assert.equal(restarted.statusCode, 200, restarted.body);
    assert.equal(restarted.json<{ stoppedRunId: string }>().stoppedRunId, run.runId);
    const stopped = (await request('GET', `/CerteCF/certificacion/${run.runId}`, account.certeKey)).json<{
      state: string;
      totals: { stopped: number };
    }>();
    assert.equal(stopped.state, 'stopped');
    assert.equal(stopped.totals.stopped, 25);
    // Nothing of it was sent (no worker here): the same eNCFs may run again.
    const rerun = await request('POST', '/CerteCF/certificacion', account.certeKey, { set });
    assert.equal(rerun.statusCode, 202, rerun.body);
  });

  test('reiniciar reads { part } and nothing else: 400 CERTIFICATION_PART_INVALID', async () => {
    const account = await seedAccount();
    for (const body of [{}, { part: 'both' }, { part: 'data', extra: true }, [], 'data']) {
      const response = await request('POST', '/CerteCF/certificacion/reiniciar', account.certeKey, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.match(errorOf(response).code, /^(CERTIFICATION_PART_INVALID|INVALID_JSON)$/);
    }
    const fine = await request('POST', '/CerteCF/certificacion/reiniciar', account.certeKey, {
      part: 'simulation',
    });
    assert.equal(fine.statusCode, 200);
  });

  test('reenviar: a receipt the run issued and nobody signed yet goes to signing now (202, a document.sign job)', async () => {
    const account = await seedAccount();
    const started = await request('POST', '/CerteCF/certificacion', account.certeKey, {
      set: await jsonSetFor(account.tenant.rnc),
    });
    assert.equal(started.statusCode, 202, started.body);
    const runId = started.json<{ runId: string }>().runId;
    // One step of the run, as the worker takes it: the originals are issued (no worker signs them here).
    const issued = await advanceOnce(runId);
    const item = issued.items.find((entry) => entry.documentId !== null);
    assert.ok(item?.documentId);
    const resent = await request(
      'POST',
      `/CerteCF/certificacion/documentos/${item.documentId}/reenviar`,
      account.certeKey,
    );
    assert.equal(resent.statusCode, 202, resent.body);
    const { correlationId: _correlationId, ...body } = resent.json<Record<string, unknown>>();
    assert.deepEqual(body, {
      ok: true,
      environment: 'CerteCF',
      documentId: item.documentId,
      encf: item.encf,
      status: 'queued_for_signing',
      action: 'signing',
    });
    assert.equal(await signJobsOf(item.documentId), 1);
  });

  test('reenviar: a document id that is not a UUID is 400, one that is not a certification receipt 404', async () => {
    const account = await seedAccount();
    const bad = await request('POST', '/CerteCF/certificacion/documentos/nope/reenviar', account.certeKey);
    assert.equal(bad.statusCode, 400);
    const absent = await request(
      'POST',
      `/CerteCF/certificacion/documentos/${randomUUID()}/reenviar`,
      account.certeKey,
    );
    assert.equal(absent.statusCode, 404);
    assert.equal(errorOf(absent).code, 'NOT_FOUND');
  });

  test('atestaciones: in order only (409 CERTIFICATION_PREREQUISITES_MISSING), a step no person attests is 400', async () => {
    const account = await seedAccount();
    const early = await request('POST', '/CerteCF/certificacion/atestaciones', account.certeKey, {
      step: 'test_service_urls',
    });
    assert.equal(early.statusCode, 409);
    assert.equal(errorOf(early).code, 'CERTIFICATION_PREREQUISITES_MISSING');
    const automatic = await request('POST', '/CerteCF/certificacion/atestaciones', account.certeKey, {
      step: 'finished',
    });
    assert.equal(automatic.statusCode, 400);
    assert.equal(errorOf(automatic).code, 'INVALID_CERTIFICATION_REQUEST');
    const tooLong = await request('POST', '/CerteCF/certificacion/atestaciones', account.certeKey, {
      step: 'registered',
      notes: 'x'.repeat(4001),
    });
    assert.equal(tooLong.statusCode, 400);
    // Step 1 (registered at the tax authority's portal) is attested before any set: it opens the
    // case; a later step still names what is missing, no longer step 1.
    const registered = await request('POST', '/CerteCF/certificacion/atestaciones', account.certeKey, {
      step: 'registered',
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const again = await request('POST', '/CerteCF/certificacion/atestaciones', account.certeKey, {
      step: 'test_service_urls',
    });
    assert.equal(again.statusCode, 409);
    const missing = (errorOf(again).details as { missingSteps: string[] }).missingSteps;
    assert.ok(missing.includes('data_tests_ecf') && !missing.includes('registered'), missing.join());
  });
});

describe('commercial approval tests', () => {
  test('GET before any: null; the body is { workbookBase64 } only (400 COMMERCIAL_APPROVAL_SET_REQUIRED)', async () => {
    const account = await seedAccount();
    const none = await request('GET', '/CerteCF/certificacion/aprobaciones-comerciales', account.certeKey);
    assert.equal(none.statusCode, 200);
    assert.equal(none.json<{ commercialApprovals: unknown }>().commercialApprovals, null);
    for (const body of [
      {},
      { workbookBase64: '' },
      { workbookBase64: 'not base64 at all!' },
      { workbookBase64: 'UEsDBA==', extra: 1 },
    ]) {
      const response = await request(
        'POST',
        '/CerteCF/certificacion/aprobaciones-comerciales',
        account.certeKey,
        body,
      );
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(errorOf(response).code, 'COMMERCIAL_APPROVAL_SET_REQUIRED');
    }
  });

  test('before the data tests: 409 CERTIFICATION_DATA_TESTS_PENDING; then another buyer, a wrong workbook, a corrupt one: 422; then 202 and 409 while in progress', async () => {
    const buyer = await seedAccount({ rnc: '131256432' });
    const post = (key: string, content: Buffer) =>
      request('POST', '/CerteCF/certificacion/aprobaciones-comerciales', key, {
        workbookBase64: content.toString('base64'),
      });
    const pending = await post(buyer.certeKey, APPROVALS_WORKBOOK);
    assert.equal(pending.statusCode, 409);
    assert.equal(errorOf(pending).code, 'CERTIFICATION_DATA_TESTS_PENDING');

    // The data tests accepted: a case whose data step is complete.
    const started = await request('POST', '/CerteCF/certificacion', buyer.certeKey, {
      set: await jsonSetFor(buyer.tenant.rnc),
    });
    assert.equal(started.statusCode, 202);
    const runId = started.json<{ runId: string }>().runId;
    const pool = sqlPoolOf(api.database);
    await pool.query(`UPDATE certification_runs SET state = 'succeeded' WHERE id = $1`, [runId]);
    await pool.query(
      `INSERT INTO certification_step_completions (case_id, step, source, reference)
       SELECT case_id, 'data_tests_ecf', 'run', id::text FROM certification_runs WHERE id = $1`,
      [runId],
    );

    const other = await seedAccount();
    await pool.query(`INSERT INTO certification_cases (id, tenant_id) VALUES (gen_random_uuid(), $1)`, [
      other.tenant.id,
    ]);
    await pool.query(
      `INSERT INTO certification_step_completions (case_id, step, source)
       SELECT id, 'data_tests_ecf', 'run' FROM certification_cases WHERE tenant_id = $1`,
      [other.tenant.id],
    );
    const otherTaxpayer = await post(other.certeKey, APPROVALS_WORKBOOK);
    assert.equal(otherTaxpayer.statusCode, 422);
    assert.equal(errorOf(otherTaxpayer).code, 'COMMERCIAL_APPROVAL_SET_OTHER_TAXPAYER');
    assert.equal(errorOf(otherTaxpayer).details['expectedRnc'], other.tenant.rnc);
    const wrong = await post(buyer.certeKey, ECF_WORKBOOK);
    assert.equal(wrong.statusCode, 422);
    assert.equal(errorOf(wrong).code, 'COMMERCIAL_APPROVAL_SET_INVALID');
    const corrupt = await post(buyer.certeKey, randomBytes(2000));
    assert.equal(corrupt.statusCode, 422);
    assert.equal(errorOf(corrupt).code, 'COMMERCIAL_APPROVAL_SET_INVALID');

    const sent = await post(buyer.certeKey, APPROVALS_WORKBOOK);
    assert.equal(sent.statusCode, 202, sent.body);
    const approvals = sent.json<{ commercialApprovals: { state: string; totals: { approvals: number } } }>()
      .commercialApprovals;
    assert.equal(approvals.state, 'queued');
    assert.equal(approvals.totals.approvals, 11);
    const busy = await post(buyer.certeKey, APPROVALS_WORKBOOK);
    assert.equal(busy.statusCode, 409);
    assert.equal(errorOf(busy).code, 'COMMERCIAL_APPROVALS_IN_PROGRESS');
    const progress = await request('GET', '/CerteCF/certificacion/aprobaciones-comerciales', buyer.certeKey);
    assert.equal(
      progress.json<{ commercialApprovals: { items: unknown[] } }>().commercialApprovals.items.length,
      11,
    );
  });
});
