import { z } from 'zod';
import { ZDirectWebhookPayload, ZPartnerWebhookPayload } from '@ecf/contract';
import { ROUTES, ZEnvironment, ZErrorResponse, type TRouteContract } from '@ecf/contract';
import {
  PARTNER_ROUTES,
  PARTNER_UPLOAD_PREFLIGHT_ROUTE,
  PARTNER_UPLOAD_ROUTE,
  type TPartnerRouteContract,
} from '@ecf/contract';
import { declaredErrorsOf, type TDocumentedRouteName } from '@ecf/contract';
import { SERVICE_VERSION } from './routes/operational.ts';

type TJsonSchema = Record<string, unknown> & {
  properties?: Record<string, TJsonSchema>;
  required?: string[];
  description?: string;
};

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): TJsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as TJsonSchema;
  delete json['$schema'];
  return json;
}

/** `/:environment/x` → `/{environment}/x`. */
export function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The Fastify prefix of the direct account routes: the environment of the API key. */
const ENVIRONMENT_PREFIX = '/:environment';

/**
 * Where a route is documented. The direct account routes live under the environment prefix, and
 * `/{environment}/contingencia` next to `/ri/{token}` is ambiguous to any router that reads the
 * templates alone (two segments, either one a variable). The spec calls `/{environment}` a prefix,
 * so it is documented as one: those routes are listed without it under a path-level server
 * `/{environment}` whose variable is the environment. The URLs are the same.
 */
export function documentedPathOf(fastifyPath: string): { path: string; underEnvironment: boolean } {
  if (fastifyPath.startsWith(`${ENVIRONMENT_PREFIX}/`)) {
    return { path: openApiPath(fastifyPath.slice(ENVIRONMENT_PREFIX.length)), underEnvironment: true };
  }
  return { path: openApiPath(fastifyPath), underEnvironment: false };
}

/** The server of the direct account routes: the service's origin, then the environment segment. */
export const ENVIRONMENT_SERVER = {
  url: '/{environment}',
  description: "Direct account API in one environment: the API key's",
  variables: {
    environment: {
      enum: [...ZEnvironment.options],
      default: 'TesteCF',
      description:
        'TesteCF (test), CerteCF (certification) or eCF (production). A key of another environment is 403 INSUFFICIENT_SCOPE (details.reason environment_mismatch, clarification 12); an unknown segment 404 ROUTE_NOT_FOUND.',
    },
  },
};

function parametersOf(location: 'path' | 'query' | 'header', schema: z.ZodType | undefined, omit: string[]) {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {})
    .filter(([name]) => !omit.includes(name))
    .map(([name, property]) => {
      const { description, ...rest } = property;
      return {
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
}

/** Who may call a route: an API key with one of its scopes, a partner key with its permission, the upload token, or anyone. */
function securityOf(route: TRouteContract | TPartnerRouteContract) {
  if ('permission' in route)
    return {
      security: [{ partnerKey: [] }],
      'x-permission': route.permission,
      ...(route.permissionWhen ? { 'x-permission-when': route.permissionWhen } : {}),
    };
  if (route === PARTNER_UPLOAD_ROUTE) return { security: [{ uploadToken: [] }] };
  if (route.scopes) return { security: [{ apiKey: [] }], 'x-scopes': route.scopes };
  return { security: [] };
}

/** What a status answers when the contract writes no response for it (codes every route of a kind shares). */
const EDGE_RESPONSE_DESCRIPTIONS: Record<number, string> = {
  400: 'refused before the route runs (the HTTP layer: not valid HTTP/1.1, headers over 16 KiB, not received in time)',
  500: 'an unexpected failure; the answer reveals only the correlationId',
  503: 'the process is shutting down (details.reason shutting_down) or no database connection is free (database_busy, Retry-After); send the request again',
};

type TContractResponse = TRouteContract['responses'][number];

/**
 * The contract's responses with the declared errors (route-errors.ts) of each status: the codes in
 * `x-error-codes` and, on an ErrorResponse, as the enum of `error.code`. A status the route answers
 * that the contract does not describe gets a response naming its codes.
 */
function responsesOf(operationId: string, route: TRouteContract) {
  const declared = declaredErrorsOf(operationId as TDocumentedRouteName, route);
  const statuses = [...new Set([...Object.keys(route.responses).map(Number), ...declared.keys()])].sort(
    (a, b) => a - b,
  );
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = declared.get(status);
      const response: TContractResponse = route.responses[status] ?? {
        description: `${codes?.join(', ')}: ${EDGE_RESPONSE_DESCRIPTIONS[status] ?? 'refused'}`,
        schema: ZErrorResponse,
      };
      const schema = response.schema ? schemaOf(response.schema, 'output') : undefined;
      const code = schema?.properties?.['error']?.properties?.['code'];
      if (code && codes) code['enum'] = codes;
      return [
        String(status),
        {
          description: response.description,
          ...(codes ? { 'x-error-codes': codes } : {}),
          ...(response.headers
            ? {
                headers: Object.fromEntries(
                  Object.entries(response.headers).map(([name, description]) => [
                    name,
                    { description, schema: { type: 'string' } },
                  ]),
                ),
              }
            : {}),
          ...(schema
            ? { content: { 'application/json': { schema } } }
            : response.contentType
              ? { content: { [response.contentType]: {} } }
              : {}),
        },
      ];
    }),
  );
}

function operationOf(operationId: string, route: TRouteContract, underEnvironment: boolean) {
  // Under the environment's server the environment is a server variable, not a path parameter.
  const omitted = underEnvironment ? ['environment'] : [];
  return {
    operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...securityOf(route),
    parameters: [
      ...parametersOf('path', route.params, omitted),
      ...parametersOf('query', route.query, []),
      ...parametersOf('header', route.headers, []),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses: responsesOf(operationId, route),
  };
}

const DESCRIPTION = `Direct account API of the e-CF service. Every JSON answer carries correlationId (also header x-correlation-id); errors are ErrorResponse. An API reference rendered from this document is served at /docs.

The direct account routes are under the environment prefix /{environment} (TesteCF, CerteCF or eCF; the server of those operations), authenticated by X-API-KEY; /healthz, /readyz, /metrics, /openapi.json and /ri/{token} are public.

Decisions where the interface specification is silent (the clarifications; each is also described on its operation, and apps/api/README.md has the rest):
1. A 422 of the submission is ErrorResponse and SubmitResponse at once (code VALIDATION_FAILED, errors[], warnings[]).
2. FieldError: { path, code, message, details: { code, ... } }; path uses the names the client sent, dots for members and [i] for array positions; code mirrors details.code.
3. Warning: the same shape; SQUARING_ABOVE_TAXAUTH_TOLERANCE carries declared, expected (decimal strings with two decimals) and toleranceCents.
4. SubmitResponse (200, 201, 202): ok, documentId (absent in a preflight), encf, environment, status (validated in a preflight), warnings, errors, result { securityCode, qrUrl, printing, printingStatus, trackId } (null until known).
5. Status batch: { ok, found[], unfound[] }; each StatusResult has documentId, encf, type, status, trackId, securityCode, printing, printingStatus, lastError, errors ([lastError] or []), updatedAt.
6. Lists: { ok, items, nextCursor }; date filters YYYY-MM-DD (Dominican Republic time); type E31 or 31; limit 1 to 100, default 50.
7. Issuer RNC different from the account's: ISSUER_RNC_MISMATCH on issuer.rnc or ECF.Encabezado.Emisor.RNCEmisor.
8. InformacionReferencia code 5 outside type 31 or without an E32 eNCF: REFERENCE_CODE_NOT_APPLICABLE.
9. XML that fails the official XSD: XSD_VALIDATION_FAILED on path ECF (details.line when known).
10. A client signature date in the future: SIGNATURE_DATE_IN_FUTURE; unreadable: SIGNATURE_DATE_INVALID.
11. An impossible sequence expiration date: SEQUENCE_EXPIRATION_DATE_INVALID (wins over DATE_INVALID).
12. A key of another environment: 403 INSUFFICIENT_SCOPE with details.reason environment_mismatch.
13. A replay of an already printable document answers 201 whether or not Prefer was sent. The same eNCF with other content: 409 ENCF_CONFLICT with details.conflicts[] (encf, documentId, status, reason).
14. Tax-authority-shaped JSON: decimals as JSON strings or numbers; a repeated element is an array under its element name, a single one may be an object.
15. FechaHoraFirma / signatureDate omitted: the service sets the signing time when it signs.
16. A note referencing an eNCF this account never issued through the service is accepted.
17. XML and PDF downloads honour Accept (application/xml, text/xml, application/pdf, their wildcards, */*); a refused Accept is 400 NOT_ACCEPTABLE, after the 404 checks; error answers are JSON ErrorResponse.
18. The simplified contract: packages/fiscal-core/docs/simplified-contract.md.
Rate limits per API key and plan, fixed 60-second windows; 429 RATE_LIMIT_EXCEEDED with Retry-After.

The Partner API (/partner/v1, X-PARTNER-KEY, when the deployment enables it) is documented with its operations: each names the permission it needs (x-permission); closed contracts (400 INVALID_PARTNER_PAYLOAD); docs/partner-api.md.

SDK: @ecf/sdk (TypeScript and JavaScript; Node 20+, Deno, browsers) has one method per operationId of this document on EcfClient (X-API-KEY) and PartnerClient (X-PARTNER-KEY), retries only where repeating is safe, Idempotency-Key, Prefer: wait, pagination, typed errors and verifyWebhook. Its README, in the package (packages/sdk/README.md), has "Migrating from raw HTTP": the same requests, one call at a time.`;

/** Every route of the document: the direct API's and, when enabled, the Partner API's. */
export function documentedRoutes(options: { partnerApi: boolean }): Array<[string, TRouteContract]> {
  return [
    ...(Object.entries(ROUTES) as Array<[string, TRouteContract]>),
    ...(options.partnerApi
      ? [
          ...(Object.entries(PARTNER_ROUTES) as Array<[string, TRouteContract]>),
          ['uploadCertificate', PARTNER_UPLOAD_ROUTE] as [string, TRouteContract],
          ['uploadCertificatePreflight', PARTNER_UPLOAD_PREFLIGHT_ROUTE] as [string, TRouteContract],
        ]
      : []),
  ];
}

/**
 * The OpenAPI 3.1 document of the API, generated from the route tables of @ecf/contract (direct-api.ts and
 * partner-api.ts; the Partner routes only when the Partner API is enabled: the document says
 * what is served).
 */
export function buildOpenApiDocument(options: { partnerApi: boolean } = { partnerApi: false }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, route] of documentedRoutes(options)) {
    const { path, underEnvironment } = documentedPathOf(route.path);
    const item = (paths[path] ??= underEnvironment ? { servers: [ENVIRONMENT_SERVER] } : {});
    if ('servers' in item !== underEnvironment)
      throw new Error(`${route.path}: documented at ${path}, which another route uses with another prefix`);
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`${route.method} ${path} is in the route table twice`);
    item[method] = operationOf(operationId, route, underEnvironment);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'e-CF service: direct account API',
      version: SERVICE_VERSION,
      description: DESCRIPTION,
      // The service is not published under an open licence; SPDX's LicenseRef- form names that.
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This service (the origin that serves this document)' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        ...(options.partnerApi
          ? {
              partnerKey: {
                type: 'apiKey',
                in: 'header',
                name: 'X-PARTNER-KEY',
                description:
                  'Partner API key; its profile (full, onboarding, runtime, webhooks) decides the permissions (x-permission of each operation)',
              },
              uploadToken: {
                type: 'apiKey',
                in: 'header',
                name: 'Authorization',
                description: 'Upload <uploadToken> of a certificate upload session',
              },
            }
          : {}),
      },
    },
    paths,
    webhooks: webhooksOf(options),
  };
}

/**
 * What the service POSTs to a receiver (OpenAPI 3.1 `webhooks`): the direct payload and, with the
 * Partner API, the Partner one, as schemas a generated client types its events with (`@ecf/sdk`'s
 * `verifyWebhook` returns them). The signature rules are in each description and the spec's Events.
 */
function webhooksOf(options: { partnerApi: boolean }) {
  const event = (operationId: string, summary: string, schema: z.ZodType) => ({
    post: {
      operationId,
      summary,
      // The receiver authenticates the service by the signature, not by a credential of its own.
      security: [],
      description:
        'Headers Svc-Event-Id (the same on every retry), Svc-Event-Type and Svc-Signature (t=<unix seconds>,v1=<hex>; two v1 during a secret rotation): HMAC-SHA256 of `<t>.<raw body>` with the endpoint secret, compared in constant time, t within 5 minutes. Answer 2xx after storing Svc-Event-Id under a unique constraint; a duplicate answers 2xx without repeating effects.',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemaOf(schema, 'output') } },
      },
      responses: { '200': { description: 'any 2xx: received (the delivery succeeded)' } },
    },
  });
  return {
    directEvent: event(
      'directWebhookEvent',
      'An event of a direct account (endpoints configured in the portal)',
      ZDirectWebhookPayload,
    ),
    ...(options.partnerApi
      ? {
          partnerEvent: event(
            'partnerWebhookEvent',
            'A Partner event (partner.webhook.v1)',
            ZPartnerWebhookPayload,
          ),
        }
      : {}),
  };
}
