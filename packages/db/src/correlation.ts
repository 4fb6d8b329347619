/**
 * The correlation id of the request a piece of work serves, carried to the database so that the
 * webhook outbox can name the request that caused a change (`webhook_events.correlation_id`,
 * migration 0019: the column's default reads the session setting `ecf.correlation_id`).
 *
 * A transport runs a request's work inside {@link runWithCorrelationId}; every connection the
 * database client hands out (`pool.connect`, hence Prisma's queries and transactions and plain SQL
 * alike) first gets the setting of the caller's context — or none outside any request (a job, a
 * sweep, an outage detected by the worker) — so an outbox row written by a trigger in the same
 * session carries the id, or null. Nothing else reads the setting.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const CORRELATION = new AsyncLocalStorage<string>();

/** The PostgreSQL session setting the outbox's default reads (migration 0019). */
export const CORRELATION_SETTING = 'ecf.correlation_id';

/** Runs `work` (and everything it starts) as part of the request `correlationId`. */
export function runWithCorrelationId<T>(correlationId: string, work: () => T): T {
  return CORRELATION.run(correlationId, work);
}

/** Runs `work` outside any request: what it writes names no request. */
export function runWithoutCorrelationId<T>(work: () => T): T {
  return CORRELATION.exit(work);
}

/** The correlation id of the request the current work serves, undefined outside any request. */
export function currentCorrelationId(): string | undefined {
  return CORRELATION.getStore();
}
