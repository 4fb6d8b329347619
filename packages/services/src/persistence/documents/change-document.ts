/**
 * Writes to a document: its state changes (the guarded update with its artifacts, events and
 * follow-ups, as ONE statement) and events appended without a change. Every write of the services
 * to `documents`, `document_events` and `artifacts` goes through here.
 */
import type { DocumentStatus, TAnyJobRequest, TEnqueue, TSql } from '@ecf/db';
import { applyWrite, type TGuardedWrite, type TWriteResult } from '../guarded-write.ts';
import {
  artifactsInsert,
  assignmentsOf,
  eventsInsert,
  type TArtifactInput,
  type TEpisodeClose,
  type TEventInput,
  type TParameter,
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
 * `restored`: this statement closed the environment's episode.
 */
export async function changeDocument(sql: TSql, change: TDocumentChange): Promise<TWriteResult> {
  const jobs = change.followUp?.jobs ?? [];
  const write: TGuardedWrite = {
    key: `document:${change.documentId.toLowerCase()}`,
    parts: (suffix, parameter) => changeParts(change, suffix, parameter),
    ...(change.closeEpisode === undefined ? {} : { closeEpisode: change.closeEpisode }),
    ...(change.followUp === undefined || jobs.length === 0
      ? {}
      : { followUp: { jobs, enqueue: change.followUp.enqueue } }),
  };
  return applyWrite(sql, write);
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
  const setList = [...assignments, 'updated_at = now()'].join(', ');
  const parts: string[] = [];
  let eventsWhen: string | undefined;
  if (change.eventsUnlessLastErrorCode === undefined) {
    parts.push(
      `${moved} AS (UPDATE documents SET ${setList} WHERE ${guard.join(' AND ')} RETURNING id, tenant_id)`,
    );
  } else {
    // The code before the update, read under the row's lock in the same statement.
    const before = `before${suffix}`;
    parts.push(
      `${moved} AS (UPDATE documents SET ${setList}
        FROM (SELECT id AS locked_id, last_error->>'code' AS previous_code FROM documents WHERE id = ${parameter(change.documentId, 'uuid')} FOR UPDATE) ${before}
        WHERE id = ${before}.locked_id AND ${guard.join(' AND ')} RETURNING id, tenant_id, ${before}.previous_code)`,
    );
    eventsWhen = `${moved}.previous_code IS DISTINCT FROM ${parameter(change.eventsUnlessLastErrorCode, 'text')}`;
  }
  parts.push(...artifactsInsert(change.artifacts ?? [], parameter, moved, `artifact${suffix}`));
  const events = eventsInsert(change.events ?? [], parameter, moved, `events${suffix}`, eventsWhen);
  if (events !== undefined) parts.push(events);
  if (change.followUp?.receiverDelivery === true) {
    parts.push(
      `delivery${suffix} AS (INSERT INTO receiver_deliveries (document_id, tenant_id, status, updated_at)
        SELECT ${moved}.id, ${moved}.tenant_id, 'pending', now() FROM ${moved} ON CONFLICT (document_id) DO NOTHING)`,
    );
  }
  return parts;
}

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
