/**
 * A document's state change as ONE SQL statement: the guarded update, and only when it matched,
 * the artifacts and events that go with it, plus (whatever the guard) the close of the
 * environment's outage episode. One round trip and atomic on its own, where the same change through
 * Prisma took an interactive transaction of four to six queries (about 1 ms of CPU each): this is
 * the worker's hot path (apps/worker/README.md, "Throughput").
 */
import { randomUUID } from 'node:crypto';
import {
  artifactData,
  coalescerPerKey,
  batchOrEach,
  createCoalescer,
  inPoolTransaction,
  isSqlPool,
  jobExecutorOfSql,
  prepared,
  type DocumentStatus,
  type Environment,
  type TJobName,
  type TJobPayload,
  type TSql,
  type TSqlPool,
} from '@ecf/db';
import type { TEnqueueJobs } from './job-executor.ts';

/** Columns a change may set, with the SQL type each parameter is cast to. */
const COLUMN_TYPES = {
  status: '"DocumentStatus"',
  track_id: 'text',
  security_code: 'text',
  qr_url: 'text',
  signature_date: 'timestamptz',
  last_error: 'jsonb',
  taxauth_messages: 'jsonb',
  contingency_since: 'timestamptz',
  attempts: 'int',
  last_deferred_at: 'timestamptz',
} as const;

export type TDocumentColumns = Partial<{
  status: DocumentStatus;
  track_id: string | null;
  security_code: string | null;
  qr_url: string | null;
  signature_date: Date | null;
  /** jsonb; null is SQL NULL (Prisma's DbNull). */
  last_error: unknown;
  taxauth_messages: unknown;
  contingency_since: Date | null;
  attempts: number;
  last_deferred_at: Date | null;
}>;

/** An event of the document's log; events of one change get ids in the order given. */
export type TEventInput = {
  type: string;
  fromStatus?: DocumentStatus | null;
  toStatus?: DocumentStatus | null;
  data: Record<string, unknown>;
  at: Date;
};

/** An artifact row (see `artifactData`) with its id chosen beforehand, so events can name it. */
export type TArtifactInput = ReturnType<typeof artifactData> & { id: string };

/** Builds an artifact row for {@link changeDocument} with a fresh id. */
export function artifactInput(input: Parameters<typeof artifactData>[0]): TArtifactInput {
  return { ...artifactData(input), id: randomUUID() };
}

export type TDocumentChange = {
  documentId: string;
  /** The guard: the change applies only from these statuses... */
  from: DocumentStatus[];
  /** ...and, when given, with this exact attempts count (a transmission claim). */
  attempts?: number;
  set: TDocumentColumns;
  artifacts?: TArtifactInput[];
  events?: TEventInput[];
  /** Closes the environment's open outage episode in the same statement, whether or not the guard matched. */
  closeEpisode?: { environment: Environment; at: Date };
  /**
   * The next steps, committed with the change and only when its guard matched: a `pending` receiver
   * delivery row (in the same statement), and jobs enqueued through `enqueueJobs` on the same
   * transaction (the caller's, or on the pool one shared by the batch, one insert per queue).
   */
  followUp?: { receiverDelivery?: boolean; jobs?: TFollowUpJob[]; enqueueJobs: TEnqueueJobs };
};

export type TFollowUpJob = { [TName in TJobName]: { name: TName; payload: TJobPayload<TName> } }[TJobName];

/**
 * Applies `change` in one statement. `moved`: the guard matched and everything was written;
 * `restored`: this statement closed the environment's episode.
 *
 * On the pool (autocommit), changes of concurrent callers are coalesced: those made while the
 * event loop is busy go to PostgreSQL as one statement (each change still all or nothing, guarded
 * on its own; a document changed twice goes in separate statements). On a connection (a caller's
 * transaction) the change runs alone, in that transaction.
 */
export async function changeDocument(
  sql: TSql,
  change: TDocumentChange,
): Promise<{ moved: boolean; restored: boolean }> {
  return applyWrite(sql, {
    key: `document:${change.documentId.toLowerCase()}`,
    parts: (suffix, parameter) => changeParts(change, suffix, parameter),
    ...(change.closeEpisode === undefined ? {} : { closeEpisode: change.closeEpisode }),
    ...(change.followUp?.jobs?.length
      ? { jobs: { list: change.followUp.jobs, enqueueJobs: change.followUp.enqueueJobs } }
      : {}),
  });
}

type TChangeResult = { moved: boolean; restored: boolean };

/**
 * A guarded write as CTEs: `parts(suffix)` names its guarded update `moved${suffix}`. `key` names
 * the row it guards: two writes of one key never share a statement.
 */
type TGuardedWrite = {
  key: string;
  parts: (suffix: string, parameter: TParameter) => string[];
  closeEpisode?: { environment: Environment; at: Date };
  /** Enqueued when the guard matched, in the write's transaction. */
  jobs?: { list: TFollowUpJob[]; enqueueJobs: TEnqueueJobs };
};

/** Coalesced on the pool; alone (with its follow-up) on a connection, in the caller's transaction. */
async function applyWrite(sql: TSql, write: TGuardedWrite): Promise<TChangeResult> {
  if (isSqlPool(sql)) return coalescedWrites(sql)(write);
  const results = await writeMany(sql, [write]);
  await enqueueFollowUps(sql, [write], results);
  return results[0] ?? { moved: false, restored: false };
}

/**
 * Writes of distinct rows as one statement: prepared when alone (a few dozen shapes), not when
 * several (the shape varies with the batch). An environment's episode is closed once, and
 * `restored` goes to the first write that asked.
 */
async function writeMany(sql: TSql, writes: TGuardedWrite[]): Promise<TChangeResult[]> {
  const { values, parameter } = parameters();
  const single = writes.length === 1;
  const suffixOf = (index: number) => (single ? '' : `_${index}`);
  const parts: string[] = [];
  writes.forEach((write, index) => parts.push(...write.parts(suffixOf(index), parameter)));
  const closers = new Map<string, number>();
  writes.forEach((write, index) => {
    if (write.closeEpisode === undefined || closers.has(write.closeEpisode.environment)) return;
    closers.set(write.closeEpisode.environment, index);
    parts.push(closeEpisodePart(`closed${suffixOf(index)}`, write.closeEpisode, parameter));
  });
  const closing = new Set(closers.values());
  const moved = writes.map((_, index) => `EXISTS (SELECT 1 FROM moved${suffixOf(index)})`);
  const restored = writes.map((_, index) =>
    closing.has(index) ? `EXISTS (SELECT 1 FROM closed${suffixOf(index)})` : 'false',
  );
  const text = `WITH ${parts.join(',\n')} SELECT ARRAY[${moved.join(', ')}] AS moved, ARRAY[${restored.join(', ')}] AS restored`;
  const result = await sql.query<{ moved: boolean[]; restored: boolean[] }>(
    single ? prepared(text, values) : { text, values },
  );
  const row = result.rows[0];
  return writes.map((_, index) => ({
    moved: row?.moved[index] === true,
    restored: row?.restored[index] === true,
  }));
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
async function writeBatch(pool: TSqlPool, writes: TGuardedWrite[]): Promise<TChangeResult[]> {
  if (!writes.some((write) => write.jobs !== undefined)) return writeMany(pool, writes);
  return inPoolTransaction(pool, async (transaction) => {
    const results = await writeMany(transaction, writes);
    await enqueueFollowUps(transaction, writes, results);
    return results;
  });
}

/** The jobs of the writes that moved, one `enqueueJobs` call per queue (and enqueuer). */
async function enqueueFollowUps(sql: TSql, writes: TGuardedWrite[], results: TChangeResult[]): Promise<void> {
  const groups = new Map<TEnqueueJobs, Map<TJobName, unknown[]>>();
  writes.forEach((write, index) => {
    if (!results[index]?.moved || write.jobs === undefined) return;
    const byName = groups.get(write.jobs.enqueueJobs) ?? new Map<TJobName, unknown[]>();
    groups.set(write.jobs.enqueueJobs, byName);
    for (const job of write.jobs.list) byName.set(job.name, [...(byName.get(job.name) ?? []), job.payload]);
  });
  const executor = jobExecutorOfSql(sql);
  for (const [enqueueJobs, byName] of groups) {
    // Each payload was typed with its name in TFollowUpJob.
    for (const [name, payloads] of byName)
      await enqueueJobs(name, payloads as Array<TJobPayload<typeof name>>, executor);
  }
}

/** The CTEs of one change: `moved${suffix}` (the guarded update), its artifacts and its events. */
function changeParts(change: TDocumentChange, suffix: string, parameter: TParameter): string[] {
  const assignments = assignmentsOf(change.set, COLUMN_TYPES, parameter, 'changeDocument');
  const guard = [
    `id = ${parameter(change.documentId, 'uuid')}`,
    `status = ANY(${parameter(change.from, '"DocumentStatus"[]')})`,
  ];
  if (change.attempts !== undefined) guard.push(`attempts = ${parameter(change.attempts, 'int')}`);
  const moved = `moved${suffix}`;
  const parts = [
    `${moved} AS (UPDATE documents SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE ${guard.join(' AND ')} RETURNING id, tenant_id)`,
  ];
  (change.artifacts ?? []).forEach((artifact, index) => {
    parts.push(
      `artifact${suffix}_${index} AS (INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, created_at)
        SELECT ${parameter(artifact.id, 'uuid')}, ${moved}.tenant_id, ${moved}.id, ${parameter(artifact.kind, '"ArtifactKind"')}, ${parameter(artifact.contentType, 'text')},
          ${parameter(artifact.content, 'bytea')}, ${parameter(artifact.sha256, 'text')}, ${parameter(artifact.sizeBytes, 'int')}, ${parameter(artifact.createdAt ?? new Date(), 'timestamptz')}
        FROM ${moved})`,
    );
  });
  const events = eventsInsert(change.events ?? [], parameter, moved, `events${suffix}`);
  if (events !== undefined) parts.push(events);
  if (change.followUp?.receiverDelivery === true) {
    parts.push(
      `delivery${suffix} AS (INSERT INTO receiver_deliveries (document_id, tenant_id, status, updated_at)
        SELECT ${moved}.id, ${moved}.tenant_id, 'pending', now() FROM ${moved} ON CONFLICT (document_id) DO NOTHING)`,
    );
  }
  return parts;
}

function closeEpisodePart(
  name: string,
  close: { environment: Environment; at: Date },
  parameter: TParameter,
): string {
  const at = parameter(close.at, 'timestamptz');
  return `${name} AS (UPDATE taxauth_episodes SET restored_at = GREATEST(${at}, degraded_since)
    WHERE environment = ${parameter(close.environment, '"Environment"')} AND restored_at IS NULL RETURNING id)`;
}

type TParameter = (value: unknown, type: string) => string;

/** The values of a statement and the function that appends one and returns its typed placeholder. */
function parameters(): { values: unknown[]; parameter: TParameter } {
  const values: unknown[] = [];
  return {
    values,
    parameter: (value, type) => {
      values.push(value);
      return `$${values.length}::${type}`;
    },
  };
}

/** `column = $n::type` for each column set; jsonb values are sent as JSON text, null as SQL NULL. */
function assignmentsOf(
  set: Record<string, unknown>,
  types: Readonly<Record<string, string>>,
  parameter: TParameter,
  caller: string,
): string[] {
  return Object.entries(set).map(([column, value]) => {
    const type = types[column];
    if (type === undefined) throw new TypeError(`${caller}: column ${column} cannot be set`);
    const stored =
      type === 'jsonb' && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null);
    return `${column} = ${parameter(stored, type)}`;
  });
}

/** A CTE `name` inserting `events` for the row of CTE `moved` (`id`, `tenant_id`: the document), in the order given. */
function eventsInsert(
  events: TEventInput[],
  parameter: TParameter,
  moved = 'moved',
  name = 'events',
): string | undefined {
  if (events.length === 0) return undefined;
  const rows = events.map(
    (event, index) =>
      `(${index}, ${parameter(event.type, 'text')}, ${parameter(event.fromStatus ?? null, '"DocumentStatus"')}, ${parameter(event.toStatus ?? null, '"DocumentStatus"')}, ${parameter(JSON.stringify(event.data), 'jsonb')}, ${parameter(event.at, 'timestamptz')})`,
  );
  return `${name} AS (INSERT INTO document_events (document_id, tenant_id, type, from_status, to_status, data, created_at)
    SELECT ${moved}.id, ${moved}.tenant_id, e.type, e.from_status, e.to_status, e.data, e.created_at
    FROM ${moved} CROSS JOIN (VALUES ${rows.join(', ')}) AS e(ord, type, from_status, to_status, data, created_at)
    ORDER BY e.ord)`;
}

/** Columns of `receiver_deliveries` a delivery step sets. */
export type TDeliveryColumns = Partial<{
  status: string;
  attempts: number;
  target_url: string | null;
  next_attempt_at: Date | null;
  last_error: unknown;
}>;
const DELIVERY_COLUMN_TYPES: Record<keyof TDeliveryColumns, string> = {
  status: '"ReceiverDeliveryStatus"',
  attempts: 'int',
  target_url: 'text',
  next_attempt_at: 'timestamptz',
  last_error: 'jsonb',
};

/**
 * A receiver delivery's step as one statement: its row updated only if it is still in the status
 * and attempts count the step read, and then the document's events. True when it moved. Coalesced
 * on the pool like {@link changeDocument}.
 */
export async function changeDelivery(
  sql: TSql,
  change: {
    documentId: string;
    from: { status: string; attempts: number };
    set: TDeliveryColumns;
    events?: TEventInput[];
  },
): Promise<boolean> {
  const { moved } = await applyWrite(sql, {
    key: `delivery:${change.documentId.toLowerCase()}`,
    parts: (suffix, parameter) => {
      const assignments = assignmentsOf(change.set, DELIVERY_COLUMN_TYPES, parameter, 'changeDelivery');
      const moved = `moved${suffix}`;
      const parts = [
        `${moved} AS (UPDATE receiver_deliveries SET ${[...assignments, 'updated_at = now()'].join(', ')}
          WHERE document_id = ${parameter(change.documentId, 'uuid')} AND status = ${parameter(change.from.status, '"ReceiverDeliveryStatus"')} AND attempts = ${parameter(change.from.attempts, 'int')}
          RETURNING document_id AS id, tenant_id)`,
      ];
      const events = eventsInsert(change.events ?? [], parameter, moved, `events${suffix}`);
      if (events !== undefined) parts.push(events);
      return parts;
    },
  });
  return moved;
}
