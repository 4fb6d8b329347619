/**
 * The generated half of `@ecf/sdk` (packages/sdk/src/generated/), written from the OpenAPI document
 * the API serves with the Partner API enabled:
 *
 * - `openapi.ts`: openapi-typescript's types of every operation (inputs and answers);
 * - `operations.ts`: the operation table (method, path, credential, parameters, how the answer is
 *   read, whether the SDK may retry it, how it pages) and one typed method per operation, named as
 *   its `operationId`, on `DirectOperations` (EcfClient) or `PartnerOperations` (PartnerClient).
 *
 * `src/openapi-client.test.ts` fails when the committed files are not what the served document
 * generates, so a new route cannot ship without its SDK method. Regenerate:
 * `bash ../../scripts/node24.sh node --experimental-transform-types test/sdk-generation.ts` from apps/api.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { NOT_IN_SDK } from '@ecf/contract';

export const SDK_GENERATED_DIRECTORY = path.join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'packages',
  'sdk',
  'src',
  'generated',
);

/**
 * POSTs whose repetition changes nothing: the e-CF submission (a replay of the same eNCF and
 * content answers the first document), the status batches and the preflights (they store
 * nothing), and the link of an account by its external id (PUT: the same account). With the GETs
 * and the routes that take an Idempotency-Key, these are the operations the SDK retries.
 */
const REPEATABLE: Readonly<Record<string, 'replay' | 'read' | 'idempotent'>> = {
  submitDocument: 'replay',
  submitProductionDocument: 'replay',
  submitTestecfDocument: 'replay',
  statusBatch: 'read',
  productionDocumentStatusBatch: 'read',
  testecfDocumentStatusBatch: 'read',
  prevalidateAnnulment: 'read',
  prevalidateProductionAnnulment: 'read',
  prevalidateCertification: 'read',
  linkFiscalAccount: 'idempotent',
};

/** Header parameters the SDK sets itself (options or the answer's kind): any other is a new case to design. */
const SDK_HEADERS = new Set(['idempotency-key', 'prefer', 'accept']);

type TParameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean };
type TResponse = { content?: Record<string, unknown> };
type TOperation = {
  operationId: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, unknown>>;
  parameters?: TParameter[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, TResponse>;
};
type TDocument = { paths: Record<string, Record<string, unknown> & { servers?: unknown[] }> };

type TSpec = {
  id: string;
  method: string;
  path: string;
  auth: 'apiKey' | 'partnerKey' | 'uploadToken' | 'none';
  pathParams: string[];
  query: string[];
  requiredQuery: string[];
  headers: string[];
  body: 'json' | 'multipart' | null;
  response: 'json' | 'binary' | 'text' | 'empty';
  accept: string;
  successStatuses: number[];
  retry: 'safe' | 'keyed' | 'replay' | 'read' | 'idempotent' | 'never';
  pagination: 'cursor' | 'offset' | null;
  summary: string;
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head'];

function specsOf(document: TDocument): TSpec[] {
  const specs: TSpec[] = [];
  for (const [documentedPath, item] of Object.entries(document.paths)) {
    const underEnvironment = Array.isArray(item.servers);
    for (const method of METHODS) {
      const operation = item[method] as TOperation | undefined;
      if (!operation) continue;
      const id = operation.operationId;
      if (id in NOT_IN_SDK) continue;
      const parameters = operation.parameters ?? [];
      const named = (location: TParameter['in']) =>
        parameters.filter((p) => p.in === location).map((p) => p.name);
      const headers = named('header').map((name) => name.toLowerCase());
      for (const header of headers)
        if (!SDK_HEADERS.has(header))
          throw new Error(
            `${id}: header parameter ${header} is new to the SDK (sdk-generation.ts SDK_HEADERS)`,
          );
      const scheme = Object.keys(operation.security?.[0] ?? {})[0];
      const auth =
        scheme === 'apiKey' || scheme === 'partnerKey' || scheme === 'uploadToken' ? scheme : 'none';
      const successStatuses = Object.keys(operation.responses)
        .map(Number)
        .filter((status) => status >= 200 && status < 300);
      const contentTypes = [
        ...new Set(successStatuses.flatMap((s) => Object.keys(operation.responses[s]?.content ?? {}))),
      ];
      const [contentType] = contentTypes;
      if (contentTypes.length > 1)
        throw new Error(`${id}: answers ${contentTypes.join(' and ')}; the SDK reads one kind`);
      const response =
        contentType === undefined
          ? 'empty'
          : contentType === 'application/json'
            ? 'json'
            : contentType.startsWith('text/')
              ? 'text'
              : 'binary';
      const query = named('query');
      const pathParams = named('path');
      for (const name of [...query, ...pathParams])
        if (name === 'body') throw new Error(`${id}: a parameter named body collides with the SDK's input`);
      const successSchemas = successStatuses.map(
        (s) =>
          (
            operation.responses[s]?.content?.['application/json'] as
              { schema?: { properties?: object } } | undefined
          )?.schema?.properties ?? {},
      );
      const answers = (field: string) => successSchemas.some((properties) => field in properties);
      const pagination =
        method === 'get' && query.includes('cursor') && answers('nextCursor')
          ? 'cursor'
          : method === 'get' && query.includes('offset') && answers('total')
            ? 'offset'
            : null;
      const repeatable = REPEATABLE[id];
      specs.push({
        id,
        method: method.toUpperCase(),
        path: (underEnvironment ? '/{environment}' : '') + documentedPath,
        auth,
        pathParams,
        query,
        requiredQuery: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
        headers,
        // The upload is the one body that is not JSON (multipart: the file and its password).
        body: operation.requestBody ? 'json' : id === 'uploadCertificate' ? 'multipart' : null,
        response,
        accept: contentType ?? '*/*',
        successStatuses,
        retry:
          method === 'get'
            ? 'safe'
            : headers.includes('idempotency-key')
              ? 'keyed'
              : repeatable !== undefined
                ? repeatable
                : 'never',
        pagination,
        summary: operation.summary ?? id,
      });
    }
  }
  return specs.sort((a, b) => a.id.localeCompare(b.id));
}

const RETRY_WORDS: Record<TSpec['retry'], string> = {
  safe: 'retried (a read)',
  keyed: 'retried with the same Idempotency-Key (generated when none is given)',
  replay: 'retried (a replay of the same eNCF and content answers the first document)',
  read: 'retried (it stores nothing)',
  idempotent: 'retried (the same external id links the same account)',
  never: 'not retried (the caller decides: error.retryable)',
};

function docComment(spec: TSpec): string {
  const summary = spec.summary.replace(/\*\//g, '*\\/');
  return [
    '  /**',
    `   * ${summary}`,
    '   *',
    `   * \`${spec.method} ${spec.path}\` · ${RETRY_WORDS[spec.retry]}${spec.pagination ? ' · pages: `paginate()`' : ''}`,
    '   */',
  ].join('\n');
}

function inputTypeOf(spec: TSpec): { type: string; optional: boolean } {
  const parts: string[] = [];
  const at = `operations['${spec.id}']`;
  if (spec.pathParams.length > 0) parts.push(`${at}['parameters']['path']`);
  if (spec.query.length > 0) parts.push(`NonNullable<${at}['parameters']['query']>`);
  if (spec.body === 'json') parts.push(`{ body: ${at}['requestBody']['content']['application/json'] }`);
  if (spec.body === 'multipart') parts.push('TCertificateUpload');
  if (parts.length === 0) return { type: 'Record<string, never>', optional: true };
  const optional = spec.pathParams.length === 0 && spec.body === null && spec.requiredQuery.length === 0;
  return { type: parts.join(' & '), optional };
}

function outputTypeOf(spec: TSpec): string {
  if (spec.response === 'binary') return 'EcfDownload';
  if (spec.response === 'text') return 'string';
  if (spec.response === 'empty') return 'undefined';
  return spec.successStatuses
    .map((status) => `operations['${spec.id}']['responses'][${status}]['content']['application/json']`)
    .join(' | ');
}

function tableEntry(spec: TSpec): string {
  const entry = {
    method: spec.method,
    path: spec.path,
    auth: spec.auth,
    pathParams: spec.pathParams,
    query: spec.query,
    headers: spec.headers,
    body: spec.body,
    response: spec.response,
    accept: spec.accept,
    retry: spec.retry,
    pagination: spec.pagination,
  };
  return `  ${spec.id}: ${JSON.stringify(entry)},`;
}

function classOf(name: string, description: string, specs: TSpec[]): string {
  const methods = specs.map((spec) => {
    const input = inputTypeOf(spec);
    return `${docComment(spec)}
  ${spec.id}(input: TInputs['${spec.id}']${input.optional ? ' = {}' : ''}, options?: TRequestOptions): Promise<TOutputs['${spec.id}']> {
    return this.call('${spec.id}', input, options) as Promise<TOutputs['${spec.id}']>;
  }`;
  });
  const paginated = specs.filter((spec) => spec.pagination).map((spec) => `'${spec.id}'`);
  const paginate = paginated.length
    ? `
  /** Every item of a listing, page after page (\`for await (const item of client.paginate('${specs.find((s) => s.pagination)?.id}', {...}))\`). */
  paginate<K extends ${paginated.join(' | ')}>(operationId: K, input: TInputs[K] = {} as TInputs[K], options?: TRequestOptions): AsyncIterable<TItemOf<K>> {
    return this.iterate(operationId, input, options) as AsyncIterable<TItemOf<K>>;
  }`
    : '';
  return `/** ${description} */
export abstract class ${name} extends ClientCore {
${methods.join('\n\n')}
${paginate}
}`;
}

const HEADER = `// Generated by apps/api/test/sdk-generation.ts from the service's OpenAPI document (Partner API
// included). Do not edit: regenerate with
// \`bash ../../scripts/node24.sh node --experimental-transform-types test/sdk-generation.ts\` from apps/api.
`;

/** The two generated files, formatted as the repository formats code. */
export async function generateSdkSources(
  document: unknown,
): Promise<Record<'openapi.ts' | 'operations.ts', string>> {
  const specs = specsOf(document as TDocument);
  const types = HEADER + astToString(await openapiTS(document as OpenAPI3, { silent: true }));
  const direct = specs.filter((spec) => spec.auth === 'apiKey' || spec.auth === 'none');
  const partner = specs.filter((spec) => spec.auth === 'partnerKey' || spec.auth === 'uploadToken');
  const operations = `${HEADER}import type { operations } from './openapi.ts';
import { ClientCore, type TCertificateUpload, type TOperationSpec, type TRequestOptions } from '../client-core.ts';
import type { EcfDownload } from '../download.ts';

/** Every operation the SDK offers: how it is called and whether it may be retried. */
export const OPERATIONS = {
${specs.map(tableEntry).join('\n')}
} as const satisfies Record<string, TOperationSpec>;

export type TOperationId = keyof typeof OPERATIONS;

/** What each operation takes: its path parameters and query, flat, and its JSON body as \`body\`. */
export interface TInputs {
${specs.map((spec) => `  ${spec.id}: ${inputTypeOf(spec).type};`).join('\n')}
}

/** What each operation answers when it succeeds (a failure is an EcfApiError). */
export interface TOutputs {
${specs.map((spec) => `  ${spec.id}: ${outputTypeOf(spec)};`).join('\n')}
}

/** The item type of a listing. */
export type TItemOf<K extends TOperationId> = TOutputs[K] extends { items?: Array<infer Item> } ? Item : never;

${classOf('DirectOperations', 'The direct account API (X-API-KEY, under /{environment}) and the public routes.', direct)}

${classOf('PartnerOperations', 'The Partner API (/partner/v1, X-PARTNER-KEY) and the certificate upload (Authorization: Upload).', partner)}
`;
  const target = (name: string) => path.join(SDK_GENERATED_DIRECTORY, name);
  const formatted = async (name: string, text: string) =>
    format(text, { ...((await resolveConfig(target(name))) ?? {}), filepath: target(name) });
  return {
    'openapi.ts': await formatted('openapi.ts', types),
    'operations.ts': await formatted('operations.ts', operations),
  };
}

if (import.meta.main) {
  const { buildOpenApiDocument } = await import('../src/openapi.ts');
  for (const [name, text] of Object.entries(
    await generateSdkSources(buildOpenApiDocument({ partnerApi: true })),
  )) {
    await writeFile(path.join(SDK_GENERATED_DIRECTORY, name), text);
    console.log(`wrote ${path.relative(process.cwd(), path.join(SDK_GENERATED_DIRECTORY, name))}`);
  }
}
