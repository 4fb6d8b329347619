/**
 * What a failed call throws. Every answer of the service that is not a success is an `EcfApiError`
 * carrying the contract's ErrorResponse (`code`, `message`, `details`, `correlationId`); its class
 * says the family (the HTTP status), `code` says exactly what happened. A request that got no
 * answer is an `EcfConnectionError` (or `EcfTimeoutError`); a caller's abort rethrows the caller's
 * reason untouched.
 */

/** The families of the contract's error codes, by status. */
export type TErrorFamily =
  | 'invalid_request'
  | 'authentication'
  | 'payment_required'
  | 'permission'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'validation'
  | 'locked'
  | 'precondition_required'
  | 'rate_limit'
  | 'upstream'
  | 'unavailable'
  | 'server';

const FAMILY_OF_STATUS: Record<number, TErrorFamily> = {
  400: 'invalid_request',
  401: 'authentication',
  402: 'payment_required',
  403: 'permission',
  404: 'not_found',
  409: 'conflict',
  410: 'gone',
  413: 'invalid_request',
  415: 'invalid_request',
  422: 'validation',
  423: 'locked',
  428: 'precondition_required',
  429: 'rate_limit',
  502: 'upstream',
  503: 'unavailable',
};

export function familyOfStatus(status: number): TErrorFamily {
  return FAMILY_OF_STATUS[status] ?? (status >= 500 ? 'server' : 'invalid_request');
}

/** Any failure of the SDK: an answer of the service, or none. */
export class EcfError extends Error {
  override name = 'EcfError';
  /** Sending the same request again may succeed (the SDK already did, for operations it may retry). */
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable;
  }
}

/** The service answered with an ErrorResponse (or, rarely, with a body that is not one). */
export class EcfApiError extends EcfError {
  override name = 'EcfApiError';
  readonly status: number;
  readonly family: TErrorFamily;
  /** The contract's error code (`VALIDATION_FAILED`, `ENCF_CONFLICT`, `RATE_LIMIT_EXCEEDED`…). */
  readonly code: string;
  readonly details: Record<string, unknown>;
  /** Quote it to support: it finds the request in the service's logs. */
  readonly correlationId: string | null;
  /** Seconds the service asked to wait (Retry-After), when it did. */
  readonly retryAfterSeconds: number | null;
  /** The whole answer as parsed (a 422 of a submission also has `errors` and `warnings`). */
  readonly body: unknown;
  readonly operationId: string;

  constructor(fields: {
    status: number;
    code: string;
    message: string;
    details: Record<string, unknown>;
    correlationId: string | null;
    retryAfterSeconds: number | null;
    body: unknown;
    operationId: string;
  }) {
    super(`${fields.operationId}: ${fields.status} ${fields.code}: ${fields.message}`, {
      retryable: fields.status === 429 || fields.status === 503 || fields.status === 502,
    });
    this.status = fields.status;
    this.family = familyOfStatus(fields.status);
    this.code = fields.code;
    this.details = fields.details;
    this.correlationId = fields.correlationId;
    this.retryAfterSeconds = fields.retryAfterSeconds;
    this.body = fields.body;
    this.operationId = fields.operationId;
  }
}

/** 400, 413, 415: the request is malformed (INVALID_REQUEST, INVALID_PARTNER_PAYLOAD, BODY_TOO_LARGE…). */
export class EcfInvalidRequestError extends EcfApiError {
  override name = 'EcfInvalidRequestError';
}
/** 401: the key is missing, unknown or revoked. */
export class EcfAuthenticationError extends EcfApiError {
  override name = 'EcfAuthenticationError';
}
/** 403: the key lacks the scope or permission, or belongs to another environment. */
export class EcfPermissionError extends EcfApiError {
  override name = 'EcfPermissionError';
}
/** 404: no such document, account, route… */
export class EcfNotFoundError extends EcfApiError {
  override name = 'EcfNotFoundError';
}
/** 409: the state forbids it (ENCF_CONFLICT, an Idempotency-Key reused with another body…). */
export class EcfConflictError extends EcfApiError {
  override name = 'EcfConflictError';
}
/** 422: the content breaks a rule; `errors` of a submission list the field paths. */
export class EcfValidationError extends EcfApiError {
  override name = 'EcfValidationError';
  /** The submission's FieldErrors (`path`, `code`, `message`), when the answer has them. */
  get errors(): Array<{ path: string; code: string; message: string }> {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    return Array.isArray(errors) ? (errors as Array<{ path: string; code: string; message: string }>) : [];
  }
}
/** 429: RATE_LIMIT_EXCEEDED; `retryAfterSeconds` says when. */
export class EcfRateLimitError extends EcfApiError {
  override name = 'EcfRateLimitError';
}
/** 502, 503: the tax authority or the service is unavailable for now (send again later). */
export class EcfUnavailableError extends EcfApiError {
  override name = 'EcfUnavailableError';
}
/** 500: the service failed; `correlationId` finds it in its logs. */
export class EcfServerError extends EcfApiError {
  override name = 'EcfServerError';
}

/** The request got no answer (DNS, refused connection, reset): it may or may not have been processed. */
export class EcfConnectionError extends EcfError {
  override name = 'EcfConnectionError';
}
/** No answer within `timeoutMs`. */
export class EcfTimeoutError extends EcfConnectionError {
  override name = 'EcfTimeoutError';
}

const CLASS_OF_FAMILY: Partial<Record<TErrorFamily, typeof EcfApiError>> = {
  invalid_request: EcfInvalidRequestError,
  authentication: EcfAuthenticationError,
  permission: EcfPermissionError,
  not_found: EcfNotFoundError,
  conflict: EcfConflictError,
  validation: EcfValidationError,
  rate_limit: EcfRateLimitError,
  upstream: EcfUnavailableError,
  unavailable: EcfUnavailableError,
  server: EcfServerError,
};

/** The error of a non-success answer, its class by status. */
export function apiErrorOf(fields: ConstructorParameters<typeof EcfApiError>[0]): EcfApiError {
  const Class = CLASS_OF_FAMILY[familyOfStatus(fields.status)] ?? EcfApiError;
  return new Class(fields);
}
