import { z } from 'zod';
import { ROUTES, type TRouteContract } from './contract.ts';
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

function parametersOf(location: 'path' | 'query' | 'header', schema: z.ZodType | undefined) {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
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

function operationOf(route: TRouteContract) {
  return {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.scopes ? { security: [{ apiKey: [] }], 'x-scopes': route.scopes } : { security: [] }),
    parameters: [
      ...parametersOf('path', route.params),
      ...parametersOf('query', route.query),
      ...parametersOf('header', route.headers),
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [
        status,
        {
          description: response.description,
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
          ...(response.schema
            ? { content: { 'application/json': { schema: schemaOf(response.schema, 'output') } } }
            : response.contentType
              ? { content: { [response.contentType]: {} } }
              : {}),
        },
      ]),
    ),
  };
}

const DESCRIPTION = `Direct account API of the e-CF service. Every JSON answer carries correlationId (also header x-correlation-id); errors are ErrorResponse.

Decisions where the interface specification is silent (see apps/api/README.md and the clarifications):
- A 422 of the submission is ErrorResponse and SubmitResponse at once (code VALIDATION_FAILED, errors[], warnings[]).
- FieldError and Warning: { path, code, message, details: { code, ... } }; money in details is a decimal string.
- SubmitResponse: ok, documentId (absent in a preflight), encf, environment, status (validated in a preflight), warnings, errors, result { securityCode, qrUrl, printing, trackId } (null until known).
- Status batch: { ok, found[], unfound[] }; lists: { ok, items, nextCursor }; date filters YYYY-MM-DD (Dominican time); type E31 or 31; limit 1 to 100, default 50.
- Issuer RNC different from the account's: ISSUER_RNC_MISMATCH; XSD failure: XSD_VALIDATION_FAILED on ECF; a key of another environment: 403 INSUFFICIENT_SCOPE (details.reason environment_mismatch).
- A replay of an already printable document answers 201 whether or not Prefer was sent. The same eNCF with other content: 409 ENCF_CONFLICT with details.conflicts[] (encf, documentId, status, reason).
- Rate limits per API key and plan, fixed 60-second windows; 429 RATE_LIMIT_EXCEEDED with Retry-After.`;

/** The OpenAPI 3.1 document of the API, generated from the route table of contract.ts. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of Object.values(ROUTES) as TRouteContract[]) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'e-CF service: direct account API', version: SERVICE_VERSION, description: DESCRIPTION },
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' } } },
    paths,
  };
}
