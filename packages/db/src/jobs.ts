import { z } from 'zod';

/**
 * Job contracts: queue names (dotted constants) and the payload each one carries. The API and
 * the services enqueue with these; the worker parses payloads with them before any handler runs.
 */
export const JOB_CONTRACTS = {
  /** Deletes expired rate-limit windows and idempotency records. Scheduled every 10 minutes. */
  'maintenance.purge-expired': z.strictObject({
    /** Purge what expired before this instant (ISO 8601); default: now. */
    before: z.iso.datetime({ offset: true }).optional(),
  }),
} as const;

export type TJobName = keyof typeof JOB_CONTRACTS;
export type TJobPayload<TName extends TJobName> = z.infer<(typeof JOB_CONTRACTS)[TName]>;
export const JOB_NAMES = Object.keys(JOB_CONTRACTS) as TJobName[];
/** pg-boss keeps its tables in this schema of the application database. */
export const JOB_QUEUE_SCHEMA = 'pgboss';
