/**
 * The Partner API's routes (`/partner/v1`, issue 20; docs/partner-api.md): a facade over the same
 * use-cases as the direct API. Each handler takes the account from the path (checked to be the
 * Partner's by `requirePartnerKey`), parses its request with the route's closed schema (400
 * `INVALID_PARTNER_PAYLOAD`) and answers with the Partner naming (`fiscalAccountId`, `environment`
 * `production` | `testecf`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Document, Environment, TDatabase, TEnqueue } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import type { TTaxauthClient } from '@ecf/taxauth-client';
import {
  AppError,
  assertProductionActive,
  findCertificationSummaries,
  findDocumentStatuses,
  findFiscalAccounts,
  findReceivedDocuments,
  findTenantCertificates,
  getAnnulment,
  getBillingUsage,
  getDocument,
  getDocumentPdf,
  getSignedDocumentXml,
  isPrintable,
  issueDocument,
  linkFiscalAccount,
  listAnnulments,
  listSequenceRanges,
  parseReceivedQuery,
  PARTNER_ENVIRONMENT_OF,
  preflightDocument,
  prevalidateAnnulment,
  registerSequenceRange,
  sendAnnulment,
  submitCommercialApproval,
  updateFiscalAccountProfile,
  type TCertificateKeyring,
  type TCertificationSummary,
  type TFiscalAccount,
  type TPartnerPlans,
  type TSubmissionIssue,
} from '@ecf/services';
import { ZReceivedListQuery } from '@ecf/contract';
import { SUBMIT_RETRY_AFTER_SECONDS, type TRouteContract } from '@ecf/contract';
import type { createDocumentWaiter } from '../document-waiter.ts';
import { PARTNER_ROUTES, type TPartnerRouteContract } from '@ecf/contract';
import {
  annulmentBodyOf,
  annulmentSummaryOf,
  prevalidationBodyOf,
  sequenceRangeOf,
} from '../routes/annulment-bodies.ts';
import { assertAccepts, submitResponse } from '../routes/documents.ts';
import {
  accountOf,
  parsePartner,
  partnerPrincipalOf,
  requirePartnerKey,
  type TPartnerAuthContext,
} from './partner-auth.ts';
import { rawMemberText } from './raw-member.ts';

export type TPartnerRoutesOptions = TPartnerAuthContext & {
  xsd: TXsdValidators;
  enqueue: TEnqueue;
  waiter: ReturnType<typeof createDocumentWaiter>;
  cursorSecret: string;
  plans: TPartnerPlans;
  clientFor: (environment: Environment) => TTaxauthClient;
  keyring?: TCertificateKeyring;
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
};

type THandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Registers one Partner route of the table with its authentication (permission, account, limits).
 * Its body limits are its line in route-limits.ts, applied by plugins/body-limits.ts.
 */
export function partnerRoute(
  app: FastifyInstance,
  context: TPartnerAuthContext,
  route: TPartnerRouteContract,
  handler: THandler,
): void {
  app.route({
    method: route.method,
    url: route.path,
    preHandler: requirePartnerKey(context, route),
    handler,
  });
}

/** The account as the Partner API shows it, with its current certification case (null: none yet). */
export function fiscalAccountBodyOf(account: TFiscalAccount, certification: TCertificationSummary | null) {
  const { tenant: _tenant, ...visible } = account;
  return {
    ...visible,
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
    certification,
  };
}

/** The certification summaries of the accounts of a page (one query), by account id. */
async function certificationsOf(database: TDatabase, accounts: readonly TFiscalAccount[]) {
  return findCertificationSummaries({ database, tenantIds: accounts.map((account) => account.tenant.id) });
}

/** One account's body with its certification. */
async function accountBodyOf(database: TDatabase, account: TFiscalAccount) {
  const summaries = await certificationsOf(database, [account]);
  return fiscalAccountBodyOf(account, summaries.get(account.tenant.id) ?? null);
}

const FAMILY_ENVIRONMENT = { production: 'eCF', testecf: 'TesteCF' } as const satisfies Record<
  string,
  Environment
>;
type TFamily = keyof typeof FAMILY_ENVIRONMENT;

/** `pdfUrl` of the Partner route of the document (the direct one is `/{environment}/documentos-ecf/...`). */
function withPartnerPdfUrl<T extends { printing: { pdfUrl: string | null } | null }>(
  value: T,
  accountId: string,
  family: TFamily,
  documentId: string,
): T {
  if (value.printing === null || value.printing.pdfUrl === null) return value;
  return {
    ...value,
    printing: {
      ...value.printing,
      pdfUrl: `/partner/v1/fiscal-accounts/${accountId}/${family}/documents/${documentId}/pdf`,
    },
  };
}

/** `Prefer: wait=N` of a Partner emission: N from 1 to 15 (spec Limits), anything else is 400. */
function preferWaitOf(header: string | string[] | undefined): number | null {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const value of values) {
    for (const preference of value.split(',')) {
      const match = /^\s*wait\s*=\s*"?([^";\s]*)"?\s*(;.*)?$/i.exec(preference);
      if (match === null) continue;
      const text = match[1] ?? '';
      const seconds = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
      if (!(seconds >= 1 && seconds <= 15))
        throw new AppError('INVALID_PARTNER_PAYLOAD', 'Prefer: wait=N takes N from 1 to 15 seconds.', {
          details: {
            path: 'headers.prefer',
            issues: [{ path: 'headers.prefer', code: 'too_big', message: 'wait from 1 to 15' }],
          },
        });
      return seconds;
    }
  }
  return null;
}

const ID_OF_UUID = (value: string) => value.toLowerCase();

export function registerPartnerRoutes(app: FastifyInstance, options: TPartnerRoutesOptions): void {
  const { database } = options;
  const R = PARTNER_ROUTES;
  const route = (contract: TPartnerRouteContract, handler: THandler) =>
    partnerRoute(app, options, contract, handler);
  const certificateSource = {
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.loadCertificate ? { loadCertificate: options.loadCertificate } : {}),
  };

  // --- Fiscal accounts ----------------------------------------------------------------------
  route(R.linkFiscalAccount, async (request, reply) => {
    const principal = partnerPrincipalOf(request);
    const { externalTenantId } = parsePartner(R.linkFiscalAccount.params, request.params, 'path');
    const body = parsePartner(R.linkFiscalAccount.body, request.body, 'body');
    const result = await linkFiscalAccount({
      database,
      partnerId: principal.partner.id,
      externalTenantId,
      input: body,
    });
    return reply
      .code(result.created ? 201 : 200)
      .send({ ok: true, fiscalAccount: await accountBodyOf(database, result.account) });
  });
  route(R.listFiscalAccounts, async (request) => {
    const principal = partnerPrincipalOf(request);
    const query = parsePartner(R.listFiscalAccounts.query, request.query, 'query');
    const limit = query.limit === undefined ? 50 : Number(query.limit);
    if (limit < 1 || limit > 100)
      throw new AppError('INVALID_PARTNER_PAYLOAD', 'query.limit: from 1 to 100', {
        details: {
          path: 'query.limit',
          issues: [{ path: 'query.limit', code: 'too_big', message: 'from 1 to 100' }],
        },
      });
    const page = await findFiscalAccounts({
      database,
      partnerId: principal.partner.id,
      limit,
      offset: query.offset === undefined ? 0 : Number(query.offset),
    });
    const summaries = await certificationsOf(database, page.items);
    return {
      ok: true,
      ...page,
      items: page.items.map((item) => fiscalAccountBodyOf(item, summaries.get(item.tenant.id) ?? null)),
    };
  });
  route(R.getFiscalAccount, async (request) => ({
    ok: true,
    fiscalAccount: await accountBodyOf(database, accountOf(request)),
  }));
  route(R.getFiscalAccountStatus, async (request) => {
    const account = accountOf(request);
    return {
      ok: true,
      fiscalAccountId: account.id,
      certecf: {
        certification: (await certificationsOf(database, [account])).get(account.tenant.id) ?? null,
      },
      production: { state: account.productionState, canEmit: account.productionState === 'active' },
      certificate: await certificateSummaryOf(database, account.id),
    };
  });
  route(R.updateFiscalAccountProfile, async (request) => {
    const principal = partnerPrincipalOf(request);
    const patch = parsePartner(R.updateFiscalAccountProfile.body, request.body, 'body');
    const account = await updateFiscalAccountProfile({
      database,
      partnerId: principal.partner.id,
      account: accountOf(request),
      patch,
    });
    return { ok: true, fiscalAccount: await accountBodyOf(database, account) };
  });
  route(R.getProduction, async (request) => {
    const account = accountOf(request);
    return {
      ok: true,
      fiscalAccountId: account.id,
      environment: 'production',
      state: account.productionState,
      canEmit: account.productionState === 'active',
    };
  });
  route(R.getBillingUsage, async (request) => {
    const principal = partnerPrincipalOf(request);
    const query = parsePartner(R.getBillingUsage.query, request.query, 'query');
    return {
      ok: true,
      ...(await getBillingUsage({
        database,
        partner: principal.partner,
        plans: options.plans,
        ...(query.month === undefined ? {} : { month: query.month }),
      })),
    };
  });

  // --- Documents (production and testecf) ---------------------------------------------------
  for (const family of ['production', 'testecf'] as const) registerDocumentFamily(app, options, family);

  // --- Annulments and sequences (production) -----------------------------------------------
  const naming = (account: TFiscalAccount) => ({
    fiscalAccountId: account.id,
    environment: 'production' as const,
  });
  const typeCode = (type: string) => (type.startsWith('E') ? type.slice(1) : type);
  route(R.prevalidateProductionAnnulment, async (request) => {
    const account = accountOf(request);
    const body = parsePartner(R.prevalidateProductionAnnulment.body, request.body, 'body');
    const result = await prevalidateAnnulment({
      database,
      tenant: account.tenant,
      environment: 'eCF',
      request: { ...body, ranges: body.ranges.map((range) => ({ ...range, type: typeCode(range.type) })) },
      xsd: options.xsd,
    });
    return { ...prevalidationBodyOf('eCF', result), ...naming(account) };
  });
  route(R.sendProductionAnnulment, async (request, reply) => {
    const account = accountOf(request);
    const headers = parsePartner(R.sendProductionAnnulment.headers, request.headers, 'headers');
    const key = headers['idempotency-key'];
    if (key === undefined || key.trim() === '')
      throw new AppError(
        'ANECF_IDEMPOTENCY_KEY_REQUIRED',
        'Send the annulment with an Idempotency-Key header.',
      );
    if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key))
      throw new AppError('INVALID_PARTNER_PAYLOAD', 'Idempotency-Key: 1 to 200 printable ASCII characters.', {
        details: {
          path: 'headers.idempotency-key',
          issues: [
            {
              path: 'headers.idempotency-key',
              code: 'invalid_format',
              message: '1 to 200 printable ASCII',
            },
          ],
        },
      });
    const body = parsePartner(R.sendProductionAnnulment.body, request.body, 'body');
    // The Partner API names a reused Idempotency-Key with another body IDEMPOTENCY_CONFLICT on every
    // route (runs, approval sends, annulments); details.directCode keeps the direct API's name.
    let result;
    try {
      result = await sendAnnulment({
        database,
        tenant: account.tenant,
        environment: 'eCF',
        request: {
          ...body,
          ranges: body.ranges.map((range) => ({ ...range, type: typeCode(range.type) })),
        },
        idempotencyKey: key,
        xsd: options.xsd,
        clientFor: options.clientFor,
        ...certificateSource,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'ANECF_IDEMPOTENCY_CONFLICT')
        throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with other parameters.', {
          details: { ...error.details, idempotencyKey: key, directCode: error.code },
        });
      throw error;
    }
    return reply
      .code(result.replayed ? 200 : result.httpStatus)
      .send({ ...annulmentBodyOf('eCF', result.annulment), ...naming(account) });
  });
  route(R.listProductionAnnulments, async (request) => {
    const account = accountOf(request);
    const query = parsePartner(R.listProductionAnnulments.query, request.query, 'query');
    const page = await listAnnulments({
      database,
      tenantId: account.id,
      environment: 'eCF',
      status: query.status,
      limit: query.limit === undefined ? undefined : Number(query.limit),
      cursor: query.cursor,
    });
    return {
      ok: true,
      ...naming(account),
      items: page.items.map((item) => ({ ...annulmentSummaryOf('eCF', item), environment: 'production' })),
      nextCursor: page.nextCursor,
    };
  });
  route(R.getProductionAnnulment, async (request) => {
    const account = accountOf(request);
    const { annulmentId } = parsePartner(R.getProductionAnnulment.params, request.params, 'path');
    const annulment = await getAnnulment({ database, tenantId: account.id, environment: 'eCF', annulmentId });
    return { ...annulmentBodyOf('eCF', annulment), ...naming(account) };
  });
  route(R.listProductionSequences, async (request) => {
    const account = accountOf(request);
    const ranges = await listSequenceRanges({ database, tenantId: account.id, environment: 'eCF' });
    return { ok: true, ...naming(account), items: ranges.map(sequenceRangeOf) };
  });
  route(R.registerProductionSequence, async (request, reply) => {
    const account = accountOf(request);
    const body = parsePartner(R.registerProductionSequence.body, request.body, 'body');
    const range = await registerSequenceRange({
      database,
      tenantId: account.id,
      environment: 'eCF',
      type: typeCode(body.type),
      from: body.from,
      to: body.to,
      sequenceExpirationDate: body.sequenceExpirationDate,
    });
    return reply.code(201).send({ ok: true, ...naming(account), sequence: sequenceRangeOf(range) });
  });

  // --- Inbound (production) -----------------------------------------------------------------
  route(R.listProductionInboundDocuments, async (request) => {
    const account = accountOf(request);
    const query = parsePartner(R.listProductionInboundDocuments.query, request.query, 'query');
    assertProductionActive({ environment: 'eCF', productionState: account.productionState });
    const { documentType, ...rest } = query;
    const parsed = parseReceivedQuery(ZReceivedListQuery, {
      ...rest,
      ...(documentType === undefined ? {} : { type: documentType }),
    });
    const page = await findReceivedDocuments({
      database,
      tenantId: account.id,
      environment: 'eCF',
      query: parsed,
      cursorSecret: options.cursorSecret,
    });
    return {
      ok: true,
      ...naming(account),
      items: page.items.map((item) => ({ ...item, environment: 'production' })),
      nextCursor: page.nextCursor,
    };
  });
  route(R.submitProductionCommercialApproval, async (request, reply) => {
    const account = accountOf(request);
    const { inboundDocumentId } = parsePartner(
      R.submitProductionCommercialApproval.params,
      request.params,
      'path',
    );
    const body = parsePartner(R.submitProductionCommercialApproval.body, request.body, 'body');
    const result = await submitCommercialApproval({
      database,
      tenant: account.tenant,
      environment: 'eCF',
      inboundDocumentId: ID_OF_UUID(inboundDocumentId),
      request: body,
      xsd: options.xsd,
      clientFor: options.clientFor,
      enqueue: options.enqueue,
      ...certificateSource,
    });
    return reply.code(result.httpStatus).send({
      ok: true,
      ...naming(account),
      inboundDocumentId,
      commercialApproval: result.commercialApproval,
    });
  });
}

/** The active certificate's validity for the status route (the metadata route has the rest). */
async function certificateSummaryOf(database: TDatabase, tenantId: string) {
  const certificates = await findTenantCertificates({ database, tenantId });
  const active = certificates.find((certificate) => certificate.active);
  if (active === undefined) return null;
  return { validTo: active.validTo.toISOString(), expired: active.validTo.getTime() < Date.now() };
}

/** The document routes of one family: the direct emission, status, XML and PDF use-cases. */
function registerDocumentFamily(app: FastifyInstance, options: TPartnerRoutesOptions, family: TFamily): void {
  const { database } = options;
  const environment = FAMILY_ENVIRONMENT[family];
  const partnerEnvironment = PARTNER_ENVIRONMENT_OF[environment];
  const contracts =
    family === 'production'
      ? {
          submit: PARTNER_ROUTES.submitProductionDocument,
          batch: PARTNER_ROUTES.productionDocumentStatusBatch,
          get: PARTNER_ROUTES.getProductionDocument,
          xml: PARTNER_ROUTES.productionDocumentXml,
          pdf: PARTNER_ROUTES.productionDocumentPdf,
        }
      : {
          submit: PARTNER_ROUTES.submitTestecfDocument,
          batch: PARTNER_ROUTES.testecfDocumentStatusBatch,
          get: PARTNER_ROUTES.getTestecfDocument,
          xml: PARTNER_ROUTES.testecfDocumentXml,
          pdf: PARTNER_ROUTES.testecfDocumentPdf,
        };
  const route = (contract: TPartnerRouteContract, handler: THandler) =>
    partnerRoute(app, options, contract, handler);
  const naming = (account: TFiscalAccount) => ({
    fiscalAccountId: account.id,
    environment: partnerEnvironment,
  });
  const answer = (account: TFiscalAccount, document: Document, warnings: TSubmissionIssue[]) => {
    const body = submitResponse(document, warnings);
    return {
      ...body,
      ...naming(account),
      result: withPartnerPdfUrl(body.result, account.id, family, document.id),
    };
  };

  route(contracts.submit, async (request, reply) => {
    const account = accountOf(request);
    const query = parsePartner(contracts.submit.query, request.query, 'query');
    const wait = preferWaitOf(request.headers.prefer);
    const body = parsePartner(contracts.submit.body, request.body, 'body');
    const rawDocument = rawMemberText(request.rawBody, 'document');
    const now = new Date();
    const context = { database, tenant: account.tenant, environment, xsd: options.xsd, now };
    if (query.validate === 'true') {
      const preflight = await preflightDocument({ ...context, rawBody: rawDocument });
      return reply.code(200).send({
        ok: true,
        encf: preflight.encf,
        ...naming(account),
        status: 'validated',
        warnings: preflight.warnings,
        errors: [],
        result: { securityCode: null, qrUrl: null, printing: null, printingStatus: null, trackId: null },
      });
    }
    // In production the use-case answers 423 first (no authorization, no emission whatever the
    // plan), then the plan of the account's Partner (402, 429): the same rule as the direct route.
    const issued = await issueDocument({
      ...context,
      rawBody: rawDocument,
      body: body.document,
      enqueue: options.enqueue,
      plans: options.plans,
    });
    let document = issued.document;
    if (!isPrintable(document) && wait !== null) {
      document = await options.waiter.waitFor(
        document.id,
        wait * 1000,
        () => getDocument({ database, tenantId: account.id, environment, reference: issued.document.id }),
        isPrintable,
      );
    }
    if (isPrintable(document)) {
      if (wait !== null) reply.header('preference-applied', `wait=${wait}`);
      return reply.code(201).send(answer(account, document, issued.warnings));
    }
    return reply
      .code(202)
      .header('retry-after', String(SUBMIT_RETRY_AFTER_SECONDS))
      .send(answer(account, document, issued.warnings));
  });

  route(contracts.batch, async (request) => {
    const account = accountOf(request);
    const body = parsePartner(contracts.batch.body, request.body, 'body');
    const result = await findDocumentStatuses({
      database,
      tenantId: account.id,
      environment,
      references: [...(body.documentIds ?? []), ...(body.encfs ?? [])],
    });
    return {
      ok: true,
      ...naming(account),
      found: result.found.map((status) => withPartnerPdfUrl(status, account.id, family, status.documentId)),
      unfound: result.unfound,
    };
  });

  route(contracts.get, async (request) => {
    const account = accountOf(request);
    const { documentId } = parsePartner(contracts.get.params, request.params, 'path');
    const result = await findDocumentStatuses({
      database,
      tenantId: account.id,
      environment,
      references: [documentId],
    });
    const found = result.found[0];
    if (found === undefined)
      throw new AppError('NOT_FOUND', 'No such document in this account and environment.');
    return {
      ok: true,
      ...naming(account),
      document: withPartnerPdfUrl(found, account.id, family, found.documentId),
    };
  });

  const download = (
    contract: TPartnerRouteContract & TRouteContract,
    types: [string, ...string[]],
    load: typeof getSignedDocumentXml | typeof getDocumentPdf,
  ) =>
    route(contract, async (request, reply) => {
      const account = accountOf(request);
      const { documentId } = parsePartner(contract.params!, request.params, 'path') as { documentId: string };
      const file = await load({
        database,
        tenantId: account.id,
        environment,
        reference: documentId,
        beforeContent: () => assertAccepts(request.headers.accept, types),
      });
      return reply
        .code(200)
        .type(types[0])
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.content);
    });
  download(contracts.xml, ['application/xml', 'text/xml'], getSignedDocumentXml);
  download(contracts.pdf, ['application/pdf'], getDocumentPdf);
}
