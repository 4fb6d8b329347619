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

/** Coalesced on the pool; alone (with its follow-up) on a connection, in the caller's transaction. */
export async function applyWrite(sql: TSql, write: TGuardedWrite): Promise<TWriteResult> {
  if (isSqlPool(sql)) return coalescedWrites(sql)(write);
  const results = await writeMany(sql, [write]);
  await enqueueFollowUps(sql, [write], results);
  return results[0] ?? { moved: false };
}

/**
 * Writes of distinct rows as one statement: prepared when alone (a few dozen shapes), not when
 * several (the shape varies with the batch). The document changes, the hot path, are one fixed
 * statement instead (`changeDocument`).
 */
async function writeMany(sql: TSql, writes: TGuardedWrite[]): Promise<TWriteResult[]> {
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

// A row written twice in one statement would see both guards pass: a write's key keeps them apart.
const coalescedWrites = coalescerPerKey((pool: TSqlPool) =>
  createCoalescer(
    batchOrEach(
      (writes: TGuardedWrite[]) => writeBatch(pool, writes),
      (write) => write.key,
    ),
  ),
);

/** Writes of distinct rows on the pool: one statement, in a transaction with their jobs when any has some. */
async function writeBatch(pool: TSqlPool, writes: TGuardedWrite[]): Promise<TWriteResult[]> {
  if (!writes.some((write) => write.followUp !== undefined)) return writeMany(pool, writes);
  return inPoolTransaction(pool, async (transaction) => {
    const results = await writeMany(transaction, writes);
    await enqueueFollowUps(transaction, writes, results);
    return results;
  });
}

/** The jobs of the writes that moved. */
async function enqueueFollowUps(sql: TSql, writes: TGuardedWrite[], results: TWriteResult[]): Promise<void> {
  await enqueueJobs(
    sql,
    writes.flatMap((write, index) =>
      results[index]?.moved === true && write.followUp !== undefined ? [write.followUp] : [],
    ),
  );
}

/** Jobs to enqueue in `sql`'s transaction: one `enqueue` call per enqueuer (one insert per queue). */
export async function enqueueJobs(sql: TSql, followUps: readonly TFollowUpJobs[]): Promise<void> {
  const groups = new Map<TEnqueue, TAnyJobRequest[]>();
  for (const { enqueue, jobs } of followUps) groups.set(enqueue, [...(groups.get(enqueue) ?? []), ...jobs]);
  const executor = jobExecutorOfSql(sql);
  for (const [enqueue, jobs] of groups) if (jobs.length > 0) await enqueue(jobs, { executor });
}
