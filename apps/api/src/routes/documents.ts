import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Document, Environment, TDatabase, TEnqueue } from '@ecf/db';
import type { TXsdValidators } from '@ecf/fiscal-core';
import {
  AppError,
  assertProductionActive,
  findDocumentStatuses,
  findIssuedDocuments,
  getDocument,
  getDocumentPdf,
  getSignedDocumentXml,
  isPrintable,
  issueDocument,
  preflightDocument,
  printingOf,
  printingStatusOf,
  type TPartnerPlans,
  type TSubmissionIssue,
} from '@ecf/services';
import { PREFER_WAIT_MAX_SECONDS, ROUTES, SUBMIT_RETRY_AFTER_SECONDS } from '@ecf/contract';
import type { createDocumentWaiter } from '../document-waiter.ts';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';

export { STATUS_BATCH_MAX, ZStatusBatchRequest } from '@ecf/contract';

export type TDocumentRoutesOptions = TAuthenticationContext & {
  xsd: TXsdValidators;
  /** The API's enqueue function (emissions committed together enqueue their jobs in one statement). */
  enqueue: TEnqueue;
  waiter: ReturnType<typeof createDocumentWaiter>;
  cursorSecret: string;
  /** Partner plans: an eCF emission of an account a Partner manages meets its plan here too (402, 429). */
  plans: TPartnerPlans;
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

export function submitResponse(document: Document, warnings: TSubmissionIssue[]) {
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
export function assertAccepts(header: string | undefined, types: readonly [string, ...string[]]): void {
  if (header === undefined || header.trim() === '') return;
  const [type] = types;
  const majors = types.map((candidate) => `${candidate.split('/')[0] ?? ''}/*`);
  const ranges = header.split(',').map((range) => {
    const [mediaRange = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    return { mediaRange, q: q === undefined ? 1 : Number(q.slice(2)) };
  });
  if (ranges.some((range) => [...types, ...majors, '*/*'].includes(range.mediaRange) && !(range.q <= 0)))
    return;
  throw new AppError('NOT_ACCEPTABLE', `This download is ${type}; send Accept: ${types.join(', ')} or */*.`, {
    details: { accepted: [...types, '*/*'] },
  });
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
      assertProductionActive({
        environment: principal.environment,
        productionState: principal.tenant.productionState,
      });
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
        plans: options.plans,
      });
      let document = issued.document;
      if (!isPrintable(document) && wait !== null) {
        document = await options.waiter.waitFor(
          document.id,
          wait * 1000,
          () =>
            getDocument({
              database,
              tenantId: principal.tenantId,
              environment: principal.environment,
              reference: issued.document.id,
            }),
          isPrintable,
        );
      }
      return sendSubmitted(reply, document, issued.warnings, wait);
    },
  });

  // Downloads (clarification 17): the 404s, then Accept, then the 409s; the file as an attachment.
  registerDownload(app, options, ROUTES.documentXml, ['application/xml', 'text/xml'], getSignedDocumentXml);
  registerDownload(app, options, ROUTES.documentPdf, ['application/pdf'], getDocumentPdf);
}

/**
 * A download route: `GET .../{documentReference}/xml|pdf` with `ecf:read`; `Accept` must allow one
 * of `types` (the first is what is served) or their wildcards; the file comes as an attachment
 * named as the tax authority names it. `Accept` is checked by the use-case's `beforeContent`, once
 * the document is known to be this account's: another tenant's document is 404 whatever `Accept`
 * says, and a refused `Accept` costs no artifact read or render.
 */
function registerDownload(
  app: FastifyInstance,
  options: TDocumentRoutesOptions,
  route: typeof ROUTES.documentXml | typeof ROUTES.documentPdf,
  types: [string, ...string[]],
  load: (input: {
    database: TDatabase;
    tenantId: string;
    environment: Environment;
    reference: string;
    beforeContent: (document: Document) => void;
  }) => Promise<{ content: Buffer; fileName: string }>,
): void {
  app.get(route.path, { preHandler: requireApiKey(options, ['ecf:read']) }, async (request, reply) => {
    const principal = principalOf(request);
    const params = route.params.parse(request.params);
    const file = await load({
      database: options.database,
      tenantId: principal.tenantId,
      environment: principal.environment,
      reference: params.documentReference,
      beforeContent: () => assertAccepts(request.headers.accept, types),
    });
    return reply
      .code(200)
      .type(types[0])
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .send(file.content);
  });
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
