/**
 * The one application error: a closed set of codes, each with its HTTP status in one table.
 * Use-cases return or throw `AppError`; transports turn it into the spec's `ErrorResponse`.
 */
export const ERROR_STATUS = {
  /** The request body is not valid JSON (or is empty where JSON is expected). */
  INVALID_JSON: 400,
  /** The request's parameters, query or body do not match the route's contract. */
  INVALID_REQUEST: 400,
  /** The body's Content-Type is not one the route accepts (400 rather than 415: the spec's status set). */
  UNSUPPORTED_CONTENT_TYPE: 400,
  /** The body exceeds the configured size limit (400 rather than 413: the spec's status set). */
  BODY_TOO_LARGE: 400,
  /** No `X-API-KEY` header on a private route. */
  API_KEY_MISSING: 401,
  /** The `X-API-KEY` is unknown or revoked. */
  API_KEY_INVALID: 401,
  /** The key lacks the route's scope, or belongs to another environment (`details.reason`). */
  INSUFFICIENT_SCOPE: 403,
  /** No route matches the method and path (including an unknown environment segment). */
  ROUTE_NOT_FOUND: 404,
  /** A tenant-scoped resource does not exist for this tenant (other tenants' ids included). */
  NOT_FOUND: 404,
  /** The API key's rate limit is used up; `Retry-After` says when to retry. */
  RATE_LIMIT_EXCEEDED: 429,
  /** The route is part of the contract but not built yet. */
  NOT_IMPLEMENTED: 501,
  /** The service cannot serve (for example the database is unreachable). */
  SERVICE_UNAVAILABLE: 503,
  /** Anything unexpected; the answer reveals nothing but the correlationId. */
  INTERNAL_ERROR: 500,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: TErrorCode;
  readonly details: Record<string, unknown>;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Record<string, string>;

  constructor(
    code: TErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
