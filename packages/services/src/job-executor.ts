import type { Prisma, TJobExecutor, TJobName, TJobPayload } from '@ecf/db';

export type { TJobExecutor } from '@ecf/db';

/** Enqueues a job through `executor`, so the job exists exactly when the transaction's write commits. */
export type TEnqueueJob = <TName extends TJobName>(
  name: TName,
  payload: TJobPayload<TName>,
  executor: TJobExecutor,
) => Promise<void>;

/** Enqueues several jobs of one queue through `executor` (pg-boss `insert`: one statement). */
export type TEnqueueJobs = <TName extends TJobName>(
  name: TName,
  payloads: Array<TJobPayload<TName>>,
  executor: TJobExecutor,
) => Promise<void>;

/** {@link TEnqueueJobs} from a single-job `enqueue`: one after the other. */
export function enqueueJobsOf(enqueue: TEnqueueJob): TEnqueueJobs {
  return async (name, payloads, executor) => {
    for (const payload of payloads) await enqueue(name, payload, executor);
  };
}

/** pg-boss's `db` executor over a Prisma interactive transaction. */
export function executorOf(transaction: Prisma.TransactionClient): TJobExecutor {
  return {
    executeSql: async (text, values = []) => ({
      rows: await transaction.$queryRawUnsafe<unknown[]>(text, ...values),
    }),
  };
}
