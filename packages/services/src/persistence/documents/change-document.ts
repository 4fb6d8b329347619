/**
 * Writes to a document: its state changes (the guarded update with its artifacts, events and
 * follow-ups, as ONE fixed statement for any number of documents) and events appended without a
 * change. Every write of the services to `documents`, `document_events` and `artifacts` goes
 * through here.
 */
import { prepared, type DocumentStatus, type TAnyJobRequest, type TEnqueue, type TSql } from '@ecf/db';
import { applyWrite, groupCommitted } from '../guarded-write.ts';
import {
  eventsInsert,
  latestClosePerEpisode,
  type TArtifactInput,
  type TEpisodeClose,
  type TEventInput,
} from '../statements.ts';

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

export type TDocumentChange = {
  documentId: string;
  /** The guard: the change applies only from these statuses... */
  from: DocumentStatus[];
  /** ...and, when given, with this exact attempts count (a transmission claim). */
  attempts?: number;
  set: TDocumentColumns;
  artifacts?: TArtifactInput[];
  events?: TEventInput[];
  /**
   * The events are written only when the document's `lastError.code` before this change was not
   * this one (a retry that meets the same problem again adds nothing to the log). The row is
   * locked for the comparison, so two runs never both see the old code.
   */
  eventsUnlessLastErrorCode?: string;
  /** Closes the environment's open outage episode in the same statement, whether or not the guard matched. */
  closeEpisode?: TEpisodeClose;
  /**
   * The next steps, committed with the change and only when its guard matched: a `pending` receiver
   * delivery row (in the same statement), and jobs enqueued on the same transaction (the caller's,
   * or on the pool one shared by the batch, one insert per queue).
   */
  followUp?: { receiverDelivery?: boolean; jobs?: TAnyJobRequest[]; enqueue: TEnqueue };
};

/**
 * Applies `change` in one statement. `moved`: the guard matched and everything was written;
 * `restored`: this statement closed the environment's episode. On the pool, the changes of
 * concurrent callers go as one statement (each guarded on its own; a document changed twice never
 * shares a statement); on a connection, alone, in the caller's transaction.
 */
export async function changeDocument(sql: TSql, change: TDocumentChange): Promise<TWriteResult> {
  for (const column of Object.keys(change.set))
    if (!(column in COLUMN_TYPES)) throw new TypeError(`changeDocument: column ${column} cannot be set`);
  return groupCommittedChange(sql, change);
}

/**
 * `moved`: the guard matched and everything was written; `restored`: this statement closed the
 * environment's outage episode.
 */
export type TWriteResult = { moved: boolean; restored: boolean };

/** The settable columns in a fixed order: bit `i` of a change's mask says it sets column `i`. */
const COLUMNS = Object.keys(COLUMN_TYPES) as Array<keyof typeof COLUMN_TYPES>;

/**
 * Every change, whatever it sets and however many of them arrive together, is this ONE statement
 * over arrays: prepared once per connection and planned once. (Written as one CTE per change, each
 * batch had its own text, 96 of them in a benchmark run, each planned again at 16 ms a call.)
 * - `input`: a row per change; `mask` says which columns it sets, `from_list` is its status guard
 *   (an array literal), `guard_attempts` its attempts guard (NULL: none), `unless_code` the
 *   `eventsUnlessLastErrorCode` (NULL: events always).
 * - `before`: the previous error code of the changes that compare it, read under the row's lock
 *   (taken in id order), so two runs never both see the old code.
 * - `moved`: the guarded update; only its rows get artifacts, events (in the order given) and the
 *   receiver-delivery row.
 * - `closed`: the episodes closed by this statement, whether or not the guards matched.
 * `d.id = ANY($2)` lets the primary key drive the scans of `documents` whatever the plan of the
 * join (a plan made while the table was small stays cached on the connection).
 */
const CHANGE_DOCUMENTS = `
  WITH input AS (
    SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::int[], $5::int[], $6::text[], $7::boolean[],
      $8::"DocumentStatus"[], $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::jsonb[], $14::jsonb[],
      $15::timestamptz[], $16::int[], $17::timestamptz[])
      AS c(ord, id, from_list, guard_attempts, mask, unless_code, receiver_delivery,
        status, track_id, security_code, qr_url, signature_date, last_error, taxauth_messages,
        contingency_since, attempts, last_deferred_at)
  ), before AS (
    SELECT d.id, d.last_error->>'code' AS previous_code FROM documents d
    WHERE d.id = ANY($2::uuid[]) AND d.id IN (SELECT id FROM input WHERE unless_code IS NOT NULL)
    ORDER BY d.id FOR UPDATE
  ), moved AS (
    UPDATE documents d SET
      ${COLUMNS.map((column, bit) => `${column} = CASE WHEN c.mask & ${1 << bit} <> 0 THEN c.${column} ELSE d.${column} END`).join(',\n      ')},
      updated_at = now()
    FROM input c LEFT JOIN before b ON b.id = c.id
    WHERE d.id = ANY($2::uuid[]) AND d.id = c.id AND d.status = ANY(c.from_list::"DocumentStatus"[])
      AND (c.guard_attempts IS NULL OR d.attempts = c.guard_attempts)
    RETURNING c.ord, d.id, d.tenant_id, c.receiver_delivery,
      (c.unless_code IS NULL OR b.previous_code IS DISTINCT FROM c.unless_code) AS log_events
  ), artifact AS (
    INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, created_at)
    SELECT a.id, m.tenant_id, m.id, a.kind, a.content_type, a.content, a.sha256, a.size_bytes, a.created_at
    FROM unnest($18::int[], $19::uuid[], $20::"ArtifactKind"[], $21::text[], $22::bytea[], $23::text[], $24::int[], $25::timestamptz[])
      AS a(change, id, kind, content_type, content, sha256, size_bytes, created_at)
    JOIN moved m ON m.ord = a.change
  ), events AS (
    INSERT INTO document_events (document_id, tenant_id, type, from_status, to_status, data, created_at)
    SELECT m.id, m.tenant_id, e.type, e.from_status, e.to_status, e.data, e.created_at
    FROM unnest($26::int[], $27::text[], $28::"DocumentStatus"[], $29::"DocumentStatus"[], $30::jsonb[], $31::timestamptz[])
      WITH ORDINALITY AS e(change, type, from_status, to_status, data, created_at, position)
    JOIN moved m ON m.ord = e.change
    WHERE m.log_events
    ORDER BY e.position
  ), delivery AS (
    INSERT INTO receiver_deliveries (document_id, tenant_id, status, updated_at)
    SELECT m.id, m.tenant_id, 'pending', now() FROM moved m WHERE m.receiver_delivery
    ON CONFLICT (document_id) DO NOTHING
  ), closed AS (
    UPDATE taxauth_episodes e SET restored_at = GREATEST(x.at, e.degraded_since)
    FROM unnest($32::int[], $33::"Environment"[], $34::text[], $35::timestamptz[], $36::timestamptz[])
      AS x(change, environment, service, requested_at, at)
    WHERE e.environment = x.environment AND e.service = x.service
      AND e.restored_at IS NULL AND e.degraded_since <= x.requested_at
    RETURNING x.change
  )
  SELECT ARRAY(SELECT ord FROM moved) AS moved, ARRAY(SELECT change FROM closed) AS restored`;

/** A column's value as the statement's array takes it: jsonb as JSON text, unset and null as NULL. */
function columnValue(column: keyof typeof COLUMN_TYPES, set: TDocumentColumns): unknown {
  const value = set[column];
  if (value === undefined || value === null) return null;
  return COLUMN_TYPES[column] === 'jsonb' ? JSON.stringify(value) : value;
}

/** The statement's 36 array parameters for `changes` (ordinals are their indexes). */
function changeParameters(changes: readonly TDocumentChange[]): unknown[] {
  const order = changes.map((_, index) => index);
  // Rows are locked in the order the update meets them: id order keeps two batches from crossing.
  order.sort((a, b) => ((changes[a]?.documentId ?? '') < (changes[b]?.documentId ?? '') ? -1 : 1));
  const columns = (pick: (change: TDocumentChange, ord: number) => unknown) =>
    order.map((ord) => pick(changes[ord] as TDocumentChange, ord));
  const artifacts = changes.flatMap((change, ord) =>
    (change.artifacts ?? []).map((artifact) => ({ ord, artifact })),
  );
  const events = changes.flatMap((change, ord) => (change.events ?? []).map((event) => ({ ord, event })));
  // An episode is closed once per statement, with the latest request; `restored` goes to that change.
  const closers = [...latestClosePerEpisode(changes.map((change) => change.closeEpisode)).keys()].map(
    (ord) => [ord, changes[ord]?.closeEpisode as TEpisodeClose] as const,
  );
  return [
    columns((_, ord) => ord),
    columns((change) => change.documentId),
    columns((change) => `{${change.from.join(',')}}`),
    columns((change) => change.attempts ?? null),
    columns((change) =>
      COLUMNS.reduce((mask, column, bit) => (column in change.set ? mask | (1 << bit) : mask), 0),
    ),
    columns((change) => change.eventsUnlessLastErrorCode ?? null),
    columns((change) => change.followUp?.receiverDelivery === true),
    ...COLUMNS.map((column) => columns((change) => columnValue(column, change.set))),
    artifacts.map(({ ord }) => ord),
    artifacts.map(({ artifact }) => artifact.id),
    artifacts.map(({ artifact }) => artifact.kind),
    artifacts.map(({ artifact }) => artifact.contentType),
    artifacts.map(({ artifact }) => artifact.content),
    artifacts.map(({ artifact }) => artifact.sha256),
    artifacts.map(({ artifact }) => artifact.sizeBytes),
    artifacts.map(({ artifact }) => artifact.createdAt ?? new Date()),
    events.map(({ ord }) => ord),
    events.map(({ event }) => event.type),
    events.map(({ event }) => event.fromStatus ?? null),
    events.map(({ event }) => event.toStatus ?? null),
    events.map(({ event }) => JSON.stringify(event.data)),
    events.map(({ event }) => event.at),
    closers.map(([ord]) => ord),
    closers.map(([, close]) => close.environment),
    closers.map(([, close]) => close.service),
    closers.map(([, close]) => close.requestedAt),
    closers.map(([, close]) => close.at),
  ];
}

/** Changes of distinct documents as the one statement. */
async function changeMany(sql: TSql, changes: readonly TDocumentChange[]): Promise<TWriteResult[]> {
  const { rows } = await sql.query<{ moved: number[]; restored: number[] }>(
    prepared(CHANGE_DOCUMENTS, changeParameters(changes)),
  );
  const moved = new Set(rows[0]?.moved ?? []);
  const restored = new Set(rows[0]?.restored ?? []);
  return changes.map((_, ord) => ({ moved: moved.has(ord), restored: restored.has(ord) }));
}

const groupCommittedChange = groupCommitted({
  writeMany: changeMany,
  keyOf: (change: TDocumentChange) => change.documentId.toLowerCase(),
  followUpOf: (change) =>
    change.followUp === undefined
      ? undefined
      : { jobs: change.followUp.jobs ?? [], enqueue: change.followUp.enqueue },
});

/**
 * Appends events to a document's log without changing the document (outcomes that move nothing:
 * an RFCE answer still pending, a failed result query, a buyer e-mail attempt, a sweep). True when
 * the document exists. Coalesced like {@link changeDocument}; on a connection, in its transaction.
 */
export async function appendDocumentEvents(
  sql: TSql,
  input: { documentId: string; events: TEventInput[] },
): Promise<boolean> {
  const { moved } = await applyWrite(sql, {
    key: `document:${input.documentId.toLowerCase()}`,
    parts: (suffix, parameter) => {
      const target = `moved${suffix}`;
      const parts = [
        `${target} AS (SELECT id, tenant_id FROM documents WHERE id = ${parameter(input.documentId, 'uuid')})`,
      ];
      const events = eventsInsert(input.events, parameter, target, `events${suffix}`);
      if (events !== undefined) parts.push(events);
      return parts;
    },
  });
  return moved;
}
