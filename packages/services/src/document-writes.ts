/**
 * A document's state change as ONE SQL statement: the guarded update, and only when it matched,
 * the artifacts and events that go with it, plus (whatever the guard) the close of the
 * environment's outage episode. One round trip and atomic on its own, where the same change through
 * Prisma took an interactive transaction of four to six queries (about 1 ms of CPU each): this is
 * the worker's hot path (apps/worker/README.md, "Throughput").
 */
import { randomUUID } from 'node:crypto';
import { artifactData, prepared, type DocumentStatus, type Environment, type TSql } from '@ecf/db';

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
export type TEventInput = { type: string; fromStatus?: DocumentStatus | null; toStatus?: DocumentStatus | null; data: Record<string, unknown>; at: Date };

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
};

/**
 * Applies `change` in one statement. `moved`: the guard matched and everything was written;
 * `restored`: this statement closed the environment's episode.
 */
export async function changeDocument(sql: TSql, change: TDocumentChange): Promise<{ moved: boolean; restored: boolean }> {
  const { values, parameter } = parameters();
  const assignments = assignmentsOf(change.set, COLUMN_TYPES, parameter, 'changeDocument');
  const guard = [`id = ${parameter(change.documentId, 'uuid')}`, `status = ANY(${parameter(change.from, '"DocumentStatus"[]')})`];
  if (change.attempts !== undefined) guard.push(`attempts = ${parameter(change.attempts, 'int')}`);
  const parts = [`moved AS (UPDATE documents SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE ${guard.join(' AND ')} RETURNING id, tenant_id)`];

  (change.artifacts ?? []).forEach((artifact, index) => {
    parts.push(
      `artifact_${index} AS (INSERT INTO artifacts (id, tenant_id, document_id, kind, content_type, content, sha256, size_bytes, created_at)
        SELECT ${parameter(artifact.id, 'uuid')}, moved.tenant_id, moved.id, ${parameter(artifact.kind, '"ArtifactKind"')}, ${parameter(artifact.contentType, 'text')},
          ${parameter(artifact.content, 'bytea')}, ${parameter(artifact.sha256, 'text')}, ${parameter(artifact.sizeBytes, 'int')}, ${parameter(artifact.createdAt ?? new Date(), 'timestamptz')}
        FROM moved)`,
    );
  });

  const events = eventsInsert(change.events ?? [], parameter);
  if (events !== undefined) parts.push(events);

  if (change.closeEpisode !== undefined) {
    const at = parameter(change.closeEpisode.at, 'timestamptz');
    parts.push(
      `closed AS (UPDATE taxauth_episodes SET restored_at = GREATEST(${at}, degraded_since)
        WHERE environment = ${parameter(change.closeEpisode.environment, '"Environment"')} AND restored_at IS NULL RETURNING id)`,
    );
  }
  const restored = change.closeEpisode === undefined ? 'false' : 'EXISTS (SELECT 1 FROM closed)';
  const result = await sql.query<{ moved: boolean; restored: boolean }>(
    prepared(
      `WITH ${parts.join(',\n')} SELECT EXISTS (SELECT 1 FROM moved) AS moved, ${restored} AS restored`,
      values,
    ),
  );
  const row = result.rows[0];
  return { moved: row?.moved === true, restored: row?.restored === true };
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
function assignmentsOf(set: Record<string, unknown>, types: Readonly<Record<string, string>>, parameter: TParameter, caller: string): string[] {
  return Object.entries(set).map(([column, value]) => {
    const type = types[column];
    if (type === undefined) throw new TypeError(`${caller}: column ${column} cannot be set`);
    const stored = type === 'jsonb' && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null);
    return `${column} = ${parameter(stored, type)}`;
  });
}

/** A CTE inserting `events` for the row of CTE `moved` (`id`, `tenant_id`: the document), in the order given. */
function eventsInsert(events: TEventInput[], parameter: TParameter): string | undefined {
  if (events.length === 0) return undefined;
  const rows = events.map(
    (event, index) =>
      `(${index}, ${parameter(event.type, 'text')}, ${parameter(event.fromStatus ?? null, '"DocumentStatus"')}, ${parameter(event.toStatus ?? null, '"DocumentStatus"')}, ${parameter(JSON.stringify(event.data), 'jsonb')}, ${parameter(event.at, 'timestamptz')})`,
  );
  return `events AS (INSERT INTO document_events (document_id, tenant_id, type, from_status, to_status, data, created_at)
    SELECT moved.id, moved.tenant_id, e.type, e.from_status, e.to_status, e.data, e.created_at
    FROM moved CROSS JOIN (VALUES ${rows.join(', ')}) AS e(ord, type, from_status, to_status, data, created_at)
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
 * and attempts count the step read, and then the document's events. True when it moved.
 */
export async function changeDelivery(
  sql: TSql,
  change: { documentId: string; from: { status: string; attempts: number }; set: TDeliveryColumns; events?: TEventInput[] },
): Promise<boolean> {
  const { values, parameter } = parameters();
  const assignments = assignmentsOf(change.set, DELIVERY_COLUMN_TYPES, parameter, 'changeDelivery');
  const parts = [
    `moved AS (UPDATE receiver_deliveries SET ${[...assignments, 'updated_at = now()'].join(', ')}
      WHERE document_id = ${parameter(change.documentId, 'uuid')} AND status = ${parameter(change.from.status, '"ReceiverDeliveryStatus"')} AND attempts = ${parameter(change.from.attempts, 'int')}
      RETURNING document_id AS id, tenant_id)`,
  ];
  const events = eventsInsert(change.events ?? [], parameter);
  if (events !== undefined) parts.push(events);
  const result = await sql.query<{ moved: boolean }>(prepared(`WITH ${parts.join(',\n')} SELECT EXISTS (SELECT 1 FROM moved) AS moved`, values));
  return result.rows[0]?.moved === true;
}
