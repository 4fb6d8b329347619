/**
 * The typed client of the tax authority's web services (FACTS §1). One client per environment and
 * set of base URLs; credentials are bound per taxpayer with `forTaxpayer`, and each taxpayer's
 * token lives in this client's cache only.
 */
import type { TSigningCertificate } from '@ecf/fiscal-core';
import type { z } from 'zod';
import {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TOKEN_REFRESH_MARGIN_SECONDS,
  ENVIRONMENT_PATH_SEGMENTS,
  joinUrl,
  SERVICE_PATHS,
  STATUS_ENVIRONMENT_CODES,
  STATUS_PATHS,
  TAXAUTH_ENVIRONMENTS,
  type TTaxauthBaseUrls,
  type TTaxauthEnvironment,
} from './config.ts';
import { TaxauthError, type TTaxauthService } from './errors.ts';
import {
  exchange,
  isSuccessStatus,
  malformed,
  parseAnswer,
  statusFailure,
  type THttpAnswer,
  type THttpRequest,
} from './http.ts';
import { buildXmlMultipart } from './multipart.ts';
import { SEED_FILE_NAME, signSeed } from './seed-authentication.ts';
import {
  isFinalStatus,
  resultStatusOf,
  statusFromEstado,
  toTaxauthMessages,
  ZAnnulmentAnswer,
  ZCommercialApprovalAnswer,
  ZDirectoryAnswer,
  ZEcfStatusAnswer,
  ZEnvironmentStatusAnswer,
  ZMaintenanceWindowsAnswer,
  ZReceptionAnswer,
  ZResultAnswer,
  ZRfceAnswer,
  ZRfceStatusAnswer,
  ZServiceStatusAnswer,
  ZTokenAnswer,
  ZTrackIdsAnswer,
  type TAnnulmentAnswer,
  type TCommercialApprovalAnswer,
  type TEcfStatusAnswer,
  type TEnvironmentStatusAnswer,
  type TMaintenanceWindowsAnswer,
  type TReceiver,
  type TReceptionResult,
  type TResultAnswer,
  type TRfceAnswer,
  type TRfceStatusAnswer,
  type TServiceStatus,
  type TTrackIdItem,
} from './schemas.ts';
import { TokenCache, type TTaxauthToken } from './token-cache.ts';

/** Options of {@link createTaxauthClient}. */
export type TTaxauthClientOptions = {
  environment: TTaxauthEnvironment;
  /** `DGII_BASE_URLS` for the real services; the simulator's base URL (three times) in tests. */
  baseUrls: TTaxauthBaseUrls;
  /** Timeout of each HTTP exchange; default 30 s. */
  timeoutMs?: number;
  /** Authenticate again this long before the token expires; default 300 s (capped at half the lifetime). */
  tokenRefreshMarginSeconds?: number;
  /** Clock for token expiry; default the system clock. */
  now?: () => Date;
  /** DGII-issued API key for the status host (`Authorization: Apikey ...`); can also be given per call. */
  statusApiKey?: string;
  /** Called after every HTTP exchange (metrics, logs). Never receives tokens or bodies. Must not throw. */
  onExchange?: (event: TTaxauthExchangeEvent) => void;
};

/** One HTTP exchange, as reported to `onExchange`. */
export type TTaxauthExchangeEvent = {
  service: TTaxauthService;
  method: 'GET' | 'POST';
  /** URL path without the query string. */
  path: string;
  /** HTTP status, when an answer arrived. */
  status?: number;
  durationMs: number;
  /** The network failure, when no answer arrived. */
  error?: TaxauthError;
};

/** A taxpayer's credentials. `cacheKey` (the tenant id) scopes the cached token. */
export type TTaxpayerCredentials = { cacheKey: string; certificate: TSigningCertificate };

/** Per-call options. */
export type TCallOptions = {
  /** Aborts the call (reason `aborted`, transient). */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
};

/** An XML upload. `fileName` defaults to DGII's convention, read from the XML. */
export type TXmlUpload = TCallOptions & { xml: string; fileName?: string };

/** The services that need a taxpayer's token. */
export type TTaxpayerClient = {
  readonly cacheKey: string;
  /** The cached token, or a fresh one (seed → signed seed → token). Callers rarely need this. */
  authenticate(options?: TCallOptions): Promise<TTaxauthToken>;
  /** e-CF reception (`recepcion`); file name `{RNCEmisor}{eNCF}.xml`. */
  sendEcf(upload: TXmlUpload): Promise<TReceptionResult>;
  /** Consulta Resultado by trackId. */
  getResult(input: TCallOptions & { trackId: string }): Promise<TResultAnswer>;
  /** ConsultaTrackIds: every trackId issued for an eNCF. */
  findTrackIds(input: TCallOptions & { rncEmisor: string; encf: string }): Promise<TTrackIdItem[]>;
  /** Consulta Estado: validity of an e-CF for its issuer or buyer. */
  getEcfStatus(
    input: TCallOptions & {
      rncEmisor: string;
      encf: string;
      rncComprador?: string;
      codigoSeguridad?: string;
    },
  ): Promise<TEcfStatusAnswer>;
  /** RFCE reception on the consumer-invoice host (synchronous answer); file name `{RNCEmisor}{eNCF}.xml`. */
  sendRfce(upload: TXmlUpload): Promise<TRfceAnswer>;
  /** ConsultaRFCE on the consumer-invoice host. */
  getRfceStatus(
    input: TCallOptions & { rncEmisor: string; encf: string; codigoSeguridad: string },
  ): Promise<TRfceStatusAnswer>;
  /** Range annulment (ANECF); file name `{RncEmisor}.xml` unless given. */
  annulRanges(upload: TXmlUpload): Promise<TAnnulmentAnswer>;
  /** Commercial approval (ACECF) copy to DGII; file name `{RNCComprador}{eNCF}.xml`. */
  sendCommercialApproval(upload: TXmlUpload): Promise<TCommercialApprovalAnswer>;
  /** Directory of electronic receivers (all of them). */
  findReceivers(options?: TCallOptions): Promise<TReceiver[]>;
  /** One receiver by RNC; `not_found` (definite) when the directory has none. */
  getReceiver(input: TCallOptions & { rnc: string }): Promise<TReceiver>;
};

export type TTaxauthClient = {
  readonly environment: TTaxauthEnvironment;
  readonly baseUrls: Readonly<TTaxauthBaseUrls>;
  /** Binds credentials; cheap, call it per job. Tokens are cached by client, environment, cacheKey and certificate. */
  forTaxpayer(credentials: TTaxpayerCredentials): TTaxpayerClient;
  /** Drops the cached tokens of one tenant (e.g. after its certificate changed). */
  invalidateTokens(cacheKey: string): void;
  /** Status of each service (status host, API key). */
  findServiceStatuses(options?: TCallOptions & { apiKey?: string }): Promise<TServiceStatus[]>;
  /** Announced maintenance windows (status host, API key). */
  getMaintenanceWindows(options?: TCallOptions & { apiKey?: string }): Promise<TMaintenanceWindowsAnswer>;
  /** Whether this client's environment is available (status host, API key). */
  getEnvironmentStatus(options?: TCallOptions & { apiKey?: string }): Promise<TEnvironmentStatusAnswer>;
};

type TPlan = {
  service: TTaxauthService;
  method: 'GET' | 'POST';
  url: URL;
  accept?: string;
  upload?: { xml: string; fileName: string };
};

/** Creates a client for one environment. Holds no token until a taxpayer calls a service. */
export function createTaxauthClient(options: TTaxauthClientOptions): TTaxauthClient {
  if (!TAXAUTH_ENVIRONMENTS.includes(options.environment))
    throw new TypeError(`Unknown environment: ${String(options.environment)}`);
  for (const name of ['ecf', 'fc', 'status'] as const) {
    const value = options.baseUrls[name];
    if (typeof value !== 'string' || !/^https?:\/\//i.test(value))
      throw new TypeError(`baseUrls.${name} must be an http(s) URL`);
  }
  const environment = options.environment;
  const segment = ENVIRONMENT_PATH_SEGMENTS[environment];
  const baseUrls = Object.freeze({ ...options.baseUrls });
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const marginMs = (options.tokenRefreshMarginSeconds ?? DEFAULT_TOKEN_REFRESH_MARGIN_SECONDS) * 1000;
  const now = options.now ?? (() => new Date());
  const cache = new TokenCache(now);
  const statusApiKey = options.statusApiKey;
  const onExchange = options.onExchange;

  /** `exchange` plus the `onExchange` report. */
  async function send(request: THttpRequest): Promise<THttpAnswer> {
    const started = performance.now();
    const report = (outcome: { status?: number; error?: TaxauthError }): void => {
      if (onExchange === undefined) return;
      try {
        onExchange({
          service: request.service,
          method: request.method,
          path: request.url.pathname,
          durationMs: performance.now() - started,
          ...outcome,
        });
      } catch {
        // An observer's bug must not change the outcome of a call to the tax authority.
      }
    };
    try {
      const answer = await exchange(request);
      report({ status: answer.status });
      return answer;
    } catch (error) {
      if (error instanceof TaxauthError) report({ error });
      throw error;
    }
  }

  const ecfUrl = (path: string, query?: Record<string, string | undefined>): URL =>
    withQuery(joinUrl(baseUrls.ecf, segment, path), query);
  const fcUrl = (path: string, query?: Record<string, string | undefined>): URL =>
    withQuery(joinUrl(baseUrls.fc, segment, path), query);

  const timeoutOf = (call: TCallOptions | undefined): number => call?.timeoutMs ?? defaultTimeoutMs;

  function requestOf(
    plan: TPlan,
    call: TCallOptions | undefined,
    authorization: string | undefined,
  ): THttpRequest {
    const headers: Record<string, string> = { Accept: plan.accept ?? 'application/json' };
    if (authorization !== undefined) headers['Authorization'] = authorization;
    const request: THttpRequest = {
      service: plan.service,
      method: plan.method,
      url: plan.url,
      headers,
      timeoutMs: timeoutOf(call),
      signal: call?.signal,
    };
    if (plan.upload !== undefined) {
      const multipart = buildXmlMultipart(plan.upload.xml, plan.upload.fileName);
      headers['Content-Type'] = multipart.contentType;
      headers['Content-Length'] = multipart.contentLength;
      request.body = multipart.body;
    }
    return request;
  }

  /** Seed → signed seed → token. Transient failures become `auth_unavailable`; refusals `auth_failed`. */
  async function fetchToken(
    certificate: TSigningCertificate,
    call: TCallOptions | undefined,
  ): Promise<TTaxauthToken> {
    const startedAt = now().getTime();
    const seedPlan: TPlan = {
      service: 'autenticacion',
      method: 'GET',
      url: ecfUrl(SERVICE_PATHS.seed),
      accept: 'application/xml, text/xml',
    };
    const seedRequest = requestOf(seedPlan, call, undefined);
    const seedAnswer = await authenticationExchange(seedRequest);
    if (!isSuccessStatus(seedAnswer.status)) throw authenticationFailure(seedRequest, seedAnswer);
    const signed = signSeed(seedAnswer.body, certificate);
    if (!signed.ok) {
      throw asAuthUnavailable(
        malformed(seedRequest, seedAnswer, 'The seed is not well-formed XML', signed.message),
      );
    }
    const validatePlan: TPlan = {
      service: 'autenticacion',
      method: 'POST',
      url: ecfUrl(SERVICE_PATHS.validateSeed),
      upload: { xml: signed.xml, fileName: SEED_FILE_NAME },
    };
    const validateRequest = requestOf(validatePlan, call, undefined);
    const tokenAnswer = await authenticationExchange(validateRequest);
    if (!isSuccessStatus(tokenAnswer.status)) throw authenticationFailure(validateRequest, tokenAnswer);
    let parsed: z.output<typeof ZTokenAnswer>;
    try {
      parsed = parseAnswer(validateRequest, tokenAnswer, ZTokenAnswer);
    } catch (error) {
      throw error instanceof TaxauthError ? asAuthUnavailable(error) : error;
    }
    const expira = Date.parse(parsed.expira);
    const expedido = parsed.expedido === undefined ? Number.NaN : Date.parse(parsed.expedido);
    // DGII states the lifetime through its own clock; measure it on ours so clock skew does not matter.
    const lifetimeMs = Number.isFinite(expedido) ? expira - expedido : expira - startedAt;
    if (!Number.isFinite(lifetimeMs) || lifetimeMs <= 0) {
      throw asAuthUnavailable(
        malformed(validateRequest, tokenAnswer, 'The token answer has unusable expira/expedido dates'),
      );
    }
    const expiresAtMs = startedAt + lifetimeMs;
    const refreshAtMs = expiresAtMs - Math.min(marginMs, lifetimeMs / 2);
    return {
      token: parsed.token,
      expira: parsed.expira,
      ...(parsed.expedido === undefined ? {} : { expedido: parsed.expedido }),
      expiresAt: new Date(expiresAtMs),
      refreshAt: new Date(refreshAtMs),
    };
  }

  async function authenticationExchange(request: THttpRequest): Promise<THttpAnswer> {
    try {
      return await send(request);
    } catch (error) {
      throw error instanceof TaxauthError ? asAuthUnavailable(error) : error;
    }
  }

  function authenticationFailure(request: THttpRequest, answer: THttpAnswer): TaxauthError {
    const failure = statusFailure(request, answer);
    if (failure.kind === 'transient') return asAuthUnavailable(failure);
    if (failure.reason === 'not_delegated') return failure;
    return new TaxauthError({
      reason: 'auth_failed',
      service: 'autenticacion',
      message: `Authentication refused: ${failure.message}`,
      status: answer.status,
      body: answer.body,
      ...(failure.messages === undefined ? {} : { messages: failure.messages }),
      detail: failure.reason,
      cause: failure,
    });
  }

  function tokenKey(credentials: TTaxpayerCredentials): string {
    // NUL cannot occur in any of the parts, so keys of different tenants never collide.
    return [
      environment,
      baseUrls.ecf,
      credentials.cacheKey,
      credentials.certificate.certificateSerialNumber,
    ].join('\u0000');
  }

  /** One service call with the taxpayer's token; a 401 drops the token and retries once with a fresh one. */
  async function callWithToken(
    credentials: TTaxpayerCredentials,
    plan: TPlan,
    call: TCallOptions | undefined,
  ): Promise<{ request: THttpRequest; answer: THttpAnswer }> {
    const key = tokenKey(credentials);
    for (let attempt = 1; ; attempt += 1) {
      const token = await cache.get(key, () =>
        fetchToken(credentials.certificate, sharedAuthenticationOptions(call)),
      );
      const request = requestOf(plan, call, `bearer ${token.token}`);
      const answer = await send(request);
      if (answer.status === 401) {
        cache.invalidate(key, token.token);
        if (attempt < 2) continue;
      }
      if (!isSuccessStatus(answer.status)) throw statusFailure(request, answer);
      return { request, answer };
    }
  }

  function forTaxpayer(credentials: TTaxpayerCredentials): TTaxpayerClient {
    if (typeof credentials.cacheKey !== 'string' || credentials.cacheKey === '')
      throw new TypeError('forTaxpayer: cacheKey is required');
    const call = async <TSchema extends z.ZodType>(
      plan: TPlan,
      options: TCallOptions | undefined,
      schema: TSchema,
    ): Promise<z.output<TSchema>> => {
      const { request, answer } = await callWithToken(credentials, plan, options);
      return parseAnswer(request, answer, schema);
    };

    return {
      cacheKey: credentials.cacheKey,
      authenticate: (options) =>
        cache.get(tokenKey(credentials), () =>
          fetchToken(credentials.certificate, sharedAuthenticationOptions(options)),
        ),

      async sendEcf(upload) {
        const fileName = upload.fileName ?? fileNameOf(upload.xml, 'recepcion', ['RNCEmisor', 'eNCF']);
        const plan: TPlan = {
          service: 'recepcion',
          method: 'POST',
          url: ecfUrl(SERVICE_PATHS.reception),
          upload: { xml: upload.xml, fileName },
        };
        const { request, answer } = await callWithToken(credentials, plan, upload);
        const parsed = parseAnswer(request, answer, ZReceptionAnswer);
        if (parsed.trackId !== undefined && parsed.trackId.trim() !== '') {
          return { ...parsed, trackId: parsed.trackId };
        }
        // A 2xx without trackId that explains itself is DGII refusing the document.
        const hasExplanation =
          parsed.error !== undefined || parsed.mensaje !== undefined || parsed.mensajes.length > 0;
        if (!hasExplanation) throw malformed(request, answer, 'The reception answer has no trackId');
        const messages =
          parsed.mensajes.length > 0
            ? toTaxauthMessages(parsed.mensajes)
            : [parsed.error, parsed.mensaje].filter((text) => text !== undefined).map((valor) => ({ valor }));
        throw new TaxauthError({
          reason: /delegad[oa]/i.test(answer.body) ? 'not_delegated' : 'rejected',
          service: 'recepcion',
          message: `Reception refused: ${messages.map((message) => message.valor ?? '').join(' | ')}`,
          status: answer.status,
          body: answer.body,
          messages,
        });
      },

      async getResult(input) {
        const parsed = await call(
          {
            service: 'consultaresultado',
            method: 'GET',
            url: ecfUrl(SERVICE_PATHS.result, { trackid: input.trackId }),
          },
          input,
          ZResultAnswer,
        );
        const status = resultStatusOf(parsed.codigo, parsed.estado);
        return { ...parsed, status, isFinal: isFinalStatus(status) };
      },

      async findTrackIds(input) {
        const items = await call(
          {
            service: 'consultatrackids',
            method: 'GET',
            url: ecfUrl(SERVICE_PATHS.trackIds, { rncemisor: input.rncEmisor, encf: input.encf }),
          },
          input,
          ZTrackIdsAnswer,
        );
        return items.map((item) => ({ ...item, status: statusFromEstado(item.estado) }));
      },

      async getEcfStatus(input) {
        const parsed = await call(
          {
            service: 'consultaestado',
            method: 'GET',
            url: ecfUrl(SERVICE_PATHS.ecfStatus, {
              rncemisor: input.rncEmisor,
              ncfelectronico: input.encf,
              rnccomprador: input.rncComprador,
              codigoseguridad: input.codigoSeguridad,
            }),
          },
          input,
          ZEcfStatusAnswer,
        );
        return { ...parsed, status: resultStatusOf(parsed.codigo, parsed.estado) };
      },

      async sendRfce(upload) {
        const fileName = upload.fileName ?? fileNameOf(upload.xml, 'recepcionfc', ['RNCEmisor', 'eNCF']);
        const parsed = await call(
          {
            service: 'recepcionfc',
            method: 'POST',
            url: fcUrl(SERVICE_PATHS.rfceReception),
            upload: { xml: upload.xml, fileName },
          },
          upload,
          ZRfceAnswer,
        );
        const status = resultStatusOf(parsed.codigo, parsed.estado);
        return { ...parsed, status, isFinal: isFinalStatus(status) };
      },

      async getRfceStatus(input) {
        const parsed = await call(
          {
            service: 'consultarfce',
            method: 'GET',
            url: fcUrl(SERVICE_PATHS.rfceStatus, {
              RNC_Emisor: input.rncEmisor,
              ENCF: input.encf,
              Cod_Seguridad_eCF: input.codigoSeguridad,
            }),
          },
          input,
          ZRfceStatusAnswer,
        );
        return { ...parsed, status: resultStatusOf(parsed.codigo, parsed.estado) };
      },

      async annulRanges(upload) {
        const fileName = upload.fileName ?? fileNameOf(upload.xml, 'anulacionrangos', ['RncEmisor']);
        return call(
          {
            service: 'anulacionrangos',
            method: 'POST',
            url: ecfUrl(SERVICE_PATHS.annulment),
            upload: { xml: upload.xml, fileName },
          },
          upload,
          ZAnnulmentAnswer,
        );
      },

      async sendCommercialApproval(upload) {
        const fileName =
          upload.fileName ?? fileNameOf(upload.xml, 'aprobacioncomercial', ['RNCComprador', 'eNCF']);
        return call(
          {
            service: 'aprobacioncomercial',
            method: 'POST',
            url: ecfUrl(SERVICE_PATHS.commercialApproval),
            upload: { xml: upload.xml, fileName },
          },
          upload,
          ZCommercialApprovalAnswer,
        );
      },

      async findReceivers(options) {
        return call(
          { service: 'consultadirectorio', method: 'GET', url: ecfUrl(SERVICE_PATHS.directoryListing) },
          options,
          ZDirectoryAnswer,
        );
      },

      async getReceiver(input) {
        const plan: TPlan = {
          service: 'consultadirectorio',
          method: 'GET',
          url: ecfUrl(SERVICE_PATHS.directoryByRnc, { RNC: input.rnc }),
        };
        const { request, answer } = await callWithToken(credentials, plan, input);
        // An empty body or `null` is how a directory without that RNC may answer.
        const items =
          answer.body.trim() === '' || answer.body.trim() === 'null'
            ? []
            : parseAnswer(request, answer, ZDirectoryAnswer);
        const digits = (rnc: string) => rnc.replace(/\D/g, '');
        const found = items.find((item) => digits(item.rnc) === digits(input.rnc));
        if (found === undefined) {
          throw new TaxauthError({
            reason: 'not_found',
            service: 'consultadirectorio',
            message: `No electronic receiver with RNC ${input.rnc}`,
            status: answer.status,
            body: answer.body,
          });
        }
        return found;
      },
    };
  }

  async function statusCall<TSchema extends z.ZodType>(
    path: string,
    query: Record<string, string> | undefined,
    options: (TCallOptions & { apiKey?: string }) | undefined,
    schema: TSchema,
  ): Promise<z.output<TSchema>> {
    const apiKey = options?.apiKey ?? statusApiKey;
    const plan: TPlan = {
      service: 'estatusservicios',
      method: 'GET',
      url: withQuery(joinUrl(baseUrls.status, path), query),
    };
    const request = requestOf(plan, options, apiKey === undefined ? undefined : `Apikey ${apiKey}`);
    const answer = await send(request);
    if (!isSuccessStatus(answer.status)) throw statusFailure(request, answer);
    return parseAnswer(request, answer, schema);
  }

  return {
    environment,
    baseUrls,
    forTaxpayer,
    invalidateTokens(cacheKey) {
      cache.invalidateWhere((key) => key.split('\u0000')[2] === cacheKey);
    },
    findServiceStatuses: (options) =>
      statusCall(STATUS_PATHS.services, undefined, options, ZServiceStatusAnswer),
    getMaintenanceWindows: (options) =>
      statusCall(STATUS_PATHS.maintenanceWindows, undefined, options, ZMaintenanceWindowsAnswer),
    async getEnvironmentStatus(options) {
      const parsed = await statusCall(
        STATUS_PATHS.environment,
        { ambiente: String(STATUS_ENVIRONMENT_CODES[environment]) },
        options,
        ZEnvironmentStatusAnswer,
      );
      return { ...parsed, isAvailable: parsed.estado.trim().toLowerCase() === 'disponible' };
    },
  };
}

/**
 * The authentication is shared by every concurrent caller (single-flight), so one caller's abort
 * signal must not cancel it for the others; only the timeout carries over.
 */
function sharedAuthenticationOptions(call: TCallOptions | undefined): TCallOptions | undefined {
  return call?.timeoutMs === undefined ? undefined : { timeoutMs: call.timeoutMs };
}

function asAuthUnavailable(error: TaxauthError): TaxauthError {
  if (error.kind === 'definite') return error;
  return new TaxauthError({
    reason: 'auth_unavailable',
    service: 'autenticacion',
    message: `Authentication service unavailable: ${error.message}`,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.body === undefined ? {} : { body: error.body }),
    ...(error.messages === undefined ? {} : { messages: error.messages }),
    detail: error.reason + (error.detail === undefined ? '' : `: ${error.detail}`),
    cause: error,
  });
}

function withQuery(url: URL, query: Record<string, string | undefined> | undefined): URL {
  if (query !== undefined)
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

/**
 * DGII's file name convention (FACTS §1.1, §4.1): the text of the first element of each name,
 * concatenated, plus `.xml`. A document without them cannot be named: definite `invalid_request`.
 */
export function fileNameOf(xml: string, service: TTaxauthService, elements: readonly string[]): string {
  let name = '';
  for (const element of elements) {
    const match = new RegExp(`<${element}>\\s*([A-Za-z0-9]+)\\s*</${element}>`).exec(xml);
    if (match?.[1] === undefined) {
      throw new TaxauthError({
        reason: 'invalid_request',
        service,
        message: `The XML has no <${element}> to build the file name from; pass fileName`,
      });
    }
    name += match[1];
  }
  return `${name}.xml`;
}

/**
 * One client per environment, created on first use and kept: each holds its taxpayers' tokens, so
 * a process keeps one per environment (the worker; tests against the simulator).
 */
export function createTaxauthClients(
  options: Omit<TTaxauthClientOptions, 'environment'>,
): (environment: TTaxauthEnvironment) => TTaxauthClient {
  const clients = new Map<TTaxauthEnvironment, TTaxauthClient>();
  return (environment) => {
    let client = clients.get(environment);
    if (client === undefined) {
      client = createTaxauthClient({ ...options, environment });
      clients.set(environment, client);
    }
    return client;
  };
}
