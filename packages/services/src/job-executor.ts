import type { Prisma, TJobName, TJobPayload } from '@ecf/db';

/** The `db` option pg-boss accepts: runs its SQL on our transaction. */
export type TJobExecutor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/** Enqueues a job through `executor`, so the job exists exactly when the transaction's write commits. */
export type TEnqueueJob = <TName extends TJobName>(name: TName, payload: TJobPayload<TName>, executor: TJobExecutor) => Promise<void>;

/** pg-boss's `db` executor over a Prisma interactive transaction. */
export function executorOf(transaction: Prisma.TransactionClient): TJobExecutor {
  return {
    executeSql: async (text, values = []) => ({ rows: await transaction.$queryRawUnsafe<unknown[]>(text, ...values) }),
  };
}
