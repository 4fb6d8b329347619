import { DATABASE_BUSY_RETRY_AFTER_SECONDS, isDatabaseBusy } from '@ecf/db';
import { AppError } from './errors.ts';

/**
 * The answer to a request that found no database connection (its process's pool stayed full past
 * its timeout, or the server had no slot left): 503 `SERVICE_UNAVAILABLE` with `Retry-After`,
 * `details.reason` `database_busy`. Undefined for any other error. The API's error handler and the
 * portal's tRPC and route handlers call it before an error would become a 500.
 */
export function databaseBusyError(error: unknown): AppError | undefined {
  if (error instanceof AppError || !isDatabaseBusy(error)) return undefined;
  return new AppError(
    'SERVICE_UNAVAILABLE',
    'The service is busy: no database connection was free. Send the request again.',
    {
      details: { reason: 'database_busy', retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS },
      headers: { 'retry-after': String(DATABASE_BUSY_RETRY_AFTER_SECONDS) },
      cause: error,
    },
  );
}
