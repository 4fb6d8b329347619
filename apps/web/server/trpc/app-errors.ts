/**
 * The services' AppError as a tRPC error: the status family decides the tRPC code (404 NOT_FOUND,
 * 403 FORBIDDEN, 401 UNAUTHORIZED, 409 CONFLICT, 429 TOO_MANY_REQUESTS, other 4xx BAD_REQUEST, 503
 * SERVICE_UNAVAILABLE), and
 * the AppError itself stays the `cause`, so the error formatter sends its code and details to the
 * page (which shows them on their field). Anything else stays an INTERNAL_SERVER_ERROR.
 */
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { AppError, databaseBusyError } from '@ecf/services';

function trpcCodeOf(status: number): TRPC_ERROR_CODE_KEY {
  if (status === 404 || status === 410) return 'NOT_FOUND';
  if (status === 403) return 'FORBIDDEN';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'TOO_MANY_REQUESTS';
  if (status === 422) return 'UNPROCESSABLE_CONTENT';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  if (status === 503) return 'SERVICE_UNAVAILABLE';
  return 'INTERNAL_SERVER_ERROR';
}

/**
 * Rethrows an AppError as its TRPCError; a request that found no database connection (pool full,
 * server out of slots) as 503 SERVICE_UNAVAILABLE `database_busy` (route.ts adds `Retry-After`);
 * anything else as it is.
 */
export function toTrpcError(error: unknown): unknown {
  const appError = error instanceof AppError ? error : databaseBusyError(error);
  if (appError !== undefined)
    return new TRPCError({ code: trpcCodeOf(appError.status), message: appError.message, cause: appError });
  return error;
}
