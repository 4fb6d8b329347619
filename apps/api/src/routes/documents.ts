import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Document } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  AppError,
  findDocumentStatuses,
  findIssuedDocuments,
  getDocumentPdf,
  getSignedDocumentXml,
  isPrintable,
  issueDocument,
  preflightDocument,
  printingOf,
  printingStatusOf,
  type TEnqueueJob,
  type TEnqueueJobs,
  type TSubmissionIssue,
} from '@ecf/services';
import { PREFER_WAIT_MAX_SECONDS, ROUTES, SUBMIT_RETRY_AFTER_SECONDS } from '../contract.ts';
import type { createDocumentWaiter } from '../document-waiter.ts';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';

export { STATUS_BATCH_MAX, ZStatusBatchRequest } from '../contract.ts';

export type TDocumentRoutesOptions = TAuthenticationContext & {
  xsd: TXsdValidators;
  enqueue: TEnqueueJob;
  /** Several `document.sign` jobs at once (pg-boss `insert`): emissions committed together enqueue in one statement. */
  enqueueJobs?: TEnqueueJobs;
  waiter: ReturnType<typeof createDocumentWaiter>;
  cursorSecret: string;
};

/**
 * `wait=N` of an RFC 7240 `Prefer` header (several headers or comma-separated preferences allowed),
 * capped at 15 seconds; null when absent or not a positive integer (an unusable preference is ignored).
 */
export function parsePreferWait(header: string | string[] | undefined): number | null {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  for (const value of values) {
    for (const preference of value.split(',')) {
      const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*(;.*)?$/i.exec(preference);
      if (match?.[1]) {
        const seconds = Number(match[1]);
        return seconds > 0 ? Math.min(seconds, PREFER_WAIT_MAX_SECONDS) : null;
      }
    }
  }
  return null;
}

function submitResponse(document: Document, warnings: TSubmissionIssue[]) {
  return {
    ok: true as const,
    documentId: document.id,
    encf: document.encf,
    environment: document.environment,
    status: document.status,
    warnings,
    errors: [],
    result: {
      securityCode: document.securityCode,
      qrUrl: document.qrUrl,
      printing: printingOf(document),
      printingStatus: printingStatusOf(document.status, document.trackId),
      trackId: document.trackId,
    },
  };
}

/**
 * Clarification 17: downloads honour `Accept`. A request whose `Accept` lists neither `type`, its
 * major type with a wildcard subtype, nor the full wildcard (with a q above 0) is refused with 400
 * NOT_ACCEPTABLE (406 is not in the spec's status set); no header at all is served.
 */
export function assertAccepts(header: string | undefined, type: string): void {
  if (header === undefined || header.trim() === '') return;
  const major = `${type.split('/')[0] ?? ''}/*`;
  const ranges = header.split(',').map((range) => {
    const [mediaRange = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    return { mediaRange, q: q === undefined ? 1 : Number(q.slice(2)) };
  });
  if (ranges.some((range) => [type, major, '*/*'].includes(range.mediaRange) && !(range.q <= 0))) return;
  throw new AppError('NOT_ACCEPTABLE', `This download is ${type}; send Accept: ${type} or */*.`, {
    details: { accepted: [type, '*/*'] },
  });
}

function productionRequired(environment: string, productionState: string): void {
  if (environment === 'eCF' && productionState !== 'active') {
    throw new AppError(
      'PRODUCTION_NOT_ACTIVE',
      'eCF needs an active production authorization for this account.',
      { details: { productionState } },
    );
  }
}

export function registerDocumentRoutes(app: FastifyInstance, options: TDocumentRoutesOptions): void {
  const { database } = options;

  app.post(
    ROUTES.statusBatch.path,
    { preHandler: requireApiKey(options, ['status:read']) },
    async (request) => {
      const principal = principalOf(request);
      const body = ROUTES.statusBatch.body.parse(request.body ?? {});
      const references = [...(body.encfs ?? []), ...(body.documentReferences ?? [])];
      const result = await findDocumentStatuses({
        database,
        tenantId: principal.tenantId,
        environment: principal.environment,
        references,
      });
      return { ok: true, ...result };
    },
  );

  app.get(
    ROUTES.listDocuments.path,
    { preHandler: requireApiKey(options, ['ecf:read']) },
    async (request) => {
      const principal = principalOf(request);
      const parsed = ROUTES.listDocuments.query.safeParse(request.query);
      if (!parsed.success) {
        throw new AppError(
          'INVALID_ISSUED_DOCUMENTS_QUERY',
          parsed.error.issues
            .map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`)
            .join('; '),
          {
            details: {
              issues: parsed.error.issues.map((issue) => ({
                path: issue.path.join('.'),
                code: issue.code,
                message: issue.message,
              })),
            },
          },
        );
      }
      const { cursor, limit, ...filters } = parsed.data;
      productionRequired(principal.environment, principal.tenant.productionState);
      const page = await findIssuedDocuments({
        database,
        tenantId: principal.tenantId,
        environment: principal.environment,
        filters,
        limit: limit ?? 50,
        cursor,
        cursorSecret: options.cursorSecret,
      });
      return { ok: true, ...page };
    },
  );

  // Preflight needs ecf:validate, emission ecf:create: the scope depends on the query.
  const authenticatePreflight = requireApiKey(options, ['ecf:validate']);
  const authenticateEmission = requireApiKey(options, ['ecf:create']);
  app.post(ROUTES.submitDocument.path, {
    preHandler: async function authenticate(request, reply) {
      const isPreflight = (request.query as { validate?: string }).validate === 'true';
      await (isPreflight ? authenticatePreflight : authenticateEmission).call(this, request, reply);
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const query = ROUTES.submitDocument.query.parse(request.query);
      if (request.rawBody === undefined) {
        throw new AppError('INVALID_JSON', 'Send the e-CF as a JSON body (Content-Type: application/json).', {
          details: { reason: 'body_missing' },
        });
      }
      const context = {
        database,
        tenant: principal.tenant,
        environment: principal.environment,
        xsd: options.xsd,
        now: new Date(),
      };

      if (query.validate === 'true') {
        const preflight = await preflightDocument({ ...context, rawBody: request.rawBody });
        return reply.code(200).send({
          ok: true,
          encf: preflight.encf,
          environment: principal.environment,
          status: 'validated',
          warnings: preflight.warnings,
          errors: [],
          result: { securityCode: null, qrUrl: null, printing: null, printingStatus: null, trackId: null },
        });
      }

      const wait = parsePreferWait(request.headers.prefer);
      const issued = await issueDocument({
        ...context,
        rawBody: request.rawBody,
        body: request.body,
        enqueue: options.enqueue,
        ...(options.enqueueJobs ? { enqueueJobs: options.enqueueJobs } : {}),
      });
      let document = issued.document;
      if (!isPrintable(document) && wait !== null) {
        document = await options.waiter.waitFor(
          document.id,
          wait * 1000,
          () => database.document.findUniqueOrThrow({ where: { id: issued.document.id } }),
          isPrintable,
        );
      }
      return sendSubmitted(reply, document, issued.warnings, wait);
    },
  });

  app.get(
    ROUTES.documentXml.path,
    { preHandler: requireApiKey(options, ['ecf:read']) },
    async (request, reply) => {
      const principal = principalOf(request);
      const params = ROUTES.documentXml.params.parse(request.params);
      const xml = await getSignedDocumentXml({
        database,
        tenantId: principal.tenantId,
        environment: principal.environment,
        reference: params.documentReference,
      });
      return reply
        .code(200)
        .type('application/xml')
        .header('content-disposition', `attachment; filename="${xml.fileName}"`)
        .send(xml.content);
    },
  );

  app.get(
    ROUTES.documentPdf.path,
    { preHandler: requireApiKey(options, ['ecf:read']) },
    async (request: FastifyRequest, reply) => {
      const principal = principalOf(request);
      const params = ROUTES.documentPdf.params.parse(request.params);
      assertAccepts(request.headers.accept, 'application/pdf');
      const pdf = await getDocumentPdf({
        database,
        tenantId: principal.tenantId,
        environment: principal.environment,
        reference: params.documentReference,
      });
      return reply
        .code(200)
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.fileName}"`)
        .send(pdf.content);
    },
  );
}

function sendSubmitted(
  reply: FastifyReply,
  document: Document,
  warnings: TSubmissionIssue[],
  wait: number | null,
) {
  if (isPrintable(document)) {
    // Clarification 13: printable (also on a replay) is 201 whether or not Prefer was sent.
    if (wait !== null) reply.header('preference-applied', `wait=${wait}`);
    return reply.code(201).send(submitResponse(document, warnings));
  }
  return reply
    .code(202)
    .header('retry-after', String(SUBMIT_RETRY_AFTER_SECONDS))
    .send(submitResponse(document, warnings));
}
