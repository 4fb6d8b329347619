import { JOB_CONTRACTS, type TDatabase, type TJobName, type TJobPayload } from '@ecf/db';
import type { Logger } from 'pino';
import { purgeExpired } from './purge-expired.ts';

export type TJobContext = { database: TDatabase; log: Logger; now: () => Date };

/** A job: its queue name, the payload contract, and the handler that runs a parsed payload. */
export type TJobDefinition<TName extends TJobName = TJobName> = {
  name: TName;
  schema: (typeof JOB_CONTRACTS)[TName];
  handle: (payload: TJobPayload<TName>, context: TJobContext) => Promise<void>;
  /** Cron schedule (UTC), for jobs that run periodically. */
  schedule?: string;
};

/** Any registered job, whatever its name. */
export type TAnyJobDefinition = { [TName in TJobName]: TJobDefinition<TName> }[TJobName];

function defineJob<TName extends TJobName>(definition: Omit<TJobDefinition<TName>, 'schema'>): TJobDefinition<TName> {
  return { ...definition, schema: JOB_CONTRACTS[definition.name] };
}

/** Every job the worker runs. Adding a job means adding its contract in @ecf/db and a line here. */
export const JOB_REGISTRY: TAnyJobDefinition[] = [
  defineJob({ name: 'maintenance.purge-expired', handle: purgeExpired, schedule: '*/10 * * * *' }),
];
