/**
 * The one write style of the services: a guarded update as ONE SQL statement of data-modifying
 * CTEs (the update, and only when it matched, what goes with it), group-committed on the pool.
 *
 * One round trip and atomic on its own, where the same change through Prisma took an interactive
 * transaction of four to six queries (about 1 ms of CPU each): this is the worker's hot path
 * (apps/worker/README.md, "Throughput"). On the pool (autocommit), the writes of concurrent callers
 * go to PostgreSQL as one statement (each still all or nothing, guarded on its own; a row written
 * twice never shares a statement). On a connection (a caller's transaction) a write runs alone, in
 * that transaction.
 */
import {
  batchOrEach,
  coalescerPerKey,
  createCoalescer,
  inPoolTransaction,
  isSqlPool,
  jobExecutorOfSql,
  prepared,
  type TAnyJobRequest,
  type TEnqueue,
  type TSql,
  type TSqlPool,
} from '@ecf/db';
import { retryOnConflict } from './retry-on-conflict.ts';
import { parameters, type TParameter } from './statements.ts';

/** Jobs enqueued with a write, only when its guard matched, in the write's transaction. */
export type TFollowUpJobs = { jobs: TAnyJobRequest[]; enqueue: TEnqueue };

/**
 * A guarded write as CTEs: `parts(suffix)` names its guarded update `moved${suffix}` (its rows
 * return `id` and `tenant_id`). `key` names the row it guards: two writes of one key never share a
 * statement.
 */
export type TGuardedWrite = {
  key: string;
  parts: (suffix: string, parameter: TParameter) => string[];
  followUp?: TFollowUpJobs;
};

/** `moved`: the guard matched and everything was written. */
export type TWriteResult = { moved: boolean };

/**
 * How a kind of guarded write is group-committed: `writeMany` writes distinct rows in ONE statement
 * and answers each, in order; `keyOf` names the row (two writes of one key never share a
 * statement); `followUpOf` gives the jobs that commit with a write that moved.
 */
export type TGroupCommit<TItem, TResult extends TWriteResult> = {
  writeMany: (sql: TSql, items: readonly TItem[]) => Promise<TResult[]>;
  keyOf: (item: TItem) => string;
  followUpOf: (item: TItem) => TFollowUpJobs | undefined;
  /** Runs a pool batch again when PostgreSQL aborted it for a deadlock or a serialization failure. */
  retryConflicts?: boolean;
};

/**
 * A write of `spec`'s kind, coalesced on the pool (the writes arriving together as one statement,
 * in a transaction with their follow-up jobs when any has some); alone, with its follow-up, on a
 * connection, in the caller's transaction.
 */
export function groupCommitted<TItem, TResult extends TWriteResult>(
  spec: TGroupCommit<TItem, TResult>,
): (sql: TSql, item: TItem) => Promise<TResult> {
  const jobsOf = (item: TItem): number => spec.followUpOf(item)?.jobs.length ?? 0;
  const enqueueFollowUps = (sql: TSql, items: readonly TItem[], results: readonly TResult[]) =>
    enqueueJobs(
      sql,
      items.flatMap((item, index) => {
        const followUp = spec.followUpOf(item);
        return results[index]?.moved === true && followUp !== undefined ? [followUp] : [];
      }),
    );
  const writeBatch = async (pool: TSqlPool, items: TItem[]): Promise<TResult[]> => {
    if (!items.some((item) => jobsOf(item) > 0)) return spec.writeMany(pool, items);
    return inPoolTransaction(pool, async (transaction) => {
      const results = await spec.writeMany(transaction, items);
      await enqueueFollowUps(transaction, items, results);
      return results;
    });
  };
  const coalesced = coalescerPerKey((pool: TSqlPool) =>
    createCoalescer(
      batchOrEach(
        (items: TItem[]) =>
          spec.retryConflicts === true
            ? retryOnConflict(() => writeBatch(pool, items))
            : writeBatch(pool, items),
        spec.keyOf,
      ),
    ),
  );
  return async (sql, item) => {
    if (isSqlPool(sql)) return coalesced(sql)(item);
    const [result] = await spec.writeMany(sql, [item]);
    if (result === undefined) throw new Error('groupCommitted: the write answered no result');
    await enqueueFollowUps(sql, [item], [result]);
    return result;
  };
}

/** The generic guarded write of the rarer rows (receiver deliveries, e-mails, notifications). */
export const applyWrite: (sql: TSql, write: TGuardedWrite) => Promise<TWriteResult> = groupCommitted({
  writeMany,
  // A row written twice in one statement would see both guards pass: a write's key keeps them apart.
  keyOf: (write) => write.key,
  followUpOf: (write) => write.followUp,
});

/**
 * Writes of distinct rows as one statement: prepared when alone (a few dozen shapes), not when
 * several (the shape varies with the batch). The document changes, the hot path, are one fixed
 * statement instead (`changeDocument`).
 */
async function writeMany(sql: TSql, writes: readonly TGuardedWrite[]): Promise<TWriteResult[]> {
  const { values, parameter } = parameters();
  const single = writes.length === 1;
  const suffixOf = (index: number) => (single ? '' : `_${index}`);
  const parts: string[] = [];
  writes.forEach((write, index) => parts.push(...write.parts(suffixOf(index), parameter)));
  const moved = writes.map((_, index) => `EXISTS (SELECT 1 FROM moved${suffixOf(index)})`);
  const text = `WITH ${parts.join(',\n')} SELECT ARRAY[${moved.join(', ')}] AS moved`;
  const result = await sql.query<{ moved: boolean[] }>(single ? prepared(text, values) : { text, values });
  const row = result.rows[0];
  return writes.map((_, index) => ({ moved: row?.moved[index] === true }));
}

/** Jobs to enqueue in `sql`'s transaction: one `enqueue` call per enqueuer (one insert per queue). */
async function enqueueJobs(sql: TSql, followUps: readonly TFollowUpJobs[]): Promise<void> {
  const groups = new Map<TEnqueue, TAnyJobRequest[]>();
  for (const { enqueue, jobs } of followUps) groups.set(enqueue, [...(groups.get(enqueue) ?? []), ...jobs]);
  const executor = jobExecutorOfSql(sql);
  for (const [enqueue, jobs] of groups) if (jobs.length > 0) await enqueue(jobs, { executor });
}
