/**
 * The one application error: a closed set of codes, each with its HTTP status in one table (the
 * contract's `ERROR_STATUS`). Use-cases return or throw `AppError`; transports turn it into the
 * spec's `ErrorResponse`.
 */
import { ERROR_STATUS, type TErrorCode } from '@ecf/contract';

export { ERROR_STATUS, type TErrorCode };

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: TErrorCode;
  readonly details: Record<string, unknown>;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Record<string, string>;
  /** Extra top-level members of the ErrorResponse (a 422 submission also carries `errors` and `warnings`). */
  readonly body: Record<string, unknown>;

  constructor(
    code: TErrorCode,
    message: string,
    options: {
      details?: Record<string, unknown>;
      headers?: Record<string, string>;
      body?: Record<string, unknown>;
      cause?: unknown;
      /** Overrides the code's status where the spec gives one code two statuses (`ANECF_DOCUMENT_CONFLICT` 400/409). */
      status?: number;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.statusOverride = options.status;
    this.code = code;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
    this.body = options.body ?? {};
  }

  private readonly statusOverride: number | undefined;

  get status(): number {
    return this.statusOverride ?? ERROR_STATUS[this.code];
  }
}
