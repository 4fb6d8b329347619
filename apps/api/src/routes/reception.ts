/**
 * The public reception services every taxpayer exposes (FACTS §2; issue 18; docs/receiving.md),
 * hosted for every tenant, without API key: the seed authentication, e-CF reception (answered with
 * an ARECF) and commercial approvals (ACECF). One set of URLs serves every tenant (the document
 * selects it); the environment is the path prefix (`/TesteCF/fe/...`, `/CerteCF/fe/...`,
 * `/eCF/fe/...`), the bare `/fe/...` serves RECEPTION_DEFAULT_ENVIRONMENT (rewritten to its prefix).
 * Paths are case-insensitive ({@link rewriteReceptionUrl}, run before routing).
 *
 * Hostile input: a per-source-address rate limit and CPU budget (memory of this process; the
 * use-cases meter their expensive steps, the sender is charged) before any body is read;
 * a declared Content-Length over {@link RECEPTION_BODY_LIMIT_BYTES} refused before the body is read
 * (with `Expect: 100-continue`, before it is sent); a chunked body counted as it streams and
 * refused at the limit; multipart parts, files, fields and header lines per part bounded; the XML
 * refused with a DTD or entities, too deep, too many elements or attributes, not UTF-8 (services
 * `receiving/reception-model.ts`). Every refusal is a 400
 * ErrorResponse (429 for the rate limit), never a 500.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Environment, TDatabase, TEnqueue } from '@ecf/db';
import type { TSigningCertificate, TXsdValidators } from '@ecf/fiscal-core';
import {
  AppError,
  bodyTooLarge,
  createSenderCpuBudget,
  issueReceptionSeed,
  receiveCommercialApproval,
  receiveEcf,
  validateReceptionCertificate,
  type TCertificateKeyring,
  type TCpuMeter,
  type TRefusalPolicy,
  type TSenderCpuBudget,
} from '@ecf/services';
import type { TEnv } from '../env.ts';
import { createPartHeaderCounter, multipartBoundaryOf } from './multipart-header-pairs.ts';

/** Largest accepted reception body: a 10,000-line e-CF is about 1.5 MB of XML. */
export const RECEPTION_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const ENVIRONMENTS: Readonly<Record<string, Environment>> = {
  testecf: 'TesteCF',
  certecf: 'CerteCF',
  ecf: 'eCF',
};

/** The four services, lower case, as routed. */
export const RECEPTION_PATHS = {
  seed: '/fe/autenticacion/api/semilla',
  certificateValidation: '/fe/autenticacion/api/validacioncertificado',
  ecf: '/fe/recepcion/api/ecf',
  commercialApproval: '/fe/aprobacioncomercial/api/ecf',
} as const;

const RECEPTION_URL =
  /^(?:\/(testecf|certecf|ecf))?(\/fe\/(?:autenticacion\/api\/(?:semilla|validacioncertificado)|recepcion\/api\/ecf|aprobacioncomercial\/api\/ecf))\/?(\?.*)?$/i;

/**
 * FACTS §2: the receiver's paths are case-insensitive. The URL of a reception service in any
 * letter case (environment segment included, one trailing slash allowed) becomes its routed form,
 * `/{environment}/fe/...`; without an environment segment, `defaultEnvironment`'s. Every other URL
 * is returned unchanged (the rest of the API stays case-sensitive). Runs before routing.
 */
export function rewriteReceptionUrl(url: string, defaultEnvironment: Environment): string {
  const match = RECEPTION_URL.exec(url);
  if (match === null) return url;
  const environment = match[1] === undefined ? defaultEnvironment : ENVIRONMENTS[match[1].toLowerCase()];
  return `/${environment ?? defaultEnvironment}${(match[2] as string).toLowerCase()}${match[3] ?? ''}`;
}

/**
 * Requests per source address in a fixed 60-second window, kept in this process's memory (each
 * API process counts on its own; the limit is a flood guard, not a quota). At most
 * `maxAddresses` windows are kept: expired ones are dropped first, then the oldest.
 */
export function createAddressRateLimiter(options: { perMinute: number; maxAddresses?: number }) {
  const windows = new Map<string, { startedAt: number; count: number }>();
  const maxAddresses = options.maxAddresses ?? 50_000;
  return {
    /** Undefined when allowed, else the seconds to wait. */
    take(address: string, nowMs: number): number | undefined {
      let window = windows.get(address);
      if (window === undefined || nowMs - window.startedAt >= 60_000) {
        if (windows.size >= maxAddresses) {
          for (const [key, value] of windows) if (nowMs - value.startedAt >= 60_000) windows.delete(key);
          while (windows.size >= maxAddresses) windows.delete(windows.keys().next().value as string);
        }
        window = { startedAt: nowMs, count: 0 };
        windows.delete(address);
        windows.set(address, window);
      }
      window.count += 1;
      if (window.count <= options.perMinute) return undefined;
      return Math.max(1, Math.ceil((window.startedAt + 60_000 - nowMs) / 1000));
    },
  };
}

export type TReceptionRouteOptions = {
  database: TDatabase;
  xsd: TXsdValidators;
  enqueue: TEnqueue;
  defaultEnvironment: Environment;
  rateLimitPerMinute: number;
  /**
   * CPU milliseconds per source address (RECEPTION_CPU_BUDGET_MS_PER_MINUTE, _BURST_MS): a sender
   * whose bucket is empty is 429 before its body is read. Defaults: 6,000 a minute, burst 6,000.
   */
  cpuBudget?: { msPerMinute: number; burstMs: number };
  /** What is kept of deliveries whose signature was not verified (RECEPTION_REFUSED_*). */
  refusals?: TRefusalPolicy;
  keyring?: TCertificateKeyring;
  loadCertificate?: (tenantId: string) => Promise<TSigningCertificate>;
};

type TPart = { bytes: Buffer; fileName: string | null };

/** Header lines a multipart part may have (busboy's `headerPairs` alone drops the rest silently). */
export const RECEPTION_PART_HEADER_PAIRS = 20;

/** The CPU budget's defaults (a sender regains 6 s of CPU a minute, a tenth of a core). */
export const RECEPTION_CPU_BUDGET_DEFAULTS = { msPerMinute: 6_000, burstMs: 6_000 } as const;

function invalid(reason: string, message: string): AppError {
  return new AppError('INVALID_REQUEST', message, { details: { reason, field: 'xml' } });
}

/** Multipart failures are the client's: each one a 400 that names it. */
function multipartError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return bodyTooLarge(RECEPTION_BODY_LIMIT_BYTES);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return invalid('multipart_limits', 'Send one multipart file part named xml.');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return notMultipart();
  return invalid('multipart_malformed', 'The multipart body could not be read.');
}

function notMultipart(): AppError {
  return new AppError('UNSUPPORTED_CONTENT_TYPE', 'Send the document as multipart/form-data, part xml.', {
    details: { accepted: ['multipart/form-data'], field: 'xml' },
  });
}

/**
 * The multipart part named `xml` (any letter case; a file part, or a field as a lenient reader
 * would accept), its bytes exactly as received; every other part is read and dropped.
 */
async function readXmlPart(request: FastifyRequest): Promise<TPart> {
  if (!request.isMultipart()) throw notMultipart();
  let found: TPart | undefined;
  const boundary = multipartBoundaryOf(request.headers['content-type']);
  const headerPairs =
    boundary === undefined ? undefined : createPartHeaderCounter(boundary, RECEPTION_PART_HEADER_PAIRS);
  const tooManyHeaders = () =>
    invalid(
      'multipart_limits',
      `A multipart part has more than ${RECEPTION_PART_HEADER_PAIRS} header lines; send one file part named xml.`,
    );
  try {
    const parts = request.parts();
    // Sees the same chunks busboy reads (both listen from the first one on).
    if (headerPairs !== undefined) request.raw.on('data', (chunk: Buffer) => headerPairs.push(chunk));
    for await (const part of parts) {
      if (headerPairs?.exceeded) throw tooManyHeaders();
      const isXml = part.fieldname.toLowerCase() === 'xml';
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (found === undefined && isXml) found = { bytes, fileName: part.filename || null };
      } else if (found === undefined && isXml && typeof part.value === 'string') {
        // busboy cuts a field at `fieldSize` silently: a cut copy must never pass for what was sent.
        if (part.valueTruncated) throw bodyTooLarge(RECEPTION_BODY_LIMIT_BYTES);
        found = { bytes: Buffer.from(part.value, 'utf8'), fileName: null };
      }
    }
  } catch (error) {
    throw multipartError(error);
  }
  if (headerPairs?.exceeded) throw tooManyHeaders();
  if (found === undefined) throw invalid('xml_part_missing', 'The multipart body has no part named xml.');
  if (found.bytes.length === 0) throw invalid('xml_empty', 'The xml part is empty.');
  return found;
}

function environmentOf(request: FastifyRequest, fallback: Environment): Environment {
  const segment = (request.params as { environment?: string }).environment;
  if (segment === undefined) return fallback;
  // Rewritten to its canonical spelling when known (rewriteReceptionUrl); anything else is no route.
  const environment = ENVIRONMENTS[segment.toLowerCase()];
  if (environment === undefined || environment !== segment)
    throw new AppError('ROUTE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`);
  return environment;
}

function authorizationOf(request: FastifyRequest): string | undefined {
  const value = request.headers.authorization;
  return typeof value === 'string' ? value : undefined;
}

/** The token answer as JSON (default) or XML when the caller prefers it (FACTS §2). */
function sendToken(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { token: string; expira: string; expedido: string },
): FastifyReply {
  const accept = String(request.headers.accept ?? '');
  if (/xml/i.test(accept) && !/json/i.test(accept)) {
    return reply
      .type('application/xml; charset=utf-8')
      .send(
        `<?xml version="1.0" encoding="utf-8"?><RespuestaAutenticacion><token>${answer.token}</token><expira>${answer.expira}</expira><expedido>${answer.expedido}</expedido></RespuestaAutenticacion>`,
      );
  }
  // A string, not an object: the API's preSerialization would add correlationId to an object.
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(answer));
}

/** The reception routes' settings from the API's environment (RECEPTION_DEFAULT_ENVIRONMENT, RECEPTION_RATE_LIMIT_PER_MINUTE, RECEPTION_CPU_BUDGET_*, RECEPTION_REFUSED_*). */
export function receptionOptionsOf(
  env: Pick<
    TEnv,
    | 'RECEPTION_DEFAULT_ENVIRONMENT'
    | 'RECEPTION_RATE_LIMIT_PER_MINUTE'
    | 'RECEPTION_CPU_BUDGET_MS_PER_MINUTE'
    | 'RECEPTION_CPU_BUDGET_BURST_MS'
    | 'RECEPTION_REFUSED_PER_SENDER_PER_DAY'
    | 'RECEPTION_REFUSED_RETENTION_DAYS'
  >,
): Pick<TReceptionRouteOptions, 'defaultEnvironment' | 'rateLimitPerMinute' | 'cpuBudget' | 'refusals'> {
  return {
    defaultEnvironment: env.RECEPTION_DEFAULT_ENVIRONMENT,
    rateLimitPerMinute: env.RECEPTION_RATE_LIMIT_PER_MINUTE,
    cpuBudget: {
      msPerMinute: env.RECEPTION_CPU_BUDGET_MS_PER_MINUTE,
      burstMs: env.RECEPTION_CPU_BUDGET_BURST_MS,
    },
    refusals: {
      perSenderPerDay: env.RECEPTION_REFUSED_PER_SENDER_PER_DAY,
      retentionDays: env.RECEPTION_REFUSED_RETENTION_DAYS,
    },
  };
}

/** Registers the reception routes (bare and under each environment) in a scope of their own. */
export function registerReceptionRoutes(app: FastifyInstance, options: TReceptionRouteOptions): void {
  const limiter = createAddressRateLimiter({ perMinute: options.rateLimitPerMinute });
  const cpuBudget: TSenderCpuBudget = createSenderCpuBudget(
    options.cpuBudget ?? RECEPTION_CPU_BUDGET_DEFAULTS,
  );
  /** Runs a use-case with a CPU meter and charges the sender with what its expensive steps took. */
  async function charged<T>(request: FastifyRequest, run: (cpuMeter: TCpuMeter) => Promise<T>): Promise<T> {
    const cpuMeter: TCpuMeter = { spentMs: 0 };
    try {
      return await run(cpuMeter);
    } finally {
      cpuBudget.charge(request.ip, cpuMeter.spentMs, Date.now());
    }
  }
  const refusals = options.refusals === undefined ? {} : { refusals: options.refusals };
  const certificateSource = {
    ...(options.keyring === undefined ? {} : { keyring: options.keyring }),
    ...(options.loadCertificate === undefined ? {} : { loadCertificate: options.loadCertificate }),
  };

  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: RECEPTION_BODY_LIMIT_BYTES,
        files: 2,
        fields: 5,
        // The xml part may come as a field (lenient clients): as large as a file part may be.
        fieldSize: RECEPTION_BODY_LIMIT_BYTES,
        parts: 8,
        headerPairs: 20,
      },
    });
    // Any other type reaches the handler unread (refused there as not multipart, body drained).
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    scope.addHook('onRequest', async (request) => {
      const wait = limiter.take(request.ip, Date.now());
      if (wait !== undefined)
        throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests from this address; retry later.', {
          details: { reason: 'reception_rate_limit', retryAfterSeconds: wait },
          headers: { 'retry-after': String(wait) },
        });
      const cpuWait = cpuBudget.wait(request.ip, Date.now());
      if (cpuWait !== undefined)
        throw new AppError(
          'RATE_LIMIT_EXCEEDED',
          'This address used its share of the reception CPU; retry later.',
          {
            details: { reason: 'reception_cpu_budget', retryAfterSeconds: cpuWait },
            headers: { 'retry-after': String(cpuWait) },
          },
        );
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > RECEPTION_BODY_LIMIT_BYTES)
        throw bodyTooLarge(RECEPTION_BODY_LIMIT_BYTES);
    });

    const routeOptions = { bodyLimit: RECEPTION_BODY_LIMIT_BYTES };
    // Only under the environment: `/fe/...` was rewritten to the default environment's path.
    for (const prefix of ['/:environment']) {
      scope.get(`${prefix}${RECEPTION_PATHS.seed}`, async (request, reply) => {
        const seed = await issueReceptionSeed({
          database: options.database,
          environment: environmentOf(request, options.defaultEnvironment),
        });
        return reply.type('application/xml; charset=utf-8').send(seed.xml);
      });

      scope.post(
        `${prefix}${RECEPTION_PATHS.certificateValidation}`,
        routeOptions,
        async (request, reply) => {
          const environment = environmentOf(request, options.defaultEnvironment);
          const part = await readXmlPart(request);
          const answer = await charged(request, (cpuMeter) =>
            validateReceptionCertificate({
              database: options.database,
              environment,
              xml: part.bytes,
              xsd: options.xsd,
              cpuMeter,
            }),
          );
          request.log.info({ holderId: answer.holderId, environment }, 'reception token issued');
          return sendToken(request, reply, answer);
        },
      );

      scope.post(`${prefix}${RECEPTION_PATHS.ecf}`, routeOptions, async (request, reply) => {
        const environment = environmentOf(request, options.defaultEnvironment);
        const part = await readXmlPart(request);
        const result = await charged(request, (cpuMeter) =>
          receiveEcf({
            ...certificateSource,
            ...refusals,
            database: options.database,
            environment,
            xml: part.bytes,
            fileName: part.fileName,
            authorization: authorizationOf(request),
            sourceAddress: request.ip,
            xsd: options.xsd,
            enqueue: options.enqueue,
            cpuMeter,
          }),
        );
        request.log.info(
          {
            environment,
            estado: result.estado,
            notReceivedCode: result.notReceivedCode,
            inboundDocumentId: result.inboundDocumentId,
            kept: result.kept,
            refusalId: result.refusalId,
          },
          'e-CF delivery acknowledged',
        );
        return reply.type('application/xml; charset=utf-8').send(result.arecfXml);
      });

      scope.post(`${prefix}${RECEPTION_PATHS.commercialApproval}`, routeOptions, async (request, reply) => {
        const environment = environmentOf(request, options.defaultEnvironment);
        const part = await readXmlPart(request);
        const result = await charged(request, (cpuMeter) =>
          receiveCommercialApproval({
            ...refusals,
            database: options.database,
            environment,
            xml: part.bytes,
            fileName: part.fileName,
            authorization: authorizationOf(request),
            sourceAddress: request.ip,
            xsd: options.xsd,
            enqueue: options.enqueue,
            cpuMeter,
          }),
        );
        request.log.info(
          {
            environment,
            status: result.status,
            inboundDocumentId: result.inboundDocumentId,
            refusalId: result.refusalId,
          },
          'commercial approval delivery recorded',
        );
        if (result.httpStatus === 400)
          throw new AppError(
            'INVALID_REQUEST',
            'The commercial approval was refused: its signature or schema is not valid.',
            {
              details: { reason: 'acecf_rejected', field: 'xml', problem: result.reason },
            },
          );
        return reply
          .type('application/json; charset=utf-8')
          .send(JSON.stringify({ ok: true, status: result.status }));
      });
    }
  });
}
