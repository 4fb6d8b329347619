/**
 * Sending a commercial approval (ACECF) end to end against the real tax authority simulator and a
 * local issuer endpoint: every rule and code of the spec's "ACECF POST rules", the dispatch outbox
 * (5 attempts, dispatch_failed, uncertain, resend), reconciliation, the 4 KB cap, the ACECF checked
 * against the official XSD and with xmlsec1.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { seedTenant } from '@ecf/db';
import { AppError } from '../shared/errors.ts';
import { certificateFor } from '../../test/transmission-harness.ts';
import { openCommercialApprovalHarness, recordingEnqueue } from '../../test/commercial-approval-harness.ts';
import { dispatchCommercialApproval } from './dispatch-commercial-approval.ts';
import { getCommercialApproval } from './get-commercial-approval.ts';
import { reconcileCommercialApproval } from './reconcile-commercial-approval.ts';
import { ZCommercialApprovalRequest, type TCommercialApprovalRequest } from '@ecf/contract';
import {
  submitCommercialApproval,
  type TSubmitCommercialApprovalOptions,
} from './submit-commercial-approval.ts';

let harness: Awaited<ReturnType<typeof openCommercialApprovalHarness>>;
let directory: string;
const recorded = recordingEnqueue();

before(async () => {
  harness = await openCommercialApprovalHarness();
  directory = mkdtempSync(join(tmpdir(), 'acecf-'));
});
after(async () => {
  rmSync(directory, { recursive: true, force: true });
  await harness.close();
});

const NOW_ISO = () => new Date(Date.now() - 60_000).toISOString();

function submit(
  inboundDocumentId: string,
  request: Partial<TCommercialApprovalRequest> & { decision?: 'accept' | 'reject' },
  extra: Partial<TSubmitCommercialApprovalOptions> = {},
) {
  return submitCommercialApproval({
    database: harness.database,
    tenant: harness.tenant,
    environment: 'TesteCF',
    inboundDocumentId,
    request: { decision: 'accept', approvalDate: NOW_ISO(), ...request },
    xsd: harness.xsd,
    clientFor: harness.clientFor,
    enqueue: recorded.enqueue,
    loadCertificate: async () => harness.certificate,
    dispatch: { timeoutMs: 1500 },
    ...extra,
  });
}

async function rejectsWith(promise: Promise<unknown>, code: string, status: number): Promise<AppError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof AppError, `expected AppError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.status, status);
  return caught;
}

async function storedAcecf(
  commercialApprovalId: string,
): Promise<{ xml: string; retainUntil: Date | null; createdAt: Date }> {
  const row = await harness.database.commercialApproval.findUniqueOrThrow({
    where: { id: commercialApprovalId },
  });
  const artifact = await harness.database.artifact.findUniqueOrThrow({
    where: { id: row.acecfArtifactId ?? '' },
  });
  return {
    xml: Buffer.from(artifact.content).toString('utf8'),
    retainUntil: artifact.retainUntil,
    createdAt: artifact.createdAt,
  };
}

function xmlsecVerify(xml: string, certificatePem: string): boolean {
  const documentPath = join(directory, `acecf-${Math.random().toString(36).slice(2)}.xml`);
  const trustedPath = join(directory, `trusted-${Math.random().toString(36).slice(2)}.pem`);
  writeFileSync(documentPath, xml);
  writeFileSync(trustedPath, certificatePem);
  const run = spawnSync(
    'xmlsec1',
    [
      '--verify',
      '--trusted-pem',
      trustedPath,
      '--verification-gmt-time',
      '2027-06-01 12:00:00',
      documentPath,
    ],
    {
      encoding: 'utf8',
    },
  );
  if (run.error !== undefined) throw new Error(`xmlsec1 could not be run: ${run.error.message}`);
  return run.status === 0 && /^OK$/m.test(`${run.stdout}${run.stderr}`);
}

function tag(xml: string, name: string): string | undefined {
  return new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];
}

describe('accept in TesteCF: signed, accepted by the tax authority, dispatched to the issuer', () => {
  test('202, the ACECF matches the received e-CF, passes the XSD and xmlsec1, kept 10 years, outbox job enqueued', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    const jobsBefore = recorded.jobs.length;
    const result = await submit(seeded.inbound.id, { decision: 'accept' });
    assert.equal(result.httpStatus, 202);
    const approval = result.commercialApproval;
    assert.equal(approval.status, 'signed');
    assert.equal(approval.targetSource, 'directory');
    assert.equal(approval.targetUrl, `${harness.issuer.urlOf('ok')}/fe/aprobacioncomercial/api/ecf`);
    assert.equal(approval.taxauth.status, 'accepted');
    assert.equal(approval.dispatch.status, 'sent');
    assert.equal(approval.dispatch.attempts, 1);
    assert.equal(approval.dispatch.httpStatus, 200);

    const stored = await storedAcecf(approval.id);
    assert.equal(tag(stored.xml, 'RNCEmisor'), seeded.supplierRnc);
    assert.equal(tag(stored.xml, 'eNCF'), seeded.encf);
    assert.equal(tag(stored.xml, 'FechaEmision'), '01-04-2026');
    assert.equal(tag(stored.xml, 'MontoTotal'), '236.00');
    assert.equal(tag(stored.xml, 'RNCComprador'), harness.tenant.rnc);
    assert.equal(tag(stored.xml, 'Estado'), '1');
    assert.equal(tag(stored.xml, 'DetalleMotivoRechazo'), undefined);
    const xsd = harness.xsd.validateXml(stored.xml, 'ACECF');
    assert.ok(xsd.success, JSON.stringify(xsd));
    assert.ok(xmlsecVerify(stored.xml, certificateFor(harness.tenant.rnc).certificatePem));
    assert.ok(
      !xmlsecVerify(
        stored.xml.replace('<Estado>1</Estado>', '<Estado>2</Estado>'),
        certificateFor(harness.tenant.rnc).certificatePem,
      ),
    );
    const years = ((stored.retainUntil?.getTime() ?? 0) - stored.createdAt.getTime()) / (365.25 * 86_400_000);
    assert.ok(years > 9.99 && years < 10.01, `retained ${years} years`);

    // The issuer got exactly the stored bytes, as multipart `xml`.
    const posts = harness.issuer.postsOf('ok').filter((post) => post.body.includes(seeded.encf));
    assert.equal(posts.length, 1);
    assert.ok(posts[0]?.body.includes(stored.xml));
    // The outbox job committed with the acceptance.
    const jobs = recorded.jobs.slice(jobsBefore);
    assert.deepEqual(
      jobs.map((job) => [job.name, job.payload]),
      [['commercial-approval.dispatch', { commercialApprovalId: approval.id }]],
    );
    // A redelivered job finds it final and POSTs nothing.
    const report = await dispatchCommercialApproval({
      database: harness.database,
      commercialApprovalId: approval.id,
    });
    assert.equal(report.next, 'done');
    assert.equal(harness.issuer.postsOf('ok').filter((post) => post.body.includes(seeded.encf)).length, 1);

    const got = await getCommercialApproval({
      database: harness.database,
      tenantId: harness.tenant.id,
      environment: 'TesteCF',
      inboundDocumentId: seeded.inbound.id,
    });
    assert.equal(got.commercialApproval?.id, approval.id);
  });

  test('the same decision again is idempotent (200, nothing sent); another decision is 409', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    const first = await submit(seeded.inbound.id, { decision: 'accept' });
    const again = await submit(seeded.inbound.id, { decision: 'accept' });
    assert.equal(again.httpStatus, 200);
    assert.equal(again.replayed, true);
    assert.equal(again.commercialApproval.id, first.commercialApproval.id);
    assert.equal(harness.issuer.postsOf('ok').filter((post) => post.body.includes(seeded.encf)).length, 1);
    const conflict = await rejectsWith(
      submit(seeded.inbound.id, { decision: 'reject', rejectionReason: 'Mercancía dañada' }),
      'COMMERCIAL_APPROVAL_DECISION_CONFLICT',
      409,
    );
    assert.equal(conflict.details['decision'], 'accept');
  });

  test('reject carries DetalleMotivoRechazo; the request schema requires it', async () => {
    assert.equal(
      ZCommercialApprovalRequest.safeParse({ decision: 'reject', approvalDate: NOW_ISO() }).success,
      false,
    );
    const withReason = ZCommercialApprovalRequest.safeParse({
      decision: 'accept',
      approvalDate: NOW_ISO(),
      rejectionReason: 'x',
    });
    assert.equal(withReason.success, false);
    assert.deepEqual(withReason.error?.issues[0]?.path, ['rejectionReason']);
    assert.equal(
      ZCommercialApprovalRequest.safeParse({
        decision: 'reject',
        approvalDate: NOW_ISO(),
        rejectionReason: 'x'.repeat(251),
      }).success,
      false,
    );
    assert.equal(
      ZCommercialApprovalRequest.safeParse({ decision: 'accept', approvalDate: NOW_ISO(), extra: 1 }).success,
      false,
    );
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    const result = await submit(seeded.inbound.id, {
      decision: 'reject',
      rejectionReason: 'Precio & cantidad <incorrectos>',
    });
    assert.equal(result.httpStatus, 202);
    const stored = await storedAcecf(result.commercialApproval.id);
    assert.equal(tag(stored.xml, 'Estado'), '2');
    assert.equal(tag(stored.xml, 'DetalleMotivoRechazo'), 'Precio &amp; cantidad &lt;incorrectos&gt;');
    assert.ok(harness.xsd.validateXml(stored.xml, 'ACECF').success);
  });
});

describe('approvalDate', () => {
  test('invalid, before the issue date, in the future: 422 with details.reason, nothing signed or sent', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    const cases: Array<[string, string]> = [
      ['2026-02-30T10:00:00', 'invalid'],
      ['not a date', 'invalid'],
      ['2026-04-01T25:00:00', 'invalid'],
      ['31-03-2026 23:59:59', 'before_issue_date'],
      ['2026-04-01T02:00:00Z', 'before_issue_date'],
      [new Date(Date.now() + 10 * 60_000).toISOString(), 'in_future'],
    ];
    for (const [approvalDate, reason] of cases) {
      const error = await rejectsWith(
        submit(seeded.inbound.id, { approvalDate }),
        'COMMERCIAL_APPROVAL_DATE_INVALID',
        422,
      );
      assert.equal(error.details['reason'], reason, approvalDate);
    }
    assert.equal(
      await harness.database.commercialApproval.count({ where: { inboundDocumentId: seeded.inbound.id } }),
      0,
    );
    // The issue date itself (Dominican time) and now + 4 minutes are fine.
    const ok = await submit(seeded.inbound.id, {
      approvalDate: new Date(Date.now() + 4 * 60_000).toISOString(),
    });
    assert.equal(ok.httpStatus, 202);
  });
});

describe('validity, directory, targetUrl', () => {
  test('accept of an e-CF reported rejected or not found: 409 with details.taxauthValidity; reject allowed; never asked: allowed', async () => {
    const validity = { status: 'rejected', estado: 'Rechazado', checkedAt: '2026-04-02T10:00:00Z' };
    const seeded = await harness.seedReceivedEcf({ mode: 'ok', taxauthValidity: validity });
    const error = await rejectsWith(submit(seeded.inbound.id, {}), 'RECEIVED_ECF_NOT_VALID_IN_TAXAUTH', 409);
    assert.deepEqual(error.details['taxauthValidity'], validity);
    const rejected = await submit(seeded.inbound.id, { decision: 'reject', rejectionReason: 'No válido' });
    assert.equal(rejected.httpStatus, 202);
    const notFound = await harness.seedReceivedEcf({
      mode: 'ok',
      taxauthValidity: { estado: 'No fue encontrada la factura (e-CF)' },
    });
    await rejectsWith(submit(notFound.inbound.id, {}), 'RECEIVED_ECF_NOT_VALID_IN_TAXAUTH', 409);
    const valid = await harness.seedReceivedEcf({
      mode: 'ok',
      taxauthValidity: { status: 'accepted', estado: 'Aceptado' },
    });
    assert.equal((await submit(valid.inbound.id, {})).httpStatus, 202);
  });

  test('targetUrl while the issuer is in the directory: 422 with details.directoryTargetUrl', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    const error = await rejectsWith(
      submit(seeded.inbound.id, { targetUrl: `${harness.issuer.urlOf('elsewhere')}` }),
      'ACECF_TARGET_URL_NOT_ALLOWED',
      422,
    );
    assert.equal(
      error.details['directoryTargetUrl'],
      `${harness.issuer.urlOf('ok')}/fe/aprobacioncomercial/api/ecf`,
    );
    assert.equal(
      await harness.database.commercialApproval.count({ where: { inboundDocumentId: seeded.inbound.id } }),
      0,
    );
  });

  test('issuer not in the directory: targetUrl is used; without one, 200 generated without dispatch', async () => {
    const withTarget = await harness.seedReceivedEcf({ mode: null });
    const sent = await submit(withTarget.inbound.id, {
      targetUrl: `${harness.issuer.urlOf('byrequest')}/fe/aprobacioncomercial/api/ecf`,
    });
    assert.equal(sent.httpStatus, 202);
    assert.equal(sent.commercialApproval.targetSource, 'request');
    assert.equal(harness.issuer.postsOf('byrequest').length, 1);
    const without = await harness.seedReceivedEcf({ mode: null });
    const generated = await submit(without.inbound.id, {});
    assert.equal(generated.httpStatus, 200);
    assert.equal(generated.commercialApproval.targetSource, 'none');
    assert.equal(generated.commercialApproval.dispatch.status, 'not_applicable');
    assert.equal(generated.commercialApproval.taxauth.status, 'accepted');
  });

  test('CerteCF: only to the tax authority, 200 signed not_applicable', async () => {
    const seeded = await harness.seedReceivedEcf({ environment: 'CerteCF' });
    const result = await submit(seeded.inbound.id, {}, { environment: 'CerteCF' });
    assert.equal(result.httpStatus, 200);
    assert.equal(result.commercialApproval.status, 'signed');
    assert.equal(result.commercialApproval.targetSource, 'not_applicable');
    assert.equal(result.commercialApproval.dispatch.status, 'not_applicable');
    assert.equal(result.commercialApproval.taxauth.status, 'accepted');
    // CerteCF never blocks on validity.
    const invalid = await harness.seedReceivedEcf({
      environment: 'CerteCF',
      taxauthValidity: { status: 'not_found' },
    });
    assert.equal((await submit(invalid.inbound.id, {}, { environment: 'CerteCF' })).httpStatus, 200);
  });

  test('another account, another environment, an ACECF id: 404 RECEIVED_DOCUMENT_NOT_FOUND', async () => {
    const other = await seedTenant(harness.database);
    const theirs = await harness.seedReceivedEcf({ mode: 'ok', buyerTenant: other });
    await rejectsWith(submit(theirs.inbound.id, {}), 'RECEIVED_DOCUMENT_NOT_FOUND', 404);
    const ours = await harness.seedReceivedEcf({ mode: 'ok' });
    await rejectsWith(
      submit(ours.inbound.id, {}, { environment: 'eCF' }),
      'RECEIVED_DOCUMENT_NOT_FOUND',
      404,
    );
    const acecf = await harness.database.inboundDocument.create({
      data: {
        tenantId: harness.tenant.id,
        environment: 'TesteCF',
        kind: 'commercial_approval',
        status: 'received',
        issuerRnc: harness.tenant.rnc,
        encf: 'E310000000077',
        ecfType: 31,
      },
    });
    await rejectsWith(submit(acecf.id, {}), 'RECEIVED_DOCUMENT_NOT_FOUND', 404);
    await rejectsWith(
      getCommercialApproval({
        database: harness.database,
        tenantId: harness.tenant.id,
        environment: 'TesteCF',
        inboundDocumentId: acecf.id,
      }),
      'RECEIVED_DOCUMENT_NOT_FOUND',
      404,
    );
  });
});

describe('certificate, directory authentication, signing', () => {
  const notActive = async (): Promise<never> => {
    throw new AppError('CERTIFICATE_NOT_ACTIVE', 'No active certificate.');
  };

  test('no certificate: TesteCF 503 DIRECTORY_ACCESS_TOKEN_MISSING; CerteCF 503 ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    await rejectsWith(
      submit(seeded.inbound.id, {}, { loadCertificate: notActive }),
      'DIRECTORY_ACCESS_TOKEN_MISSING',
      503,
    );
    const certecf = await harness.seedReceivedEcf({ environment: 'CerteCF' });
    await rejectsWith(
      submit(certecf.inbound.id, {}, { environment: 'CerteCF', loadCertificate: notActive }),
      'ACECF_TAXAUTH_CERTIFICATE_UNAVAILABLE',
      503,
    );
  });

  test("the tax authority's authentication fails on the directory: 503 DIRECTORY_TAXAUTH_AUTH_FAILED", async () => {
    const buyer = await seedTenant(harness.database);
    const seeded = await harness.seedReceivedEcf({ mode: 'ok', buyerTenant: buyer });
    await harness.addFault({ service: 'autenticacion', fault: 'auth_down' });
    try {
      await rejectsWith(
        submit(
          seeded.inbound.id,
          {},
          { tenant: buyer, loadCertificate: async () => certificateFor(buyer.rnc) },
        ),
        'DIRECTORY_TAXAUTH_AUTH_FAILED',
        503,
      );
    } finally {
      await harness.clearFaults();
    }
  });

  test('a certificate that cannot sign: 503 ACECF_SIGNING_FAILED, nothing stored', async () => {
    const seeded = await harness.seedReceivedEcf({ environment: 'CerteCF' });
    const broken = { ...harness.certificate, privateKey: { type: 'secret' } as never };
    await rejectsWith(
      submit(seeded.inbound.id, {}, { environment: 'CerteCF', loadCertificate: async () => broken }),
      'ACECF_SIGNING_FAILED',
      503,
    );
    assert.equal(
      await harness.database.commercialApproval.count({ where: { inboundDocumentId: seeded.inbound.id } }),
      0,
    );
  });
});

describe('the tax authority answer', () => {
  test('rejected: 422 ACECF_TAXAUTH_REJECTED with details.taxauthSubmission; superseded, a corrected one is sent', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok', sendToTaxauth: false });
    const error = await rejectsWith(submit(seeded.inbound.id, {}), 'ACECF_TAXAUTH_REJECTED', 422);
    const submission = error.details['taxauthSubmission'] as Record<string, unknown>;
    assert.equal(submission['httpStatus'], 400);
    assert.equal(submission['taxauthCodigo'], '2');
    assert.ok(
      (submission['taxauthMessages'] as string[]).some((message) => /Factura no encontrada/.test(message)),
    );
    assert.equal(typeof submission['rejectedAt'], 'string');
    assert.equal(harness.issuer.postsOf('ok').filter((post) => post.body.includes(seeded.encf)).length, 0);
    // The supplier's e-CF reaches the tax authority; the same request now goes through.
    await harness
      .clientFor('TesteCF')
      .forTaxpayer({
        cacheKey: `supplier-${seeded.supplierRnc}`,
        certificate: certificateFor(seeded.supplierRnc),
      })
      .sendEcf({ xml: seeded.signed });
    const corrected = await submit(seeded.inbound.id, {});
    assert.equal(corrected.httpStatus, 202);
    assert.equal(
      await harness.database.commercialApproval.count({ where: { inboundDocumentId: seeded.inbound.id } }),
      2,
    );
  });

  test('no answer: 502 ACECF_TAXAUTH_SUBMISSION_UNCERTAIN, then 409 until reconciled; reconciled accepted starts the dispatch', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'ok' });
    await harness.addFault({ service: 'aprobacioncomercial', fault: 'lose_answer', count: 1 });
    try {
      await rejectsWith(submit(seeded.inbound.id, {}), 'ACECF_TAXAUTH_SUBMISSION_UNCERTAIN', 502);
    } finally {
      await harness.clearFaults();
    }
    await rejectsWith(submit(seeded.inbound.id, {}), 'ACECF_TAXAUTH_SUBMISSION_UNCERTAIN', 409);
    const jobsBefore = recorded.jobs.length;
    const reconciled = await reconcileCommercialApproval({
      database: harness.database,
      tenantId: harness.tenant.id,
      environment: 'TesteCF',
      inboundDocumentId: seeded.inbound.id,
      request: {
        outcome: 'taxauth_accepted',
        evidence: { content: '{"codigo":"1"}', contentType: 'application/json' },
      },
      enqueue: recorded.enqueue,
    });
    assert.equal(reconciled.commercialApproval.taxauth.status, 'accepted');
    assert.equal(reconciled.commercialApproval.dispatch.status, 'pending');
    assert.equal(recorded.jobs.length, jobsBefore + 1);
    const report = await dispatchCommercialApproval({
      database: harness.database,
      commercialApprovalId: reconciled.commercialApproval.id,
    });
    assert.equal(report.status, 'sent');
  });
});

describe('the dispatch outbox', () => {
  test('503 five times: retry_scheduled with nextAttemptAt, then dispatch_failed; the same ACECF each time; the same decision resends', async () => {
    harness.issuer.setMode('down', { kind: 'http', status: 503, body: 'Servicio no disponible' });
    const seeded = await harness.seedReceivedEcf({ mode: 'down' });
    const error = await rejectsWith(submit(seeded.inbound.id, {}), 'ACECF_DISPATCH_NOT_RECEIVED', 502);
    const view = error.body['commercialApproval'] as { id: string; dispatch: Record<string, unknown> };
    assert.equal(view.dispatch['status'], 'retry_scheduled');
    assert.equal(view.dispatch['attempts'], 1);
    assert.equal(view.dispatch['httpStatus'], 503);
    assert.equal(view.dispatch['body'], 'Servicio no disponible');
    assert.equal(typeof view.dispatch['nextAttemptAt'], 'string');
    let at = Date.now();
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      at += 10 * 60_000;
      const report = await dispatchCommercialApproval({
        database: harness.database,
        commercialApprovalId: view.id,
        now: () => new Date(at),
        timeoutMs: 1500,
      });
      assert.equal(report.status, attempt < 5 ? 'retry_scheduled' : 'dispatch_failed', `attempt ${attempt}`);
    }
    const posts = harness.issuer.postsOf('down').filter((post) => post.body.includes(seeded.encf));
    assert.equal(posts.length, 5);
    assert.equal(
      new Set(
        posts.map((post) => post.body.slice(post.body.indexOf('<ACECF'), post.body.indexOf('</ACECF>'))),
      ).size,
      1,
    );
    const state = await getCommercialApproval({
      database: harness.database,
      tenantId: harness.tenant.id,
      environment: 'TesteCF',
      inboundDocumentId: seeded.inbound.id,
    });
    assert.equal(state.commercialApproval?.dispatch.status, 'dispatch_failed');
    assert.equal(state.commercialApproval?.dispatch.attempts, 5);
    assert.equal(state.commercialApproval?.dispatch.nextAttemptAt, null);
    // A sixth run does nothing.
    await dispatchCommercialApproval({
      database: harness.database,
      commercialApprovalId: view.id,
      now: () => new Date(at + 3_600_000),
    });
    assert.equal(harness.issuer.postsOf('down').filter((post) => post.body.includes(seeded.encf)).length, 5);
    // The issuer is back; repeating the same decision starts a new cycle with the same signed ACECF.
    harness.issuer.setMode('down', { kind: 'ok' });
    const resent = await submit(seeded.inbound.id, {});
    assert.equal(resent.httpStatus, 202);
    assert.equal(resent.replayed, true);
    assert.equal(resent.commercialApproval.id, view.id);
    assert.equal(resent.commercialApproval.dispatch.status, 'sent');
    assert.equal(resent.commercialApproval.dispatch.attempts, 1);
    const all = harness.issuer.postsOf('down').filter((post) => post.body.includes(seeded.encf));
    assert.equal(all.length, 6);
    assert.equal(
      new Set(all.map((post) => post.body.slice(post.body.indexOf('<ACECF'), post.body.indexOf('</ACECF>'))))
        .size,
      1,
    );
  });

  test('the issuer refuses our authentication: dispatch_failed, not uncertain (502)', async () => {
    harness.issuer.refuseAuthentication('authno');
    const seeded = await harness.seedReceivedEcf({ mode: 'authno', authenticated: true });
    const error = await rejectsWith(submit(seeded.inbound.id, {}), 'ACECF_DISPATCH_NOT_RECEIVED', 502);
    const view = error.body['commercialApproval'] as { dispatch: Record<string, unknown> };
    assert.equal(view.dispatch['status'], 'dispatch_failed');
    assert.equal(harness.issuer.postsOf('authno').length, 0);
  });

  test('the issuer declared authentication: the POST carries its Bearer token', async () => {
    const seeded = await harness.seedReceivedEcf({ mode: 'authok', authenticated: true });
    const result = await submit(seeded.inbound.id, {});
    assert.equal(result.httpStatus, 202);
    const post = harness.issuer.postsOf('authok').at(-1);
    assert.match(post?.authorization ?? '', /^Bearer [0-9a-f]{32}$/);
  });

  test('no answer: uncertain (never retried); reconcile once: replay 200, another outcome 409', async () => {
    harness.issuer.setMode('hang', { kind: 'hang' });
    const seeded = await harness.seedReceivedEcf({ mode: 'hang' });
    const error = await rejectsWith(
      submit(seeded.inbound.id, {}, { dispatch: { timeoutMs: 500 } }),
      'ACECF_DISPATCH_NOT_RECEIVED',
      502,
    );
    const view = error.body['commercialApproval'] as { id: string; dispatch: Record<string, unknown> };
    assert.equal(view.dispatch['status'], 'uncertain');
    const again = await dispatchCommercialApproval({
      database: harness.database,
      commercialApprovalId: view.id,
      now: () => new Date(Date.now() + 3_600_000),
    });
    assert.equal(again.next, 'done');
    assert.equal(harness.issuer.postsOf('hang').filter((post) => post.body.includes(seeded.encf)).length, 1);
    const reconcile = (outcome: 'sent' | 'dispatch_failed', note = 'El emisor confirmó por correo') =>
      reconcileCommercialApproval({
        database: harness.database,
        tenantId: harness.tenant.id,
        environment: 'TesteCF',
        inboundDocumentId: seeded.inbound.id,
        request: { outcome, evidence: { content: 'correo del emisor' }, note },
        enqueue: recorded.enqueue,
      });
    const first = await reconcile('sent');
    assert.equal(first.replayed, false);
    assert.equal(first.commercialApproval.dispatch.status, 'sent');
    assert.equal(first.commercialApproval.reconciliation?.outcome, 'sent');
    assert.equal(first.commercialApproval.reconciliation?.evidence?.contentType, 'text/plain');
    const replay = await reconcile('sent');
    assert.equal(replay.replayed, true);
    await rejectsWith(reconcile('dispatch_failed'), 'COMMERCIAL_APPROVAL_NOT_UNCERTAIN', 409);
    await rejectsWith(reconcile('sent', 'otra nota'), 'COMMERCIAL_APPROVAL_NOT_UNCERTAIN', 409);
    const sentOne = await harness.seedReceivedEcf({ mode: 'ok' });
    await submit(sentOne.inbound.id, {});
    await rejectsWith(
      reconcileCommercialApproval({
        database: harness.database,
        tenantId: harness.tenant.id,
        environment: 'TesteCF',
        inboundDocumentId: sentOne.inbound.id,
        request: { outcome: 'sent' },
        enqueue: recorded.enqueue,
      }),
      'COMMERCIAL_APPROVAL_NOT_UNCERTAIN',
      409,
    );
  });

  test('a worker killed mid-dispatch: the lapsed sending becomes uncertain, nothing POSTed again', async () => {
    harness.issuer.setMode('lapsed', { kind: 'http', status: 503 });
    const seeded = await harness.seedReceivedEcf({ mode: 'lapsed' });
    const error = await rejectsWith(submit(seeded.inbound.id, {}), 'ACECF_DISPATCH_NOT_RECEIVED', 502);
    const id = (error.body['commercialApproval'] as { id: string }).id;
    // As a claim committed just before the process died leaves it.
    await harness.database.commercialApproval.update({
      where: { id },
      data: { dispatchStatus: 'sending', dispatchAttempts: 2, nextAttemptAt: new Date(Date.now() - 1000) },
    });
    const report = await dispatchCommercialApproval({ database: harness.database, commercialApprovalId: id });
    assert.equal(report.status, 'uncertain');
    assert.equal(
      harness.issuer.postsOf('lapsed').filter((post) => post.body.includes(seeded.encf)).length,
      1,
    );
    // A lease still running: the redelivered job waits, POSTs nothing.
    await harness.database.commercialApproval.update({
      where: { id },
      data: { dispatchStatus: 'sending', nextAttemptAt: new Date(Date.now() + 60_000) },
    });
    const waiting = await dispatchCommercialApproval({
      database: harness.database,
      commercialApprovalId: id,
    });
    assert.equal(waiting.next, 'retry');
    assert.equal(
      harness.issuer.postsOf('lapsed').filter((post) => post.body.includes(seeded.encf)).length,
      1,
    );
  });

  test("at most 4 KB of the issuer's body is kept, cut on a character, never its headers", async () => {
    const body = 'ñ'.repeat(5000);
    harness.issuer.setMode('big', { kind: 'ok', status: 200, body });
    const seeded = await harness.seedReceivedEcf({ mode: 'big' });
    const result = await submit(seeded.inbound.id, {});
    const dispatch = result.commercialApproval.dispatch;
    assert.equal(dispatch.status, 'sent');
    assert.equal(dispatch.responseTruncated, true);
    assert.equal(dispatch.responseBytes, 10_000);
    assert.equal(Buffer.byteLength(dispatch.body ?? ''), 4096);
    assert.ok(!(dispatch.body ?? '').includes('\uFFFD'));
    const row = await harness.database.commercialApproval.findUniqueOrThrow({
      where: { id: result.commercialApproval.id },
    });
    assert.ok(!JSON.stringify(row.lastResponse).includes('never-kept'));
  });
});
