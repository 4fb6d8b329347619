/**
 * The issues a submission can raise: errors (422, nothing is stored) and warnings (emitted anyway).
 * Shapes follow clarifications 2 and 3: `{ path, code, message, details: { code, ... } }`, `code`
 * mirrors `details.code`, `path` uses the names the client sent (`lines[2].unitPrice`,
 * `ECF.DetallesItems.Item[0].MontoItem`), the empty string for the body as a whole.
 */

/** Blocking codes (422) and warning codes: the contract's lists (every code a client may meet). */
import {
  SUBMISSION_ERROR_CODES as ERROR_CODES,
  SUBMISSION_WARNING_CODES as WARNING_CODES,
  type TSubmissionErrorCode as TErrorCode,
  type TSubmissionWarningCode as TWarningCode,
} from '@ecf/contract';

export { ERROR_CODES, WARNING_CODES, type TErrorCode, type TWarningCode };

/** `details` of an issue: always its `code`, plus facts such as `declared`, `expected`, `toleranceCents`. */
export type TIssueDetails = { readonly code: string; readonly [key: string]: unknown };

/** A blocking problem on one field. */
export type TFieldError = {
  readonly path: string;
  readonly code: TErrorCode;
  readonly message: string;
  readonly details: TIssueDetails;
};

/** A non-blocking remark on one field. */
export type TWarning = {
  readonly path: string;
  readonly code: TWarningCode;
  readonly message: string;
  readonly details: TIssueDetails;
};

/** Collects every issue of a submission; rules never stop at the first. */
export type TIssueCollector = {
  readonly errors: TFieldError[];
  readonly warnings: TWarning[];
  error(path: string, code: TErrorCode, message: string, details?: Record<string, unknown>): void;
  warn(path: string, code: TWarningCode, message: string, details?: Record<string, unknown>): void;
};

/** An empty collector. */
export function createIssueCollector(): TIssueCollector {
  const errors: TFieldError[] = [];
  const warnings: TWarning[] = [];
  return {
    errors,
    warnings,
    error(path, code, message, details = {}) {
      errors.push({ path, code, message, details: { ...details, code } });
    },
    warn(path, code, message, details = {}) {
      warnings.push({ path, code, message, details: { ...details, code } });
    },
  };
}
