/**
 * Certification (issue 19; docs/certification.md): the case, runs of the tax authority's test sets,
 * the commercial approval tests, restarts, resends, attestations and the evidence. Every route needs
 * `tenant:admin` and answers in CerteCF only (409 `CERTIFICATION_ENVIRONMENT_REQUIRED` elsewhere).
 * The bodies go to the use-cases unparsed: they read them with the spec's own 400 codes.
 */
import type { FastifyInstance } from 'fastify';
import type { TEnqueue } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import {
  AppError,
  assertDirectCertification,
  getCertificationApprovals,
  getCertificationCase,
  getCertificationEvidence,
  getCertificationRun,
  prevalidateCertificationSet,
  recordCertificationAttestation,
  resendCertificationDocument,
  restartCertificationPart,
  sendCertificationApprovals,
  startCertificationRun,
  ZAttestationInput,
  type TCertificateKeyring,
} from '@ecf/services';
import { ROUTES } from '@ecf/contract';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';

export type TCertificationRoutesOptions = TAuthenticationContext & {
  xsd: TXsdValidators;
  enqueue: TEnqueue;
  /** The service's public address: the reception URLs a taxpayer registers at the tax authority. */
  publicBaseUrl: string;
  keyring?: TCertificateKeyring;
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
};

export function registerCertificationRoutes(
  app: FastifyInstance,
  options: TCertificationRoutesOptions,
): void {
  const { database, xsd, enqueue } = options;
  const certificateSource = {
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.loadCertificate ? { loadCertificate: options.loadCertificate } : {}),
  };

  const caseRoute = ROUTES.getCertificationCase;
  app.get(caseRoute.path, { preHandler: requireApiKey(options, caseRoute.scopes) }, async (request) => {
    const principal = principalOf(request);
    const view = await getCertificationCase({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      publicBaseUrl: options.publicBaseUrl,
    });
    return { ok: true, environment: principal.environment, ...view };
  });

  const prevalidate = ROUTES.prevalidateCertification;
  app.post(prevalidate.path, { preHandler: requireApiKey(options, prevalidate.scopes) }, async (request) => {
    const principal = principalOf(request);
    const result = await prevalidateCertificationSet({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      xsd,
      now: new Date(),
      body: request.body,
    });
    return { ok: true, environment: principal.environment, ...result };
  });

  const start = ROUTES.startCertificationRun;
  app.post(start.path, { preHandler: requireApiKey(options, start.scopes) }, async (request, reply) => {
    const principal = principalOf(request);
    await assertDirectCertification(database, principal.tenantId);
    const result = await startCertificationRun({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      xsd,
      now: new Date(),
      body: request.body,
      enqueue,
      correlationId: request.id,
    });
    return reply.code(202).send({ ok: true, ...result.run, environment: principal.environment });
  });

  const getApprovals = ROUTES.getCertificationApprovals;
  app.get(getApprovals.path, { preHandler: requireApiKey(options, getApprovals.scopes) }, async (request) => {
    const principal = principalOf(request);
    const commercialApprovals = await getCertificationApprovals({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
    });
    return { ok: true, environment: principal.environment, commercialApprovals };
  });

  const sendApprovals = ROUTES.sendCertificationApprovals;
  app.post(
    sendApprovals.path,
    { preHandler: requireApiKey(options, sendApprovals.scopes) },
    async (request, reply) => {
      const principal = principalOf(request);
      await assertDirectCertification(database, principal.tenantId);
      const result = await sendCertificationApprovals({
        database,
        tenant: principal.tenant,
        environment: principal.environment,
        body: request.body,
        enqueue,
        now: new Date(),
      });
      return reply.code(202).send({
        ok: true,
        environment: principal.environment,
        commercialApprovals: result.commercialApprovals,
      });
    },
  );

  const restart = ROUTES.restartCertification;
  app.post(restart.path, { preHandler: requireApiKey(options, restart.scopes) }, async (request) => {
    const principal = principalOf(request);
    await assertDirectCertification(database, principal.tenantId);
    const result = await restartCertificationPart({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      body: request.body,
      now: new Date(),
    });
    return { ok: true, environment: principal.environment, ...result };
  });

  const attest = ROUTES.recordCertificationAttestation;
  app.post(attest.path, { preHandler: requireApiKey(options, attest.scopes) }, async (request, reply) => {
    const principal = principalOf(request);
    if (principal.environment !== 'CerteCF') {
      throw new AppError('CERTIFICATION_ENVIRONMENT_REQUIRED', 'Certification runs in CerteCF.', {
        details: { environment: principal.environment, required: 'CerteCF' },
      });
    }
    await assertDirectCertification(database, principal.tenantId);
    const parsed = ZAttestationInput.safeParse(request.body);
    if (!parsed.success) {
      throw new AppError('INVALID_CERTIFICATION_REQUEST', 'The attestation does not match its contract.', {
        details: {
          reason: 'invalid_fields',
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map(String).join('.'),
            code: issue.code,
            message: issue.message,
          })),
        },
      });
    }
    await recordCertificationAttestation({
      database,
      tenantId: principal.tenantId,
      input: parsed.data,
      recordedBy: `api-key:${principal.apiKeyId}`,
      now: new Date(),
      enqueue,
    });
    const view = await getCertificationCase({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      publicBaseUrl: options.publicBaseUrl,
    });
    return reply.code(201).send({ ok: true, environment: principal.environment, ...view });
  });

  const resend = ROUTES.resendCertificationDocument;
  app.post(resend.path, { preHandler: requireApiKey(options, resend.scopes) }, async (request, reply) => {
    const principal = principalOf(request);
    const params = resend.params.parse(request.params);
    await assertDirectCertification(database, principal.tenantId);
    const result = await resendCertificationDocument({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      documentId: params.documentId,
      enqueue,
      now: new Date(),
    });
    return reply.code(202).send({ ok: true, environment: principal.environment, ...result });
  });

  const getRun = ROUTES.getCertificationRun;
  app.get(getRun.path, { preHandler: requireApiKey(options, getRun.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = getRun.params.parse(request.params);
    const run = await getCertificationRun({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      runId: params.runId,
    });
    return { ok: true, ...run, environment: principal.environment };
  });

  const evidence = ROUTES.getCertificationEvidence;
  app.get(evidence.path, { preHandler: requireApiKey(options, evidence.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = evidence.params.parse(request.params);
    const result = await getCertificationEvidence({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      runId: params.runId,
      now: () => new Date(),
      ...certificateSource,
    });
    return { ok: true, environment: principal.environment, ...result };
  });
}
