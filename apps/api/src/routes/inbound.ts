/**
 * Received documents (issue 18, task L; docs/received-documents.md): the e-CF suppliers sent and
 * the commercial approvals (ACECF) customers sent, their items and their kept XML. Every route
 * needs `ecf:read` and, in eCF, active production (423 like the issued list).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Environment, TScope as TScopeName } from '@ecf/db';
import {
  assertProductionActive,
  findReceivedApprovals,
  findReceivedDocuments,
  getReceivedApproval,
  getReceivedApprovalXml,
  getReceivedDocument,
  getReceivedDocumentXml,
  parseReceivedQuery,
} from '@ecf/services';
import { ROUTES } from '@ecf/contract';
import { principalOf, requireApiKey, type TAuthenticationContext } from '../plugins/authentication.ts';
import { assertAccepts } from './documents.ts';

export type TInboundRoutesOptions = TAuthenticationContext & { cursorSecret: string };

const XML_TYPES: [string, ...string[]] = ['application/xml', 'text/xml'];

/** The principal, once its environment may read received documents (eCF: active production). */
function readerOf(request: FastifyRequest) {
  const principal = principalOf(request);
  assertProductionActive({
    environment: principal.environment,
    productionState: principal.tenant.productionState,
  });
  return principal;
}

type TScope = { database: TInboundRoutesOptions['database']; tenantId: string; environment: Environment };
type TRoute = { path: string; scopes: readonly TScopeName[] };
type TIdRoute = TRoute & { params: z.ZodType<{ inboundDocumentId: string }> };
type TKindRoutes<TQuery> = {
  list: TRoute & { query: z.ZodType<TQuery> };
  get: TIdRoute;
  xml: TIdRoute;
  find: (scope: TScope & { query: TQuery; cursorSecret: string }) => Promise<object>;
  getItem: (scope: TScope & { inboundDocumentId: string }) => Promise<{ item: object }>;
  getXml: (
    scope: TScope & { inboundDocumentId: string; beforeContent: () => void },
  ) => Promise<{ fileName: string; content: Buffer | Uint8Array | string }>;
};

/** The list, item and XML routes of one kind of received document (e-CF or ACECF): the same shape. */
function registerReceivedKind<TQuery>(
  app: FastifyInstance,
  options: TInboundRoutesOptions,
  kind: TKindRoutes<TQuery>,
): void {
  const { database, cursorSecret } = options;
  const scopeOf = (request: FastifyRequest): TScope => {
    const principal = readerOf(request);
    return { database, tenantId: principal.tenantId, environment: principal.environment };
  };
  app.get(kind.list.path, { preHandler: requireApiKey(options, kind.list.scopes) }, async (request) => {
    const query = parseReceivedQuery(kind.list.query, request.query);
    return { ok: true, ...(await kind.find({ ...scopeOf(request), query, cursorSecret })) };
  });
  app.get(kind.get.path, { preHandler: requireApiKey(options, kind.get.scopes) }, async (request) => {
    const { inboundDocumentId } = kind.get.params.parse(request.params);
    const { item } = await kind.getItem({ ...scopeOf(request), inboundDocumentId });
    return { ok: true, ...item };
  });
  app.get(kind.xml.path, { preHandler: requireApiKey(options, kind.xml.scopes) }, async (request, reply) => {
    const { inboundDocumentId } = kind.xml.params.parse(request.params);
    const file = await kind.getXml({
      ...scopeOf(request),
      inboundDocumentId,
      beforeContent: () => assertAccepts(request.headers.accept, XML_TYPES),
    });
    return reply
      .code(200)
      .type('application/xml')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .send(file.content);
  });
}

export function registerInboundRoutes(app: FastifyInstance, options: TInboundRoutesOptions): void {
  registerReceivedKind(app, options, {
    list: ROUTES.listReceivedDocuments,
    get: ROUTES.getReceivedDocument,
    xml: ROUTES.getReceivedDocumentXml,
    find: findReceivedDocuments,
    getItem: getReceivedDocument,
    getXml: getReceivedDocumentXml,
  });
  registerReceivedKind(app, options, {
    list: ROUTES.listReceivedApprovals,
    get: ROUTES.getReceivedApproval,
    xml: ROUTES.getReceivedApprovalXml,
    find: findReceivedApprovals,
    getItem: getReceivedApproval,
    getXml: getReceivedApprovalXml,
  });
}
