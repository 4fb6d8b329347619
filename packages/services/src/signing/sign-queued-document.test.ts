// Longer than ~300 lines on purpose: every outcome of signing (both formats, certificate problems,
// races) shares one database, keyring and XSD set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { loadXsdValidators, OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { seedTenant } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import { createTestCertificate, verifyXmlSignature, type TXsdValidators } from '@ecf/fiscal-core';
import {
  createCertificateKeyring,
  storeTenantCertificate,
  type TCertificateKeyring,
} from '../accounts/index.ts';
import {
  seedQueuedDocument,
  SIGNING_TEST_SUBMITTED_AT,
  SIGNING_TEST_TENANT,
  simplifiedE31,
} from '../../test/signing-fixtures.ts';
import { signQueuedDocument } from './sign-queued-document.ts';

/** Signing time: ten minutes after submission, 11:10:00 in Santo Domingo. */
const SIGNED_AT = new Date(SIGNING_TEST_SUBMITTED_AT.getTime() + 10 * 60_000);

let context: Awaited<ReturnType<typeof openTestDatabase>>;
let validators: TXsdValidators;
let keyring: TCertificateKeyring;
let tenantId: string;
before(async () => {
  context = await openTestDatabase();
  validators = await loadXsdValidators(OFFICIAL_XSD_DIRECTORY);
  keyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
  const tenant = await seedTenant(context.database, SIGNING_TEST_TENANT);
  tenantId = tenant.id;
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Caribe Digital' });
  await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId,
    p12: certificate.p12,
    password: certificate.password,
  });
});
after(async () => {
  validators.dispose();
  await context.close();
});

test('a queued document is signed: XML stored write-once, verifiable and XSD-valid; status, security code, QR and event updated together', async () => {
  const document = await seedQueuedDocument(context.database, { tenantId, encf: 'E310000000101' });
  const result = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.equal(result.outcome, 'signed', JSON.stringify(result));
  assert.ok(result.outcome === 'signed');

  const artifact = await context.database.artifact.findFirstOrThrow({
    where: { documentId: document.id, kind: 'signed_xml' },
  });
  const xml = Buffer.from(artifact.content).toString('utf8');
  assert.equal(artifact.contentType, 'application/xml');
  assert.equal(artifact.sha256, createHash('sha256').update(artifact.content).digest('hex'));
  assert.equal(artifact.sizeBytes, artifact.content.length);
  assert.equal(artifact.sha256, result.sha256);

  const verification = verifyXmlSignature(xml);
  assert.ok(verification.valid, JSON.stringify(verification));
  assert.equal(verification.certificate.holderId, SIGNING_TEST_TENANT.rnc);
  const checked = validators.validateXml(xml);
  assert.ok(checked.success, JSON.stringify(!checked.success && checked.issues));
  assert.equal(checked.data.kind, 'ECF31');
  assert.match(xml, /<eNCF>E310000000101<\/eNCF>/);
  assert.match(xml, /<FechaHoraFirma>21-11-2026 11:10:00<\/FechaHoraFirma>/);

  const signatureValue = /<SignatureValue>([^<]+)<\/SignatureValue>/.exec(xml)?.[1] ?? '';
  assert.equal(verification.signatureValue.replace(/\s/g, ''), signatureValue.replace(/\s/g, ''));
  const stored = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(stored.status, 'signed');
  assert.equal(stored.securityCode, signatureValue.slice(0, 6));
  assert.equal(stored.signatureDate?.toISOString(), SIGNED_AT.toISOString());
  assert.equal(stored.lastError, null);
  assert.ok(stored.qrUrl?.startsWith('https://ecf.dgii.gov.do/testecf/ConsultaTimbre?'), stored.qrUrl ?? '');
  const qr = new URL(stored.qrUrl ?? '');
  assert.equal(qr.searchParams.get('RncEmisor'), SIGNING_TEST_TENANT.rnc);
  assert.equal(qr.searchParams.get('RncComprador'), '101672919');
  assert.equal(qr.searchParams.get('ENCF'), 'E310000000101');
  assert.equal(qr.searchParams.get('FechaEmision'), '21-11-2026');
  assert.equal(qr.searchParams.get('MontoTotal'), '8731.00');
  assert.equal(qr.searchParams.get('FechaFirma'), '21-11-2026 11:10:00');
  assert.equal(qr.searchParams.get('CodigoSeguridad'), stored.securityCode);

  const events = await context.database.documentEvent.findMany({
    where: { documentId: document.id, type: { not: 'submitted' } },
  });
  assert.equal(events.length, 1);
  assert.equal(events[0]?.type, 'signed');
  assert.equal(events[0]?.fromStatus, 'queued_for_signing');
  assert.equal(events[0]?.toStatus, 'signed');
  assert.equal((events[0]?.data as { sha256?: string }).sha256, artifact.sha256);

  // A second run (a redelivered job) changes nothing.
  const again = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: new Date(SIGNED_AT.getTime() + 60_000),
  });
  assert.deepEqual(again, {
    outcome: 'skipped',
    documentId: document.id,
    reason: 'not_queued',
    status: 'signed',
  });
  assert.equal(await context.database.artifact.count({ where: { documentId: document.id } }), 1);
  assert.equal(
    await context.database.documentEvent.count({
      where: { documentId: document.id, type: { not: 'submitted' } },
    }),
    1,
  );
  assert.equal(
    (await context.database.document.findUniqueOrThrow({ where: { id: document.id } })).securityCode,
    stored.securityCode,
  );
});

test('concurrent runs sign once: one artifact, one event, one security code', async () => {
  const document = await seedQueuedDocument(context.database, { tenantId, encf: 'E310000000102' });
  const results = await Promise.all(
    [0, 1, 2, 3].map((offset) =>
      signQueuedDocument({
        database: context.database,
        documentId: document.id,
        keyring,
        now: new Date(SIGNED_AT.getTime() + offset * 1000),
      }),
    ),
  );
  assert.equal(results.filter((result) => result.outcome === 'signed').length, 1, JSON.stringify(results));
  assert.equal(results.filter((result) => result.outcome === 'skipped').length, 3);
  const winner = results.find((result) => result.outcome === 'signed');
  assert.equal(await context.database.artifact.count({ where: { documentId: document.id } }), 1);
  assert.equal(
    await context.database.documentEvent.count({
      where: { documentId: document.id, type: { not: 'submitted' } },
    }),
    1,
  );
  const stored = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.ok(winner?.outcome === 'signed');
  assert.equal(stored.securityCode, winner.securityCode);
  assert.equal(
    (await context.database.artifact.findFirstOrThrow({ where: { documentId: document.id } })).sha256,
    winner.sha256,
  );
});

test('without the validated tree, the stored payload (jsonb, JSON string or object) is validated again and signed alike', async () => {
  const reference = await seedQueuedDocument(context.database, { tenantId, encf: 'E310000000110' });
  await signQueuedDocument({ database: context.database, documentId: reference.id, keyring, now: SIGNED_AT });
  const unsignedPart = async (documentId: string) => {
    const artifact = await context.database.artifact.findFirstOrThrow({ where: { documentId } });
    return Buffer.from(artifact.content)
      .toString('utf8')
      .replace(/<Signature[\s\S]*$/, '')
      .replace(/E31000000011\d/, 'E31…');
  };
  for (const [index, storage] of (['jsonb', 'string', 'object'] as const).entries()) {
    const encf = `E31000000011${index + 1}`;
    const document = await seedQueuedDocument(context.database, {
      tenantId,
      encf,
      storage,
      environment: 'CerteCF',
    });
    const result = await signQueuedDocument({
      database: context.database,
      documentId: document.id,
      keyring,
      now: SIGNED_AT,
      xsdValidators: validators,
    });
    assert.equal(result.outcome, 'signed', JSON.stringify(result));
    assert.ok(
      result.outcome === 'signed' &&
        result.qrUrl.startsWith('https://ecf.dgii.gov.do/certecf/ConsultaTimbre?'),
    );
    assert.equal(
      await unsignedPart(document.id),
      await unsignedPart(reference.id),
      `${storage}: same e-CF as the stored tree`,
    );
  }
});

test('the client signature date is kept as FechaHoraFirma', async () => {
  const body = { ...simplifiedE31('E310000000104'), signatureDate: '21-11-2026 10:59:30' };
  const document = await seedQueuedDocument(context.database, { tenantId, encf: 'E310000000104', body });
  const result = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.equal(result.outcome, 'signed', JSON.stringify(result));
  const stored = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(stored.signatureDate?.toISOString(), '2026-11-21T14:59:30.000Z');
});

test('without an active certificate the document stays queued with a retrying lastError, then signs once one is installed', async () => {
  const tenant = await seedTenant(context.database, { ...SIGNING_TEST_TENANT, rnc: '131880739' });
  const body = simplifiedE31('E310000000201');
  (body.issuer as { rnc: string }).rnc = tenant.rnc;
  const document = await seedQueuedDocument(context.database, {
    tenantId: tenant.id,
    encf: 'E310000000201',
    body,
  });

  for (let attempt = 0; attempt < 2; attempt += 1) {
    const result = await signQueuedDocument({
      database: context.database,
      documentId: document.id,
      keyring,
      now: SIGNED_AT,
    });
    assert.equal(result.outcome, 'deferred');
    assert.ok(
      result.outcome === 'deferred' &&
        result.error.code === 'CERTIFICATE_NOT_ACTIVE' &&
        result.error.retrying,
    );
  }
  const waiting = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(waiting.status, 'queued_for_signing');
  assert.deepEqual(waiting.lastError, {
    code: 'CERTIFICATE_NOT_ACTIVE',
    message:
      'The account has no active signing certificate; the document is signed as soon as one is installed.',
    retrying: true,
  });
  const deferredEvents = await context.database.documentEvent.findMany({
    where: { documentId: document.id, type: { not: 'submitted' } },
  });
  assert.deepEqual(
    deferredEvents.map((event) => event.type),
    ['signing_deferred'],
    'one event per distinct problem, not per retry',
  );
  assert.equal(await context.database.artifact.count({ where: { documentId: document.id } }), 0);

  // A certificate under a master key the worker does not have: still deferred, nothing leaks.
  const otherKeyring = createCertificateKeyring({ currentKey: randomBytes(32).toString('base64') });
  const certificate = createTestCertificate({ rnc: tenant.rnc, commonName: 'Firmante Nuevo' });
  await storeTenantCertificate({
    database: context.database,
    keyring: otherKeyring,
    tenantId: tenant.id,
    ...certificate,
  });
  const unavailable = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.ok(
    unavailable.outcome === 'deferred' && unavailable.error.code === 'SIGNING_CERTIFICATE_UNAVAILABLE',
  );

  await storeTenantCertificate({ database: context.database, keyring, tenantId: tenant.id, ...certificate });
  const signed = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.equal(signed.outcome, 'signed');
  const done = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(done.status, 'signed');
  assert.equal(done.lastError, null);
  const events = await context.database.documentEvent.findMany({
    where: { documentId: document.id, type: { not: 'submitted' } },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    events.map((event) => event.type),
    ['signing_deferred', 'signing_deferred', 'signed'],
  );
});

test('an expired active certificate defers signing with CERTIFICATE_EXPIRED', async () => {
  const tenant = await seedTenant(context.database, { ...SIGNING_TEST_TENANT, rnc: '131880740' });
  const body = simplifiedE31('E310000000301');
  (body.issuer as { rnc: string }).rnc = tenant.rnc;
  const document = await seedQueuedDocument(context.database, {
    tenantId: tenant.id,
    encf: 'E310000000301',
    body,
  });
  const certificate = createTestCertificate({
    rnc: tenant.rnc,
    commonName: 'Corto',
    validFrom: new Date('2026-01-01'),
    validTo: new Date('2026-11-21T15:05:00Z'),
  });
  await storeTenantCertificate({
    database: context.database,
    keyring,
    tenantId: tenant.id,
    ...certificate,
    now: new Date('2026-11-21T15:00:00Z'),
  });
  const result = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.ok(
    result.outcome === 'deferred' && result.error.code === 'CERTIFICATE_EXPIRED',
    JSON.stringify(result),
  );
  assert.equal(
    (await context.database.document.findUniqueOrThrow({ where: { id: document.id } })).status,
    'queued_for_signing',
  );
});

test('a stored submission that no longer validates is not signed: queued, lastError not retrying', async () => {
  const body = simplifiedE31('E310000000105');
  (body.issuer as { rnc: string }).rnc = '101010101';
  const document = await seedQueuedDocument(context.database, {
    tenantId,
    encf: 'E310000000105',
    body,
    storage: 'jsonb',
  });
  const result = await signQueuedDocument({
    database: context.database,
    documentId: document.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.ok(
    result.outcome === 'failed' && result.error.code === 'SIGNING_PAYLOAD_INVALID' && !result.error.retrying,
    JSON.stringify(result),
  );
  const stored = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(stored.status, 'queued_for_signing');
  assert.match(JSON.stringify(stored.lastError), /ISSUER_RNC_MISMATCH/);
  const events = await context.database.documentEvent.findMany({
    where: { documentId: document.id, type: { not: 'submitted' } },
  });
  assert.deepEqual(
    events.map((event) => event.type),
    ['signing_failed'],
  );

  const mismatch = await seedQueuedDocument(context.database, {
    tenantId,
    encf: 'E310000000106',
    body: simplifiedE31('E310000000107'),
    storage: 'string',
  });
  const mismatched = await signQueuedDocument({
    database: context.database,
    documentId: mismatch.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.ok(mismatched.outcome === 'failed' && mismatched.error.code === 'SIGNING_PAYLOAD_INVALID');

  assert.deepEqual(
    await signQueuedDocument({
      database: context.database,
      documentId: '00000000-0000-4000-8000-000000000000',
      keyring,
    }),
    {
      outcome: 'skipped',
      documentId: '00000000-0000-4000-8000-000000000000',
      reason: 'not_found',
    },
  );
});

test('claimTransmission: the signature also records the transmission claim (attempts 1, its event after `signed`), once', async () => {
  const document = await seedQueuedDocument(context.database, { tenantId, encf: 'E310000000901' });
  const runs = await Promise.all(
    [0, 1].map(() =>
      signQueuedDocument({
        database: context.database,
        documentId: document.id,
        keyring,
        now: SIGNED_AT,
        claimTransmission: true,
      }),
    ),
  );
  const signed = runs.find((run) => run.outcome === 'signed');
  assert.ok(signed?.outcome === 'signed');
  assert.deepEqual(signed.claimed, { attempt: 1, channel: 'ecf' });
  assert.equal(signed.document.attempts, 1);
  assert.deepEqual(runs.map((run) => run.outcome).sort(), ['signed', 'skipped']);
  const stored = await context.database.document.findUniqueOrThrow({ where: { id: document.id } });
  assert.equal(stored.status, 'signed');
  assert.equal(stored.attempts, 1);
  const log = await context.database.documentEvent.findMany({
    where: { documentId: document.id },
    orderBy: { id: 'asc' },
  });
  assert.deepEqual(
    log.map((event) => event.type),
    ['submitted', 'signed', 'transmission_attempt'],
  );
  assert.deepEqual(log[2]?.data, { attempt: 1, channel: 'ecf', at: SIGNED_AT.toISOString() });

  // Without the option (a signing that does not send), no claim.
  const plain = await seedQueuedDocument(context.database, { tenantId, encf: 'E310000000902' });
  const result = await signQueuedDocument({
    database: context.database,
    documentId: plain.id,
    keyring,
    now: SIGNED_AT,
  });
  assert.ok(result.outcome === 'signed');
  assert.equal(result.claimed, undefined);
  assert.equal((await context.database.document.findUniqueOrThrow({ where: { id: plain.id } })).attempts, 0);
});
