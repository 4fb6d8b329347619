/**
 * The Partner API's certification routes (issue 20 over the certification engine of issue 19;
 * docs/certification.md): test sets, cases with their checklist, attestations, runs with
 * `Idempotency-Key`, evidence and its ZIPs, restarts, commercial approval tests, resends, closing,
 * the application data, XML signatures, the embedded page's link and the production activation.
 * Every route is the direct route's use-case with Partner authentication, the account from the path,
 * closed contracts (400 `INVALID_PARTNER_PAYLOAD`) and CerteCF as the environment.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TEnqueue } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import {
  AppError,
  changeCertificationOfficialSet,
  closeCertificationCase,
  createCertificationCase,
  createCertificationSession,
  findCertificationTestSets,
  getCertificationApprovals,
  getCertificationCase,
  getCertificationEvidence,
  getCertificationRun,
  getCertificationRunFile,
  getTaxauthRegistration,
  listOfficialSets,
  recordCertificationAttestation,
  requestProductionActivation,
  resendCertificationDocument,
  restartCertificationPart,
  sendCertificationApprovals,
  signCertificationXml,
  startCertificationRun,
  uploadCertificationTestSet,
  type TCertificateKeyring,
  type TCertificationCaseView,
  type TCertificationRunView,
  type TEvidenceSelection,
  type TFiscalAccount,
} from '@ecf/services';
import { PARTNER_ROUTES, type TPartnerRouteContract } from '@ecf/contract';
import { accountOf, parsePartner, partnerPrincipalOf } from './partner-auth.ts';
import { partnerRoute, type TPartnerRoutesOptions } from './partner-routes.ts';

export type TPartnerCertificationOptions = TPartnerRoutesOptions & {
  keyring?: TCertificateKeyring;
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
  xsd: TXsdValidators;
  enqueue: TEnqueue;
  /** This service's public address (the URLs to register) and the portal's (the embedded page). */
  publicBaseUrl: string;
  portalBaseUrl: string;
  embedSecret: string;
  software: { name: string; version: string; provider: string };
};

type THandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** `Idempotency-Key` of a route that needs one: 428 without, 400 beyond 200 printable ASCII characters. */
function idempotencyKeyOf(route: TPartnerRouteContract, request: FastifyRequest): string {
  const headers = parsePartner(route.headers ?? ({} as never), request.headers, 'headers') as {
    'idempotency-key'?: string;
  };
  const key = headers['idempotency-key'];
  if (key === undefined || key.trim() === '')
    throw new AppError('IDEMPOTENCY_KEY_REQUIRED', 'Send this request with an Idempotency-Key header.');
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))
    throw new AppError('INVALID_PARTNER_PAYLOAD', 'Idempotency-Key: 1 to 200 printable ASCII characters.', {
      details: {
        path: 'headers.idempotency-key',
        issues: [
          { path: 'headers.idempotency-key', code: 'invalid_format', message: '1 to 200 printable ASCII' },
        ],
      },
    });
  return key;
}

/** The case as the Partner API shows it: the checklist is the fifteen steps. */
function caseBodyOf(view: TCertificationCaseView) {
  if (view.caseId === null || view.state === 'not_started')
    throw new AppError('NOT_FOUND', 'No certification case in this account.');
  return {
    caseId: view.caseId,
    state: view.state,
    step: view.step,
    testSetRef: view.testSetId,
    officialSetRef: view.officialSetRef,
    ecfTypes: view.ecfTypes,
    b2bSimulation: view.b2bSimulation,
    notes: view.notes,
    actorRef: view.actorRef,
    checklist: view.steps,
    nextAction: view.nextAction,
    production: view.production,
    createdAt: view.createdAt,
    approvedAt: view.approvedAt,
  };
}

function runBodyOf(run: TCertificationRunView, withItems = true) {
  const { environment: _environment, ...rest } = run;
  if (withItems) return rest;
  const { items: _items, ...summary } = rest;
  return summary;
}

export function registerPartnerCertificationRoutes(
  app: FastifyInstance,
  options: TPartnerCertificationOptions,
): void {
  const { database } = options;
  const R = PARTNER_ROUTES;
  const route = (contract: TPartnerRouteContract, handler: THandler) =>
    partnerRoute(app, options, contract, handler);
  const certificateSource = {
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.loadCertificate ? { loadCertificate: options.loadCertificate } : {}),
  };
  const context = (account: TFiscalAccount) => ({
    database,
    tenant: account.tenant,
    environment: 'CerteCF' as const,
    xsd: options.xsd,
    now: new Date(),
  });
  /** The account's case of the path (404 for another account's or an unknown one). */
  const caseOf = async (account: TFiscalAccount, caseId: string) =>
    getCertificationCase({
      database,
      tenant: account.tenant,
      environment: 'CerteCF',
      caseId: caseId.toLowerCase(),
      publicBaseUrl: options.publicBaseUrl,
    });
  /** A run of the case of the path. */
  const runOf = async (account: TFiscalAccount, params: { caseId: string; runId: string }) => {
    const run = await getCertificationRun({
      database,
      tenantId: account.tenant.id,
      environment: 'CerteCF',
      runId: params.runId.toLowerCase(),
    });
    if (run.caseId !== params.caseId.toLowerCase())
      throw new AppError('NOT_FOUND', `No run ${params.runId} in certification case ${params.caseId}.`);
    return run;
  };
  const naming = (account: TFiscalAccount) => ({ fiscalAccountId: account.id });

  route(R.getTaxauthRegistration, async (request) => {
    const account = accountOf(request);
    return {
      ok: true,
      ...naming(account),
      registration: await getTaxauthRegistration({
        database,
        tenantId: account.tenant.id,
        publicBaseUrl: options.publicBaseUrl,
        software: options.software,
      }),
    };
  });

  route(R.signCertificationXml, async (request) => {
    const account = accountOf(request);
    const body = parsePartner(R.signCertificationXml.body, request.body, 'body');
    const signed = await signCertificationXml({
      database,
      tenantId: account.tenant.id,
      kind: body.kind,
      xml: body.xml,
      now: new Date(),
      ...certificateSource,
    });
    return { ok: true, ...naming(account), ...signed };
  });

  route(R.uploadCertificationTestSet, async (request, reply) => {
    const account = accountOf(request);
    const body = parsePartner(R.uploadCertificationTestSet.body, request.body, 'body');
    const testSet = await uploadCertificationTestSet({ ...context(account), body });
    return reply.code(201).send({ ok: true, ...naming(account), testSet });
  });

  route(R.listCertificationTestSets, async (request) => {
    const account = accountOf(request);
    return {
      ok: true,
      ...naming(account),
      items: await findCertificationTestSets({ database, tenantId: account.tenant.id }),
    };
  });

  route(R.listOfficialSets, async () => ({ ok: true, ...(await listOfficialSets({ database })) }));

  route(R.createCertificationCase, async (request, reply) => {
    const account = accountOf(request);
    const body = parsePartner(R.createCertificationCase.body, request.body, 'body');
    const created = await createCertificationCase({
      database,
      tenantId: account.tenant.id,
      testSetRef: body.testSetRef?.toLowerCase(),
      officialSetRef: body.officialSetRef,
      declared: {
        ecfTypes: body.ecfTypes,
        b2bSimulation: body.b2bSimulation,
        notes: body.notes,
        actorRef: body.actorRef,
      },
    });
    const view = await caseOf(account, created.case.id);
    return reply
      .code(created.created ? 201 : 200)
      .send({ ok: true, ...naming(account), case: caseBodyOf(view) });
  });

  route(R.partnerGetCertificationCase, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerGetCertificationCase.params, request.params, 'path');
    return { ok: true, ...naming(account), case: caseBodyOf(await caseOf(account, params.caseId)) };
  });

  route(R.partnerRecordCertificationAttestation, async (request, reply) => {
    const account = accountOf(request);
    const principal = partnerPrincipalOf(request);
    const params = parsePartner(R.partnerRecordCertificationAttestation.params, request.params, 'path');
    const body = parsePartner(R.partnerRecordCertificationAttestation.body, request.body, 'body');
    await caseOf(account, params.caseId);
    const recorded = await recordCertificationAttestation({
      database,
      tenantId: account.tenant.id,
      caseId: params.caseId.toLowerCase(),
      input: body,
      recordedBy: `partner-key:${principal.key.id}`,
      now: new Date(),
      enqueue: options.enqueue,
    });
    const { attestation } = recorded;
    return reply.code(201).send({
      ok: true,
      ...naming(account),
      attestation: {
        id: attestation.id,
        step: attestation.step,
        occurredAt: attestation.occurredAt.toISOString(),
        actorRef: attestation.actorRef,
        notes: attestation.notes,
        evidenceRefs: attestation.evidenceRefs,
      },
      case: caseBodyOf(await caseOf(account, params.caseId)),
    });
  });

  route(R.partnerStartCertificationRun, async (request, reply) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerStartCertificationRun.params, request.params, 'path');
    const key = idempotencyKeyOf(R.partnerStartCertificationRun, request);
    const body = parsePartner(R.partnerStartCertificationRun.body, request.body ?? {}, 'body');
    const result = await startCertificationRun({
      ...context(account),
      body,
      enqueue: options.enqueue,
      correlationId: request.id,
      idempotencyKey: key,
      caseId: params.caseId.toLowerCase(),
    });
    return reply
      .code(result.replayed ? 200 : 202)
      .send({ ok: true, ...naming(account), environment: 'certecf', run: runBodyOf(result.run) });
  });

  route(R.listCertificationRuns, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.listCertificationRuns.params, request.params, 'path');
    const view = await caseOf(account, params.caseId);
    return {
      ok: true,
      ...naming(account),
      items: view.runs.map((run) => {
        const { environment: _environment, ...rest } = run;
        return rest;
      }),
    };
  });

  route(R.partnerGetCertificationRun, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerGetCertificationRun.params, request.params, 'path');
    return {
      ok: true,
      ...naming(account),
      environment: 'certecf',
      run: runBodyOf(await runOf(account, params)),
    };
  });

  const evidenceOf = async (
    account: TFiscalAccount,
    params: { caseId: string; runId: string },
    selection: TEvidenceSelection,
  ) => {
    const run = await runOf(account, params);
    return getCertificationEvidence({
      database,
      tenantId: account.tenant.id,
      environment: 'CerteCF',
      runId: run.runId,
      now: () => new Date(),
      selection,
      ...certificateSource,
    });
  };

  route(R.partnerGetCertificationEvidence, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerGetCertificationEvidence.params, request.params, 'path');
    return { ok: true, ...naming(account), ...(await evidenceOf(account, params, 'all')) };
  });

  route(R.getCertificationPrintedPdfs, async (request, reply) => {
    const account = accountOf(request);
    const params = parsePartner(R.getCertificationPrintedPdfs.params, request.params, 'path');
    const evidence = await evidenceOf(account, params, 'printed_pdfs');
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${evidence.fileName}"`)
      .send(Buffer.from(evidence.content, 'base64'));
  });

  for (const [contract, selection] of [
    [R.getCertificationConsumerInvoices, 'consumer_invoices'],
    [R.getCertificationConsumerSummaries, 'consumer_summaries'],
  ] as const) {
    route(contract, async (request, reply) => {
      const account = accountOf(request);
      const params = parsePartner(contract.params, request.params, 'path');
      const query = parsePartner(contract.query, request.query, 'query');
      if (query.encf === undefined) {
        const evidence = await evidenceOf(account, params, selection);
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="${evidence.fileName}"`)
          .send(Buffer.from(evidence.content, 'base64'));
      }
      // One document: its XML read directly, no ZIP built.
      const run = await runOf(account, params);
      const file = await getCertificationRunFile({
        database,
        tenantId: account.tenant.id,
        environment: 'CerteCF',
        runId: run.runId,
        selection,
        encf: query.encf,
        ...certificateSource,
      });
      return reply
        .type('application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(Buffer.from(file.content));
    });
  }

  route(R.changeCertificationOfficialSet, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.changeCertificationOfficialSet.params, request.params, 'path');
    const body = parsePartner(R.changeCertificationOfficialSet.body, request.body, 'body');
    await changeCertificationOfficialSet({
      database,
      tenantId: account.tenant.id,
      caseId: params.caseId.toLowerCase(),
      officialSetRef: body.officialSetRef,
      now: new Date(),
    });
    return { ok: true, ...naming(account), case: caseBodyOf(await caseOf(account, params.caseId)) };
  });

  route(R.partnerRestartCertification, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerRestartCertification.params, request.params, 'path');
    const body = parsePartner(R.partnerRestartCertification.body, request.body, 'body');
    const view = await caseOf(account, params.caseId);
    if (view.state === 'closed')
      throw new AppError('NOT_FOUND', `No open certification case ${params.caseId}.`);
    const result = await restartCertificationPart({
      database,
      tenantId: account.tenant.id,
      environment: 'CerteCF',
      body,
      now: new Date(),
    });
    return {
      ok: true,
      ...naming(account),
      part: result.part,
      stoppedRunId: result.stoppedRunId,
      stoppedApprovalSendId: result.stoppedApprovalSendId,
      replacedDocuments: result.replacedDocuments,
      case: caseBodyOf(await caseOf(account, params.caseId)),
    };
  });

  route(R.partnerSendCertificationApprovals, async (request, reply) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerSendCertificationApprovals.params, request.params, 'path');
    const key = idempotencyKeyOf(R.partnerSendCertificationApprovals, request);
    const body = parsePartner(R.partnerSendCertificationApprovals.body, request.body, 'body');
    const view = await caseOf(account, params.caseId);
    if (view.state === 'closed')
      throw new AppError('NOT_FOUND', `No open certification case ${params.caseId}.`);
    const result = await sendCertificationApprovals({
      database,
      tenant: account.tenant,
      environment: 'CerteCF',
      body,
      enqueue: options.enqueue,
      now: new Date(),
      idempotencyKey: key,
    });
    return reply.code(result.replayed ? 200 : 202).send({
      ok: true,
      ...naming(account),
      environment: 'certecf',
      commercialApprovals: result.commercialApprovals,
    });
  });

  route(R.partnerGetCertificationApprovals, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerGetCertificationApprovals.params, request.params, 'path');
    await caseOf(account, params.caseId);
    return {
      ok: true,
      ...naming(account),
      environment: 'certecf',
      commercialApprovals: await getCertificationApprovals({
        database,
        tenantId: account.tenant.id,
        environment: 'CerteCF',
      }),
    };
  });

  route(R.partnerResendCertificationDocument, async (request, reply) => {
    const account = accountOf(request);
    const params = parsePartner(R.partnerResendCertificationDocument.params, request.params, 'path');
    await caseOf(account, params.caseId);
    const result = await resendCertificationDocument({
      database,
      tenantId: account.tenant.id,
      environment: 'CerteCF',
      documentId: params.documentId,
      enqueue: options.enqueue,
      now: new Date(),
    });
    return reply.code(202).send({ ok: true, ...naming(account), ...result });
  });

  route(R.closeCertificationCase, async (request) => {
    const account = accountOf(request);
    const params = parsePartner(R.closeCertificationCase.params, request.params, 'path');
    await closeCertificationCase({
      database,
      tenantId: account.tenant.id,
      caseId: params.caseId.toLowerCase(),
      now: new Date(),
    });
    return { ok: true, ...naming(account), case: caseBodyOf(await caseOf(account, params.caseId)) };
  });

  route(R.createCertificationSession, async (request, reply) => {
    const account = accountOf(request);
    const principal = partnerPrincipalOf(request);
    const body = parsePartner(R.createCertificationSession.body, request.body, 'body');
    const session = await createCertificationSession({
      database,
      partnerId: principal.partner.id,
      tenantId: account.tenant.id,
      browserOrigin: body.browserOrigin,
      portalBaseUrl: options.portalBaseUrl,
      secret: options.embedSecret,
      now: new Date(),
    });
    return reply.code(201).send({ ok: true, ...naming(account), ...session });
  });

  route(R.requestProductionActivation, async (request, reply) => {
    const account = accountOf(request);
    const result = await requestProductionActivation({
      database,
      tenant: account.tenant,
      enqueue: options.enqueue,
    });
    return reply.code(202).send({ ok: true, ...naming(account), ...result });
  });
}
