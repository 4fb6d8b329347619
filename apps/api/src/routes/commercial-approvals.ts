import type { FastifyInstance } from 'fastify';
import type { Environment, TEnqueue } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import {
  getCommercialApproval,
  reconcileCommercialApproval,
  submitCommercialApproval,
  type TCertificateKeyring,
} from '@ecf/services';
import { ROUTES } from '@ecf/contract';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';

export type TCommercialApprovalRoutesOptions = TAuthenticationContext & {
  xsd: TXsdValidators;
  /** The tax authority client of an environment (directory, ACECF reception; it caches tokens). */
  clientFor: (environment: Environment) => TTaxauthClient;
  /** The process's enqueue: the dispatch job commits with the tax authority's acceptance. */
  enqueue: TEnqueue;
  keyring?: TCertificateKeyring;
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
  /** The request's own first dispatch attempt: per exchange with the issuer (default 30 s). */
  dispatchTimeoutMs?: number;
};

/**
 * Sending a commercial approval (issue 18, docs/commercial-approvals.md):
 * `GET|POST /{environment}/inbound-taxauth/{inboundId}/aprobacion-comercial` and `.../reconciliar`.
 * The ACECF is sent to the tax authority in the request (like an annulment) and the first dispatch
 * attempt to the issuer too; the worker's outbox job makes the retries.
 */
export function registerCommercialApprovalRoutes(
  app: FastifyInstance,
  options: TCommercialApprovalRoutesOptions,
): void {
  const { database } = options;

  const get = ROUTES.getCommercialApproval;
  app.get(get.path, { preHandler: requireApiKey(options, get.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = get.params.parse(request.params);
    const result = await getCommercialApproval({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      inboundDocumentId: params.inboundId,
    });
    return { ok: true, environment: principal.environment, ...result };
  });

  const submit = ROUTES.submitCommercialApproval;
  app.post(submit.path, { preHandler: requireApiKey(options, submit.scopes) }, async (request, reply) => {
    const principal = principalOf(request);
    const params = submit.params.parse(request.params);
    const body = submit.body.parse(request.body);
    const result = await submitCommercialApproval({
      database,
      tenant: principal.tenant,
      environment: principal.environment,
      inboundDocumentId: params.inboundId,
      request: body,
      xsd: options.xsd,
      clientFor: options.clientFor,
      enqueue: options.enqueue,
      ...(options.keyring === undefined ? {} : { keyring: options.keyring }),
      ...(options.loadCertificate === undefined ? {} : { loadCertificate: options.loadCertificate }),
      ...(options.dispatchTimeoutMs === undefined
        ? {}
        : { dispatch: { timeoutMs: options.dispatchTimeoutMs } }),
    });
    return reply.code(result.httpStatus).send({
      ok: true,
      environment: principal.environment,
      inboundDocumentId: params.inboundId,
      commercialApproval: result.commercialApproval,
    });
  });

  const reconcile = ROUTES.reconcileCommercialApproval;
  app.post(reconcile.path, { preHandler: requireApiKey(options, reconcile.scopes) }, async (request) => {
    const principal = principalOf(request);
    const params = reconcile.params.parse(request.params);
    const body = reconcile.body.parse(request.body ?? {});
    const result = await reconcileCommercialApproval({
      database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      inboundDocumentId: params.inboundId,
      request: body,
      enqueue: options.enqueue,
    });
    return {
      ok: true,
      environment: principal.environment,
      inboundDocumentId: params.inboundId,
      commercialApproval: result.commercialApproval,
    };
  });
}
