/**
 * One error class for every failure of a call to the tax authority, classified so that the worker
 * knows whether to retry (`transient`) or to record the outcome (`definite`).
 */

/** A message as the tax authority sent it (`mensajes` items; bare strings become `{ valor }`). */
export type TTaxauthMessage = {
  codigo?: string | number | null;
  valor?: string | null;
};

/** Failures worth retrying later with the same request. */
export const TRANSIENT_REASONS = [
  /** No answer within `timeoutMs` (connect, send or read). */
  'timeout',
  /** The connection could not be made or broke (reset, refused, DNS, socket closed). */
  'connection',
  /** HTTP 5xx. */
  'http_5xx',
  /** HTTP 429. */
  'rate_limited',
  /** HTTP 408. */
  'http_408',
  /** The authentication service (seed or seed validation) failed transiently; the cause says how. */
  'auth_unavailable',
  /** HTTP 2xx whose body is not the documented answer (see README: treated as "outcome unknown"). */
  'malformed_answer',
  /** The caller's own `signal` aborted the call. */
  'aborted',
] as const;

/** Failures that retrying the same request will not change. */
export const DEFINITE_REASONS = [
  /** The signed seed was refused (HTTP 4xx from `validarsemilla`, e.g. "Firma del certificado invalida"). */
  'auth_failed',
  /** HTTP 401 again after one fresh authentication. */
  'unauthorized',
  /** The certificate's holder is not delegated for the RNC (message text or HTTP 403 saying so). */
  'not_delegated',
  /** HTTP 403 for another reason. */
  'forbidden',
  /** HTTP 404. */
  'not_found',
  /** A well-formed rejection: HTTP 400, or a 2xx that carries an error and no result. */
  'rejected',
  /** Any other HTTP 4xx. */
  'http_4xx',
  /** The request could not be built (e.g. the XML lacks the fields its file name is made of). */
  'invalid_request',
] as const;

export type TTransientReason = (typeof TRANSIENT_REASONS)[number];
export type TDefiniteReason = (typeof DEFINITE_REASONS)[number];
export type TTaxauthErrorReason = TTransientReason | TDefiniteReason;
export type TTaxauthErrorKind = 'transient' | 'definite';

/** The services, named by their DGII path segment (plus `estatusservicios` on the status host). */
export type TTaxauthService =
  | 'autenticacion'
  | 'recepcion'
  | 'consultaresultado'
  | 'consultatrackids'
  | 'consultaestado'
  | 'recepcionfc'
  | 'consultarfce'
  | 'anulacionrangos'
  | 'aprobacioncomercial'
  | 'consultadirectorio'
  | 'estatusservicios';

export type TTaxauthErrorOptions = {
  reason: TTaxauthErrorReason;
  service: TTaxauthService;
  message: string;
  status?: number;
  body?: string;
  messages?: TTaxauthMessage[];
  /**
   * True when the request may have reached the tax authority and been processed although we have
   * no usable answer (timeout after sending, broken connection, 5xx, malformed 2xx). For uploads the
   * worker must reconcile (ConsultaTrackIds / Consulta Resultado) before sending again.
   */
  isOutcomeUnknown?: boolean;
  /** Low-level code (`ECONNRESET`, `UND_ERR_SOCKET`...) or zod issue summary. */
  detail?: string;
  cause?: unknown;
};

const TRANSIENT: ReadonlySet<string> = new Set(TRANSIENT_REASONS);

/** The kind implied by a reason: every reason belongs to exactly one kind. */
export function kindOfReason(reason: TTaxauthErrorReason): TTaxauthErrorKind {
  return TRANSIENT.has(reason) ? 'transient' : 'definite';
}

/** Every failure of a call to the tax authority (or to the simulator standing in for it). */
export class TaxauthError extends Error {
  override readonly name = 'TaxauthError';
  readonly kind: TTaxauthErrorKind;
  readonly reason: TTaxauthErrorReason;
  readonly service: TTaxauthService;
  /** HTTP status of the answer, when there was one. */
  readonly status: number | undefined;
  /** The answer's body text, verbatim. */
  readonly body: string | undefined;
  /** The `mensajes` the tax authority sent, item by item as sent. */
  readonly messages: TTaxauthMessage[] | undefined;
  readonly isOutcomeUnknown: boolean;
  readonly detail: string | undefined;

  constructor(options: TTaxauthErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kindOfReason(options.reason);
    this.reason = options.reason;
    this.service = options.service;
    this.status = options.status;
    this.body = options.body;
    this.messages = options.messages;
    this.isOutcomeUnknown = options.isOutcomeUnknown ?? false;
    this.detail = options.detail;
  }

  get isTransient(): boolean {
    return this.kind === 'transient';
  }
}

/** Narrowing helper for `catch` blocks. */
export function isTaxauthError(error: unknown): error is TaxauthError {
  return error instanceof TaxauthError;
}
