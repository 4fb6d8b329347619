// The pieces the Partner API's certification routes stand on (issue 20): test sets stored once and
// run from the case, cases created, refused when another is open, closed; the embed link's token;
// the application and sworn declaration signed with the account's certificate.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { seedTenant } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import {
  createTestCertificate,
  loadCertificate,
  verifyXmlSignature,
  type TSigningCertificate,
  type TXsdValidators,
} from '@ecf/fiscal-core';
import { recordingEnqueue } from '../../test/webhook-engine.ts';
import { createCertificateKeyring, storeTenantCertificate } from '../accounts/index.ts';
import { AppError } from '../shared/errors.ts';
import { checkCertificationEmbedToken, createCertificationEmbedToken } from './certification-embed.ts';
import {
  changeCertificationOfficialSet,
  closeCertificationCase,
  createCertificationCase,
} from './manage-certification-case.ts';
import { signCertificationXml } from './sign-certification-xml.ts';
import { startCertificationRun } from './start-certification-run.ts';
import { findCertificationTestSets, uploadCertificationTestSet } from './upload-certification-test-set.ts';
import {
  listAllOfficialSets,
  listOfficialSets,
  loadOfficialSet,
  retireOfficialSet,
} from './official-sets.ts';

const WORKBOOK = readFileSync(
  new URL(import.meta.resolve('@ecf/certification-sets/model/132641566-set-pruebas-ecf.xlsx')),
);

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let xsd: TXsdValidators;
before(async () => {
  context = await openTestDatabase();
  xsd = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
});
after(async () => {
  xsd.dispose();
  await context.close();
});

function certificateOf(rnc: string): TSigningCertificate {
  const generated = createTestCertificate({ rnc, commonName: `Firmante ${rnc}` });
  const loaded = loadCertificate({
    privateKeyPem: generated.privateKeyPem,
    certificatePem: generated.certificatePem,
  });
  if (!loaded.success) throw new Error('certificate');
  return loaded.data;
}

const codeOf = (code: string) => (error: unknown) => error instanceof AppError && error.code === code;

test('a test set uploaded once (the same bytes are one set), a case with it, a run of the case without a body', async () => {
  const tenant = await seedTenant(context.database, { rnc: '132641566' });
  const base = { database: context.database, tenant, environment: 'CerteCF' as const, xsd, now: new Date() };
  const uploaded = await uploadCertificationTestSet({
    ...base,
    body: { workbookBase64: WORKBOOK.toString('base64') },
  });
  const again = await uploadCertificationTestSet({
    ...base,
    body: { workbookBase64: WORKBOOK.toString('base64') },
  });
  assert.equal(again.testSetRef, uploaded.testSetRef);
  assert.equal(uploaded.rows, 29);
  assert.deepEqual(
    (await findCertificationTestSets({ database: context.database, tenantId: tenant.id })).map(
      (set) => set.testSetRef,
    ),
    [uploaded.testSetRef],
  );
  await assert.rejects(
    uploadCertificationTestSet({ ...base, body: { taxauthModel: true } }),
    codeOf('INVALID_CERTIFICATION_REQUEST'),
  );

  await assert.rejects(
    createCertificationCase({ database: context.database, tenantId: tenant.id, testSetRef: randomUUID() }),
    codeOf('NOT_FOUND'),
  );
  const created = await createCertificationCase({
    database: context.database,
    tenantId: tenant.id,
    testSetRef: uploaded.testSetRef,
  });
  assert.equal(created.created, true);
  const same = await createCertificationCase({
    database: context.database,
    tenantId: tenant.id,
    testSetRef: uploaded.testSetRef,
  });
  assert.equal(same.created, false);
  assert.equal(same.case.id, created.case.id);
  await assert.rejects(
    createCertificationCase({ database: context.database, tenantId: tenant.id }),
    codeOf('CERTIFICATION_CASE_ALREADY_OPEN'),
  );

  // The case's run: no set in the body, the case's test set.
  const generated = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante' });
  await storeTenantCertificate({
    database: context.database,
    keyring: createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') }),
    tenantId: tenant.id,
    p12: generated.p12,
    password: generated.password,
  });
  const started = await startCertificationRun({
    ...base,
    body: { part: 'data' },
    enqueue: recordingEnqueue(),
    caseId: created.case.id,
    idempotencyKey: 'run-1',
  });
  assert.equal(started.run.setId, uploaded.testSetRef);
  assert.equal(started.run.items.length, 25);
  // The same key and body replays; the same key with another body is a conflict.
  const replay = await startCertificationRun({
    ...base,
    body: { part: 'data' },
    enqueue: recordingEnqueue(),
    caseId: created.case.id,
    idempotencyKey: 'run-1',
  });
  assert.equal(replay.replayed, true);
  assert.equal(replay.run.runId, started.run.runId);
  await assert.rejects(
    startCertificationRun({
      ...base,
      body: { part: 'simulation' },
      enqueue: recordingEnqueue(),
      caseId: created.case.id,
      idempotencyKey: 'run-1',
    }),
    codeOf('IDEMPOTENCY_CONFLICT'),
  );
  // Not closed while the run is on its way.
  await assert.rejects(
    closeCertificationCase({
      database: context.database,
      tenantId: tenant.id,
      caseId: created.case.id,
      now: new Date(),
    }),
    codeOf('CERTIFICATION_RUN_IN_PROGRESS'),
  );
});

test('a case closed makes room for another; another account never sees it', async () => {
  const tenant = await seedTenant(context.database);
  const other = await seedTenant(context.database);
  const created = await createCertificationCase({ database: context.database, tenantId: tenant.id });
  await assert.rejects(
    closeCertificationCase({
      database: context.database,
      tenantId: other.id,
      caseId: created.case.id,
      now: new Date(),
    }),
    codeOf('NOT_FOUND'),
  );
  const closed = await closeCertificationCase({
    database: context.database,
    tenantId: tenant.id,
    caseId: created.case.id,
    now: new Date(),
  });
  assert.equal(closed.state, 'closed');
  const next = await createCertificationCase({ database: context.database, tenantId: tenant.id });
  assert.notEqual(next.case.id, created.case.id);
  assert.deepEqual(await listOfficialSets({ database: context.database }), { items: [], defaultRef: null });
});

test('official sets: loaded from the workbook, listed, run for the account RNC, retired out of the catalogue but kept for their cases', async () => {
  const { database } = context;
  const now = new Date();
  // The workbook is read and checked by the reader: a corrupt one, or the approvals workbook, is refused.
  await assert.rejects(
    loadOfficialSet({ database, ref: 'broken', name: 'Roto', content: Buffer.from('not a workbook'), now }),
    codeOf('CERTIFICATION_SET_INVALID'),
  );
  await assert.rejects(
    loadOfficialSet({ database, ref: 'bad ref!', name: 'x', content: WORKBOOK, now }),
    (error: unknown) => codeOf('INVALID_REQUEST')(error) && (error as AppError).details?.['field'] === 'ref',
  );
  const loaded = await loadOfficialSet({
    database,
    ref: 'dgii-2026-a',
    name: 'Set DGII 2026 A',
    description: 'Modelo de la DGII',
    content: WORKBOOK,
    now,
  });
  assert.deepEqual(
    { ref: loaded.ref, issuerRnc: loaded.issuerRnc, rows: loaded.rows, retiredAt: loaded.retiredAt },
    { ref: 'dgii-2026-a', issuerRnc: '132641566', rows: 29, retiredAt: null },
  );
  await assert.rejects(
    loadOfficialSet({ database, ref: 'dgii-2026-a', name: 'Otra vez', content: WORKBOOK, now }),
    (error: unknown) =>
      codeOf('INVALID_REQUEST')(error) && (error as AppError).details?.['reason'] === 'taken',
  );
  await loadOfficialSet({ database, ref: 'dgii-2026-b', name: 'Set DGII 2026 B', content: WORKBOOK, now });
  assert.deepEqual(await listOfficialSets({ database }), {
    items: [
      { ref: 'dgii-2026-a', name: 'Set DGII 2026 A', description: 'Modelo de la DGII' },
      { ref: 'dgii-2026-b', name: 'Set DGII 2026 B', description: '' },
    ],
    defaultRef: 'dgii-2026-b',
  });

  // A case on an official set, of an account of another RNC; its declarations are kept.
  const tenant = await seedTenant(context.database);
  const base = { database, tenant, environment: 'CerteCF' as const, xsd, now };
  await assert.rejects(
    createCertificationCase({ database, tenantId: tenant.id, officialSetRef: 'unknown' }),
    codeOf('NOT_FOUND'),
  );
  await assert.rejects(
    createCertificationCase({
      database,
      tenantId: tenant.id,
      officialSetRef: 'dgii-2026-a',
      declared: { ecfTypes: ['31', 'E99'] },
    }),
    (error: unknown) =>
      codeOf('INVALID_PARTNER_PAYLOAD')(error) && (error as AppError).details?.['path'] === 'ecfTypes.1',
  );
  const created = await createCertificationCase({
    database,
    tenantId: tenant.id,
    officialSetRef: 'dgii-2026-a',
    declared: { ecfTypes: ['E32', '31', '31'], b2bSimulation: true, notes: 'Inicio', actorRef: 'ana@erp' },
  });
  assert.deepEqual(
    {
      officialSetRef: created.case.officialSetRef,
      testSetId: created.case.testSetId,
      ecfTypes: created.case.ecfTypes,
      b2bSimulation: created.case.b2bSimulation,
      notes: created.case.notes,
      actorRef: created.case.actorRef,
    },
    {
      officialSetRef: 'dgii-2026-a',
      testSetId: null,
      ecfTypes: ['31', '32'],
      b2bSimulation: true,
      notes: 'Inicio',
      actorRef: 'ana@erp',
    },
  );
  // The same request is the open case again; other declarations are not silently dropped.
  const same = await createCertificationCase({
    database,
    tenantId: tenant.id,
    officialSetRef: 'dgii-2026-a',
    declared: { notes: 'Inicio' },
  });
  assert.equal(same.case.id, created.case.id);
  await assert.rejects(
    createCertificationCase({
      database,
      tenantId: tenant.id,
      officialSetRef: 'dgii-2026-a',
      declared: { b2bSimulation: false },
    }),
    (error: unknown) =>
      codeOf('CERTIFICATION_CASE_ALREADY_OPEN')(error) &&
      JSON.stringify((error as AppError).details?.['members']) === '["b2bSimulation"]',
  );

  // The run sends the official set's rows for this account's RNC.
  const generated = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante' });
  await storeTenantCertificate({
    database,
    keyring: createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') }),
    tenantId: tenant.id,
    p12: generated.p12,
    password: generated.password,
  });
  const started = await startCertificationRun({
    ...base,
    body: { part: 'data' },
    enqueue: recordingEnqueue(),
    caseId: created.case.id,
    idempotencyKey: 'official-run-1',
  });
  assert.equal(started.run.items.length, 25);
  assert.equal(started.run.source, 'workbook');
  assert.ok(started.run.setId !== null, 'the set kept for the account');
  const kept = await findCertificationTestSets({ database, tenantId: tenant.id });
  assert.deepEqual(
    kept.map((set) => ({ testSetRef: set.testSetRef, issuerRnc: set.issuerRnc })),
    [{ testSetRef: started.run.setId, issuerRnc: tenant.rnc }],
  );

  // Retired: out of the catalogue and of new choices; the case on it keeps it.
  const retired = await retireOfficialSet({ database, ref: 'dgii-2026-a', now });
  assert.equal(retired.openCases, 1);
  assert.ok(retired.retiredAt !== null);
  assert.deepEqual(await listOfficialSets({ database }), {
    items: [{ ref: 'dgii-2026-b', name: 'Set DGII 2026 B', description: '' }],
    defaultRef: 'dgii-2026-b',
  });
  assert.deepEqual(
    (await listAllOfficialSets({ database })).map((set) => [set.ref, set.retiredAt !== null]),
    [
      ['dgii-2026-a', true],
      ['dgii-2026-b', false],
    ],
  );
  await assert.rejects(retireOfficialSet({ database, ref: 'nope', now }), codeOf('NOT_FOUND'));
  const other = await seedTenant(context.database);
  await assert.rejects(
    createCertificationCase({ database, tenantId: other.id, officialSetRef: 'dgii-2026-a' }),
    codeOf('NOT_FOUND'),
  );
  const reread = await createCertificationCase({
    database,
    tenantId: tenant.id,
    officialSetRef: 'dgii-2026-a',
  });
  assert.equal(reread.case.id, created.case.id, 'the case on a retired set is still its open case');
  // Moving to another set waits for the run; a retired set is not a choice.
  await assert.rejects(
    changeCertificationOfficialSet({
      database,
      tenantId: tenant.id,
      caseId: created.case.id,
      officialSetRef: 'dgii-2026-b',
      now,
    }),
    codeOf('CERTIFICATION_RUN_IN_PROGRESS'),
  );
});

test('the embed token: the account and origin it names, forged or altered is not found, expired is 410', () => {
  const secret = 'a-test-secret-of-enough-length-000000';
  const now = new Date('2026-11-26T12:00:00Z');
  const { token, expiresAt } = createCertificationEmbedToken({
    tenantId: 'b2c3d4e5-0000-4000-8000-000000000001',
    origin: 'https://erp.example.com',
    now,
    secret,
  });
  assert.equal(expiresAt.toISOString(), '2026-11-26T12:15:00.000Z');
  assert.deepEqual(checkCertificationEmbedToken({ token, now, secret }), {
    tenantId: 'b2c3d4e5-0000-4000-8000-000000000001',
    origin: 'https://erp.example.com',
    expiresAt: expiresAt.getTime() / 1000,
  });
  const [payload = '', signature = ''] = token.split('.');
  for (const forged of [
    `${payload}.${signature.slice(1)}A`,
    `${Buffer.from('{"t":"x","o":"https://evil.example","e":9999999999}').toString('base64url')}.${signature}`,
    'not-a-token',
    `${token}.extra`,
  ]) {
    assert.throws(() => checkCertificationEmbedToken({ token: forged, now, secret }), codeOf('NOT_FOUND'));
  }
  assert.throws(
    () => checkCertificationEmbedToken({ token, now, secret: `${secret}x` }),
    codeOf('NOT_FOUND'),
  );
  assert.throws(
    () => checkCertificationEmbedToken({ token, now: new Date('2026-11-26T12:15:00Z'), secret }),
    codeOf('CERTIFICATION_EMBED_EXPIRED'),
  );
});

test('the sworn declaration signed with the account certificate (verifies); not XML, a DOCTYPE: 422', async () => {
  const tenant = await seedTenant(context.database);
  const certificate = certificateOf(tenant.rnc);
  const xml = `<?xml version="1.0" encoding="utf-8"?><DeclaracionJurada><RNC>${tenant.rnc}</RNC><Fecha>26-11-2026</Fecha></DeclaracionJurada>`;
  const signed = await signCertificationXml({
    database: context.database,
    tenantId: tenant.id,
    kind: 'sworn_declaration',
    xml,
    now: new Date(),
    loadCertificate: async () => certificate,
  });
  assert.ok(verifyXmlSignature(signed.signedXml).valid);
  assert.match(signed.signedXml, /<DeclaracionJurada>.*<Signature/s);
  for (const bad of ['not xml at all', '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>']) {
    await assert.rejects(
      signCertificationXml({
        database: context.database,
        tenantId: tenant.id,
        kind: 'application',
        xml: bad,
        now: new Date(),
        loadCertificate: async () => certificate,
      }),
      codeOf('CERTIFICATION_XML_INVALID'),
    );
  }
});
