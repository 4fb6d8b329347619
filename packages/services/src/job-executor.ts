import type { Prisma, TJobExecutor, TJobName, TJobPayload } from '@ecf/db';

export type { TJobExecutor } from '@ecf/db';

/** Enqueues a job through `executor`, so the job exists exactly when the transaction's write commits. */
export type TEnqueueJob = <TName extends TJobName>(name: TName, payload: TJobPayload<TName>, executor: TJobExecutor) => Promise<void>;

/** pg-boss's `db` executor over a Prisma interactive transaction. */
export function executorOf(transaction: Prisma.TransactionClient): TJobExecutor {
  return {
    executeSql: async (text, values = []) => ({ rows: await transaction.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}
