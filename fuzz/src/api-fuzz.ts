/**
 * The API half: the real API (`buildApp` of @ecf/api, Partner API on) listening on an ephemeral
 * port over a throwaway database, every operation of the /openapi.json it serves driven with
 * generated and hostile requests. The OpenAPI document declares status codes per operation, not
 * error codes; so an error must be an ErrorResponse whose status the operation declares and whose
 * code is in the global registry (ERROR_STATUS of @ecf/services). A 2xx JSON body must validate
 * (ajv, JSON Schema 2020-12) against the operation's declared schema for that status.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildApp, readEnv } from '@ecf/api';
import { OFFICIAL_XSD_DIRECTORY } from '@ecf/config';
import { ALL_SCOPES, ENVIRONMENTS, seedApiKey, seedDocument, seedTenant, type TDatabase } from '@ecf/db';
import { openTestDatabase } from '@ecf/db/testing';
import {
  createPartner,
  createPartnerKey,
  ERROR_STATUS,
  importTaxpayerRegistry,
  linkFiscalAccount,
  registerSequenceRange,
} from '@ecf/services';
import { LogCapture, preview, type TFinding } from './findings.ts';
import { closeAgent, send, type TRawAnswer, type TRawRequest } from './http.ts';
import {
  ALWAYS_REFUSED,
  fakeValue,
  garbageQuery,
  garbageSegment,
  mutate,
  REFUSED_BY_WRITES,
  sampleCases,
  setAt,
  unsupportedCharacterCases,
  type TBody,
  type TMutationName,
} from './mutations.ts';
import { hashOf, seedOf, type TFuzzOptions } from './options.ts';

type TSchema = Record<string, unknown>;
type TParameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: TSchema };
type TOperation = {
  operationId: string;
  method: string;
  /** The path template with `/{environment}` when the operation lives under the environment server. */
  path: string;
  security: Array<Record<string, unknown>>;
  parameters: TParameter[];
  requestBody?: { content: Record<string, { schema?: TSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: TSchema }> }>;
};

/** Ids and keys of the seeded world: ours and another tenant's and Partner's. */
type TApiWorld = {
  keys: Record<string, string>;
  otherTenantKey: string;
  partnerKey: string;
  otherPartnerKey: string;
  account: string;
  otherAccount: string;
  ownEncf: string;
  otherEncf: string;
  ownDocumentId: string;
  otherDocumentId: string;
};

const freshRnc = () => `4${String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0')}`;

async function seedApiWorld(database: TDatabase): Promise<TApiWorld> {
  const tenant = await seedTenant(database);
  const otherTenant = await seedTenant(database);
  const keys: Record<string, string> = {};
  for (const environment of ENVIRONMENTS)
    keys[environment] = (
      await seedApiKey(database, { tenantId: tenant.id, environment, scopes: ALL_SCOPES })
    ).key;
  const otherTenantKey = (
    await seedApiKey(database, { tenantId: otherTenant.id, environment: 'TesteCF', scopes: ALL_SCOPES })
  ).key;
  const ownEncf = `E31${String(Date.now() % 10_000_000_000).padStart(10, '0')}`;
  const otherEncf = `E31${String((Date.now() + 7) % 10_000_000_000).padStart(10, '0')}`;
  const own = await seedDocument(database, { tenantId: tenant.id, encf: ownEncf });
  const other = await seedDocument(database, { tenantId: otherTenant.id, encf: otherEncf });
  const rncs = [freshRnc(), freshRnc()];
  await importTaxpayerRegistry({
    database,
    source: Readable.from([
      Buffer.from(
        rncs
          .map((rnc) => `${rnc}|CONTRIBUYENTE ${rnc} SRL|COMERCIAL|VENTA|||||01/01/2000|ACTIVO|NORMAL`)
          .join('\n'),
        'latin1',
      ),
    ]),
    fileName: 'fuzz.txt',
  });
  const partners = [];
  for (const rnc of rncs) {
    const partner = await createPartner({
      database,
      input: {
        name: `Fuzz ${randomUUID().slice(0, 8)}`,
        paidStatus: 'paid',
        billingUrl: 'https://billing.example.com',
      },
    });
    const { key } = await createPartnerKey({
      database,
      partnerId: partner.id,
      name: 'full',
      profile: 'full',
    });
    const { account } = await linkFiscalAccount({
      database,
      partnerId: partner.id,
      externalTenantId: `ext-${randomUUID()}`,
      input: {
        rnc,
        legalName: `Cliente ${rnc} SRL`,
        address: 'Calle 1, Santo Domingo',
        phone: '809-555-0199',
      },
    });
    partners.push({ key, account: account.id });
    // TesteCF only: the account's production is not active, and an eCF range needs it (423).
    await registerWideRange(database, account.id, 'TesteCF');
  }
  await registerWideRange(database, tenant.id, 'TesteCF');
  return {
    keys,
    otherTenantKey,
    partnerKey: partners[0]?.key ?? '',
    otherPartnerKey: partners[1]?.key ?? '',
    account: partners[0]?.account ?? '',
    otherAccount: partners[1]?.account ?? '',
    ownEncf,
    otherEncf,
    ownDocumentId: own.id,
    otherDocumentId: other.id,
  };
}

/**
 * A registered range of every E31 (rule 16 then reads the range of each submitted eNCF: issue 25's
 * item 1 only shows for a tenant that registered one).
 */
export async function registerWideRange(
  database: TDatabase,
  tenantId: string,
  environment: 'TesteCF' | 'eCF',
) {
  await registerSequenceRange({
    database,
    tenantId,
    environment,
    type: '31',
    from: 'E310000000001',
    to: 'E319999999999',
    sequenceExpirationDate: `${Number(dominicanToday().slice(0, 4)) + 1}-12-31`,
  });
}

/** Today in Dominican time (UTC-4). */
const dominicanToday = () => new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
let encfSequence = 0;

/** A valid simplified-contract E31 (the corpus of the submission routes): issuer data default to the account. */
function validSubmission(): Record<string, unknown> {
  encfSequence += 1;
  const year = Number(dominicanToday().slice(0, 4));
  return {
    type: 'E31',
    encf: `E31${String((Date.now() % 10_000_000) * 1000 + encfSequence).padStart(10, '0')}`,
    sequenceExpirationDate: `31-12-${year + 1}`,
    issueDate: dominicanToday(),
    buyer: { rnc: '101672919', name: 'Ferretería Los Pinos SRL' },
    paymentType: 'card',
    incomeType: '01',
    lines: [{ name: 'Artículo 1', quantity: 2, unitPrice: '450.00', itbisRate: 18, itemKind: 'good' }],
  };
}

/** Random bytes of the run's seed for the multipart cases. */
function draws0(seed: number): Uint8Array {
  return sampleCases(seed ^ 0x5a5a, 1)[0]?.bytes ?? new Uint8Array(0);
}

/**
 * Multipart bodies with an `xml` part, as the reception routes take them, and their hostile
 * variants: a DOCTYPE, a comment that mentions one, deep nesting, many elements, invalid UTF-8, 30
 * headers in a part, a missing closing boundary, random bytes, the wrong media type.
 */
function multipartCases(bytes: Uint8Array): Array<{ label: string; body: TBody }> {
  const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
  const multipart = (xml: Buffer | string, extraHeaders = '', close = true): TBody => ({
    kind: 'raw',
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="xml"; filename="101010101E310000000001.xml"\r\n${extraHeaders}Content-Type: text/xml\r\n\r\n`,
      ),
      typeof xml === 'string' ? Buffer.from(xml) : xml,
      Buffer.from(close ? `\r\n--${boundary}--\r\n` : '\r\n'),
    ]),
  });
  const declaration = '<?xml version="1.0" encoding="utf-8"?>';
  return [
    { label: 'multipart: a minimal ECF', body: multipart(`${declaration}<ECF><Encabezado/></ECF>`) },
    {
      label: 'multipart: a DOCTYPE with an external entity',
      body: multipart(`${declaration}<!DOCTYPE ECF [<!ENTITY x SYSTEM "file:///etc/passwd">]><ECF>&x;</ECF>`),
    },
    {
      label: 'multipart: a comment naming <!DOCTYPE',
      body: multipart(`${declaration}<!-- <!DOCTYPE x> --><ECF/>`),
    },
    { label: 'multipart: 5,000 levels deep', body: multipart(`${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`) },
    { label: 'multipart: 150,000 elements', body: multipart(`<ECF>${'<b/>'.repeat(150_000)}</ECF>`) },
    {
      label: 'multipart: invalid UTF-8 in the XML',
      body: multipart(
        Buffer.concat([
          Buffer.from(`${declaration}<ECF>`),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from('</ECF>'),
        ]),
      ),
    },
    {
      label: 'multipart: 30 headers in the part',
      body: multipart(
        '<ECF/>',
        Array.from({ length: 30 }, (_, index) => `X-Fuzz-${index}: ${index}\r\n`).join(''),
      ),
    },
    { label: 'multipart: no closing boundary', body: multipart('<ECF/>', '', false) },
    { label: 'multipart: random bytes as the XML', body: multipart(Buffer.from(bytes)) },
    {
      label: 'XML sent as application/json',
      body: { kind: 'raw', bytes: Buffer.from('<ECF/>'), contentType: 'application/json' },
    },
  ];
}

/** Item 1 of issue 25: eNCF values that are not eNCF-shaped. */
const MALFORMED_ENCF = ['abc', 'E31', 'E31000000010X', "' OR '1'='1"];

function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): TOperation[] {
  const operations: TOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const underEnvironment = Array.isArray(item['servers']);
    for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
      const operation = item[method] as Omit<TOperation, 'method' | 'path'> | undefined;
      if (!operation) continue;
      operations.push({
        ...operation,
        parameters: operation.parameters ?? [],
        method: method.toUpperCase(),
        path: underEnvironment ? `/{environment}${path}` : path,
      });
    }
  }
  return operations;
}

type TCase = {
  label: string;
  pathValues: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body: TBody;
  /** The path no longer names the operation: 404 ROUTE_NOT_FOUND is an acceptable answer. */
  pathGarbled: boolean;
  mutation?: TMutationName;
};

const UNRESERVED = (value: unknown) =>
  encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

export async function fuzzApi(
  options: TFuzzOptions,
): Promise<{ operations: number; cases: number; findings: TFinding[] }> {
  const testDatabase = await openTestDatabase();
  const logs = new LogCapture();
  const env = readEnv({
    DATABASE_URL: testDatabase.url,
    LOG_LEVEL: 'info',
    XSD_DIRECTORY: OFFICIAL_XSD_DIRECTORY,
    PSFE_PARTNER_API_ENABLED: 'true',
    API_RATE_LIMIT_PER_MINUTE: '10000000',
    API_RATE_LIMIT_PLANS: 'standard=10000000,professional=10000000,enterprise=10000000',
    PARTNER_RATE_LIMITS: 'ip=10000000,partner=10000000,account=10000000,permission=10000000',
    RECEPTION_RATE_LIMIT_PER_MINUTE: '10000000',
    CERTIFICATE_MASTER_KEY: randomBytes(32).toString('base64'),
    // Generated webhook URLs point at loopback (nothing listens on port 9).
    WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const app = await buildApp({ env, database: testDatabase.database, logDestination: logs });
  const findings: TFinding[] = [];
  let cases = 0;
  try {
    const origin = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    const world = await seedApiWorld(testDatabase.database);
    const openApi = (await (await fetch(new URL('/openapi.json', origin))).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = operationsOf(openApi).filter((operation) =>
      options.only === undefined ? true : operation.operationId.includes(options.only),
    );
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    const validators = new Map<TSchema, ValidateFunction>();
    const validatorOf = (schema: TSchema) => {
      let validate = validators.get(schema);
      if (!validate) {
        validate = ajv.compile(schema);
        validators.set(schema, validate);
      }
      return validate;
    };

    for (const operation of operations) {
      const seed = seedOf(options.seed, hashOf(`${operation.method} ${operation.path}`));
      const target = `${operation.method} ${operation.path} (${operation.operationId})`;
      const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
      const isPartner = schemes.includes('partnerKey');
      const authHeaders = (who: 'own' | 'other' | 'none'): Record<string, string> => {
        if (who === 'none') return {};
        if (schemes.includes('apiKey'))
          return { 'x-api-key': who === 'own' ? (world.keys['TesteCF'] ?? '') : world.otherTenantKey };
        if (isPartner) return { 'x-partner-key': who === 'own' ? world.partnerKey : world.otherPartnerKey };
        if (schemes.includes('uploadToken')) return { authorization: `Upload ${randomUUID()}` };
        return {};
      };
      const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
      const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
      const headerParameters = operation.parameters.filter((parameter) => parameter.in === 'header');
      const isAccountId = (parameter: TParameter) =>
        operation.path.includes(`/fiscal-accounts/{${parameter.name}}`);
      const ownValue = (parameter: TParameter, index: number): string => {
        if (parameter.name === 'environment') return 'TesteCF';
        if (parameter.name === 'fiscalAccountId' || isAccountId(parameter)) return world.account;
        if (/encf|documentReference/i.test(parameter.name))
          return index % 2 === 0 ? world.ownEncf : world.ownDocumentId;
        if (parameter.name === 'documentId') return world.ownDocumentId;
        return UNRESERVED(fakeValue(parameter.schema ?? { type: 'string' }, seed + index));
      };
      const otherValue = (parameter: TParameter, index: number): string => {
        if (parameter.name === 'fiscalAccountId' || isAccountId(parameter)) return world.otherAccount;
        if (/encf|documentReference/i.test(parameter.name))
          return index % 2 === 0 ? world.otherEncf : world.otherDocumentId;
        if (/id$/i.test(parameter.name)) return world.otherDocumentId;
        return ownValue(parameter, index);
      };
      const validQuery = (index: number) =>
        queryParameters
          // A cursor is one a list gave: an invented one is always refused.
          .filter(
            (parameter, position) =>
              parameter.required || (!/cursor/i.test(parameter.name) && (seed + index + position) % 2 === 0),
          )
          .map(
            (parameter) =>
              `${encodeURIComponent(parameter.name)}=${UNRESERVED(fakeValue(parameter.schema ?? { type: 'string' }, seed + index))}`,
          )
          .join('&');
      const validHeaders = (index: number) =>
        Object.fromEntries(
          headerParameters
            .filter((parameter) => !/^x-(api|partner)-key$|^authorization$/i.test(parameter.name))
            .filter((parameter) => parameter.required || index % 2 === 0)
            .map((parameter) => {
              const value = fakeValue(parameter.schema ?? { type: 'string' }, seed + index);
              return [
                parameter.name.toLowerCase(),
                String(typeof value === 'string' ? value : JSON.stringify(value)),
              ];
            })
            // Header values must be visible ASCII: anything else is refused by the client itself.
            .filter(([, value]) => /^[\x20-\x7e]{1,200}$/.test(value ?? '')),
        ) as Record<string, string>;
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const baseBody = (index: number): unknown => {
        if (bodySchema === undefined) return undefined;
        const properties = (bodySchema['properties'] ?? {}) as Record<string, unknown>;
        const isSubmission =
          JSON.stringify(bodySchema).includes('"encf"') && ('lines' in properties || 'anyOf' in bodySchema);
        if (isSubmission && index % 2 === 0) return validSubmission();
        // The Partner's emission routes wrap the submission: { document }.
        const document = properties['document'] as { description?: string } | undefined;
        if (document?.description?.includes('submission') && index % 2 === 0)
          return { document: validSubmission() };
        return fakeValue(bodySchema, seed + index);
      };
      const jsonBody = (value: unknown): TBody =>
        value === undefined ? { kind: 'none' } : { kind: 'json', value };
      const own = (index: number): TCase => ({
        label: '',
        pathValues: Object.fromEntries(
          pathParameters.map((parameter) => [parameter.name, ownValue(parameter, index)]),
        ),
        query: validQuery(index),
        headers: { ...authHeaders('own'), ...validHeaders(index) },
        body: jsonBody(baseBody(index)),
        pathGarbled: false,
      });

      const list: TCase[] = [];
      for (let index = 0; index < options.runs; index += 1)
        list.push({ ...own(index), label: 'generated from the schema' });
      // Other tenants' and Partners' ids with our key; our ids with theirs; no key.
      if (pathParameters.length > 0)
        list.push({
          ...own(0),
          label: "another tenant's / Partner's ids",
          pathValues: Object.fromEntries(
            pathParameters.map((parameter) => [parameter.name, otherValue(parameter, 0)]),
          ),
        });
      if (schemes.length > 0) {
        list.push({ ...own(1), label: "another tenant's / Partner's key", headers: authHeaders('other') });
        list.push({ ...own(2), label: 'no key', headers: {} });
      }
      // Item 1: a submission whose encf is not eNCF-shaped.
      const sample = baseBody(0) as { encf?: unknown; document?: { encf?: unknown } } | undefined;
      const encfPath =
        sample?.encf !== undefined
          ? ['encf']
          : sample?.document?.encf !== undefined
            ? ['document', 'encf']
            : null;
      const preflight = queryParameters.some((parameter) => parameter.name === 'validate')
        ? ['', 'validate=true']
        : [''];
      if (encfPath !== null)
        for (const encf of MALFORMED_ENCF)
          for (const query of preflight)
            list.push({
              ...own(0),
              label: `malformed encf ${JSON.stringify(encf)}${query ? ` (${query})` : ''}`,
              body: jsonBody(setAt(sample, encfPath, encf)),
              ...(query ? { query } : {}),
            });
      if (bodySchema && operation.method !== 'GET')
        for (const { label, body, mutation } of unsupportedCharacterCases(baseBody(1), seed))
          list.push({ ...own(1), label, body, mutation });
      // Writes whose body is not JSON (the public reception routes: multipart with an XML part).
      if (!bodySchema && operation.method === 'POST')
        for (const { label, body } of multipartCases(draws0(seed))) list.push({ ...own(0), label, body });
      const draws = sampleCases(
        seed,
        options.runs * (bodySchema ? 6 : 2) + pathParameters.length * options.runs,
      );
      draws.forEach((draw, index) => {
        const base = own(index);
        const kind = index % 3;
        if (bodySchema && kind !== 2) {
          const { label, body, mutation } = mutate(baseBody(index) ?? {}, draw);
          list.push({ ...base, label, body, mutation });
        } else if (pathParameters.length > 0 && (index % 2 === 0 || queryParameters.length === 0)) {
          const parameter = pathParameters[draw.pick % pathParameters.length];
          if (!parameter) return;
          const value = garbageSegment(draw);
          list.push({
            ...base,
            label: `path ${parameter.name}=${value.slice(0, 60)}`,
            pathValues: { ...base.pathValues, [parameter.name]: value },
            pathGarbled: true,
          });
        } else {
          const query = garbageQuery(
            draw,
            queryParameters.map((parameter) => parameter.name),
          );
          list.push({ ...base, label: `query ${query.slice(0, 80)}`, query });
        }
      });

      const statuses = new Map<number, number>();
      for (const item of list) {
        cases += 1;
        const correlationId = randomUUID();
        const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          // The environment of the routes under the environment server is a server variable, not a parameter.
          name === 'environment' ? (item.pathValues[name] ?? 'TesteCF') : (item.pathValues[name] ?? 'x'),
        );
        const request: TRawRequest = {
          method: operation.method,
          path: item.query ? `${path}?${item.query}` : path,
          headers: { ...item.headers, 'x-correlation-id': correlationId, accept: 'application/json, */*' },
        };
        if (item.body.kind === 'json') {
          request.body = Buffer.from(JSON.stringify(item.body.value) ?? 'null', 'utf8');
          request.headers['content-type'] = 'application/json';
        } else if (item.body.kind === 'raw') {
          request.body = item.body.bytes;
          request.headers['content-type'] = item.body.contentType ?? 'application/json';
        }
        const answer = await send(origin, request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (options.trace) console.log(`    ${answer.status} ${item.label} → ${preview(answer.body, 200)}`);
        const problem =
          refusalMissed(item.mutation, operation.method !== 'GET', answer.status, () =>
            parsedOf(answer.body),
          ) ?? judge(operation, answer, item.pathGarbled, validatorOf);
        if (problem !== null)
          findings.push({
            surface: 'api',
            target,
            rule: problem,
            caseLabel: item.label,
            request: `${request.method} ${preview(request.path, 300)} ${JSON.stringify(
              Object.fromEntries(
                Object.entries(request.headers).filter(([name]) => !/key|authorization/.test(name)),
              ),
            )} body=${preview(request.body, 400)}`,
            answer: `${answer.status} ${preview(answer.body, 600)}`,
            log: logs
              .linesOf(correlationId)
              .filter((line) => answer.status === 0 || answer.status >= 500 || /"level":(4|5|6)0/.test(line)),
          });
      }
      if (options.verbose)
        console.log(
          `  ${target}: ${list.length} cases, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
        );
    }
    return { operations: operations.length, cases, findings };
  } finally {
    closeAgent();
    await app.close();
    await testDatabase.close();
  }
}

const ERROR_CODES = new Set(Object.keys(ERROR_STATUS));

/** The JSON value of an answer, or undefined. */
export function parsedOf(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A 2xx answer to a body the edge must refuse (mutations.ts, ALWAYS_REFUSED and REFUSED_BY_WRITES);
 * `result` is the answer's value: one that says `ok: false` refused the input in its own words
 * (Try it's refused submission).
 */
export function refusalMissed(
  mutation: TMutationName | undefined,
  isWrite: boolean,
  status: number,
  result: () => unknown,
): string | null {
  if (mutation === undefined || status < 200 || status >= 300) return null;
  const value = result();
  if (value !== null && typeof value === 'object' && (value as { ok?: unknown }).ok === false) return null;
  if (ALWAYS_REFUSED.has(mutation) || (isWrite && REFUSED_BY_WRITES.has(mutation)))
    return `hostile input accepted (${mutation}): ${status}`;
  return null;
}

/** Codes the specification gives two statuses (AppError's `status` option). */
const TWO_STATUS_CODES = new Set(['ANECF_DOCUMENT_CONFLICT', 'ACECF_TAXAUTH_SUBMISSION_UNCERTAIN']);

/** `details.reason` of the refusals made before any route is chosen (documented on INVALID_REQUEST). */
const EDGE_REASONS = new Set(['malformed_http', 'invalid_url_encoding', 'path_parameter_too_long']);

/** What is wrong with an answer, or null. */
function judge(
  operation: TOperation,
  answer: TRawAnswer,
  pathGarbled: boolean,
  validatorOf: (schema: TSchema) => ValidateFunction,
): string | null {
  if (answer.status === 0) return `no answer (${answer.body.toString('utf8')})`;
  if (answer.status >= 500) return `${answer.status}`;
  const contentType = String(answer.headers['content-type'] ?? '');
  const declared = operation.responses[String(answer.status)];
  if (answer.status >= 400) {
    const declaredTypes = Object.keys(declared?.content ?? {});
    if (declaredTypes.length > 0 && !declaredTypes.some((type) => type.includes('json'))) {
      // A plain-text refusal (the buyer's printed link): its code is in X-Error-Code.
      const code = String(answer.headers['x-error-code'] ?? '');
      if (!declaredTypes.some((type) => contentType.startsWith(type)))
        return `error answer is ${contentType}, declared ${declaredTypes.join(', ')}`;
      return ERROR_CODES.has(code) ? null : `X-Error-Code ${code || '(none)'} is not in the error registry`;
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return `error answer is not JSON (${contentType})`;
    }
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } }).error;
    const shapeOk =
      (body as { ok?: unknown }).ok === false &&
      typeof (body as { correlationId?: unknown }).correlationId === 'string' &&
      typeof error?.code === 'string' &&
      typeof error.message === 'string' &&
      error.details !== null &&
      typeof error.details === 'object';
    if (!shapeOk) return 'error is not an ErrorResponse';
    const code = error.code as string;
    if (!ERROR_CODES.has(code)) return `code ${code} is not in the error registry`;
    // The registry maps each code to one status; AppError's status override exists for the codes the spec gives two.
    const registered = (ERROR_STATUS as Record<string, number>)[code];
    if (registered !== answer.status && !TWO_STATUS_CODES.has(code))
      return `code ${code} answered with ${answer.status}, the registry says ${registered}`;
    if (pathGarbled && answer.status === 404 && code === 'ROUTE_NOT_FOUND') return null;
    // Refusals of the request line itself, before any route (ERROR_STATUS, INVALID_REQUEST): any operation may get them.
    const reason = (error.details as { reason?: unknown }).reason;
    if (answer.status === 400 && code === 'INVALID_REQUEST' && EDGE_REASONS.has(String(reason))) return null;
    if (!declared) return `status ${answer.status} (${code}) not declared for the operation`;
    return null;
  }
  if (!declared) return `status ${answer.status} not declared for the operation`;
  const schema = declared.content?.['application/json']?.schema;
  if (schema === undefined || !contentType.includes('json')) return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return 'a 2xx declared JSON is not JSON';
  }
  const validate = validatorOf(schema);
  if (validate(body)) return null;
  const first = validate.errors?.[0];
  return `2xx body does not match the declared schema (${first?.instancePath || '/'} ${first?.message ?? ''})`;
}
