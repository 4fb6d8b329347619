/**
 * What transmission writes: guarded state changes with their events (one transaction each), the
 * tax authority's answers as write-once artifacts, outage episodes per environment and operator
 * notifications. Every state change is `UPDATE ... WHERE status IN (...)`: a run that lost a race
 * changes nothing and says so.
 */
import { randomUUID } from 'node:crypto';
import type { Prisma } from '@ecf/db';
import {
  coalescerPerKey,
  createCoalescer,
  isSqlPool,
  prepared,
  sqlPoolOf,
  type DocumentStatus,
  type Environment,
  type TDatabase,
  type TSql,
  type TSqlPool,
} from '@ecf/db';
import type { TTaxauthMessage } from '@ecf/taxauth-client';
import {
  artifactInput,
  changeDocument,
  type TArtifactInput,
  type TDocumentChange,
} from './document-writes.ts';
import {
  CONTINGENCY_OPERATOR_NOTIFICATION_KIND,
  OPERATOR_NOTIFICATION_AFTER_MS,
  type TTransmissionError,
} from './transmission-rules.ts';

type TTransaction = Prisma.TransactionClient;
type TJson = Prisma.InputJsonValue;

/** Event types transmission appends to a document's log (besides the target status of each change). */
export const TRANSMISSION_EVENT_TYPES = {
  /** Written and committed before a send leaves: `{ attempt, channel, at }`. */
  ATTEMPT: 'transmission_attempt',
  /** The outcome of an attempt: `{ attempt, outcome, ... }`; an attempt without one is "unknown". */
  OUTCOME: 'transmission_outcome',
  /** A result query failed in a way worth keeping (definite); transient ones are only logged. */
  POLL_FAILED: 'status_poll_failed',
  /** The 72-hour operator notification of this document was recorded. */
  OPERATOR_NOTIFIED: 'operator_notified',
} as const;

/** Outcomes recorded for an attempt. `unknown` means: ask the tax authority before sending again. */
export type TAttemptOutcome =
  'received' | 'accepted' | 'accepted_conditional' | 'rejected' | 'failed' | 'not_received' | 'unknown';

export type TDocumentRef = { id: string; tenantId: string };

export async function appendEvent(
  transaction: TTransaction,
  document: TDocumentRef,
  event: {
    type: string;
    fromStatus?: DocumentStatus;
    toStatus?: DocumentStatus;
    data: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await transaction.documentEvent.create({
    data: {
      documentId: document.id,
      tenantId: document.tenantId,
      type: event.type,
      fromStatus: event.fromStatus ?? null,
      toStatus: event.toStatus ?? null,
      data: event.data as TJson,
      createdAt: event.at,
    },
  });
}

/** The last attempt of a document when it has no outcome yet, or its outcome was `unknown`. */
export async function findUnresolvedAttempt(
  database: TDatabase,
  documentId: string,
): Promise<{ attempt: number; at: Date; channel: string } | undefined> {
  const { rows: events } = await sqlPoolOf(database).query<{
    type: string;
    data: Record<string, unknown> | null;
    created_at: Date;
  }>(
    prepared(
      `SELECT type, data, created_at FROM document_events WHERE document_id = $1::uuid AND type = ANY($2::text[]) ORDER BY id DESC LIMIT 2`,
      [documentId, [TRANSMISSION_EVENT_TYPES.ATTEMPT, TRANSMISSION_EVENT_TYPES.OUTCOME]],
    ),
  );
  const last = events[0];
  if (last === undefined) return undefined;
  const data = (last.data ?? {}) as { attempt?: number; channel?: string; outcome?: string; at?: string };
  if (last.type === TRANSMISSION_EVENT_TYPES.OUTCOME && data.outcome !== 'unknown') return undefined;
  const attemptEvent = last.type === TRANSMISSION_EVENT_TYPES.ATTEMPT ? last : events[1];
  const attemptData = (attemptEvent?.data ?? {}) as { attempt?: number; channel?: string; at?: string };
  const at =
    attemptData.at === undefined ? (attemptEvent?.created_at ?? last.created_at) : new Date(attemptData.at);
  return {
    attempt: attemptData.attempt ?? data.attempt ?? 0,
    at,
    channel: attemptData.channel ?? data.channel ?? 'ecf',
  };
}

/** An answer of the tax authority as write-once evidence, for {@link changeDocument}. */
export function taxauthAnswerArtifact(document: TDocumentRef, answer: unknown, at: Date): TArtifactInput {
  return artifactInput({
    tenantId: document.tenantId,
    documentId: document.id,
    kind: 'taxauth_response',
    contentType: 'application/json',
    content: JSON.stringify(answer),
    createdAt: at,
  });
}

/**
 * Opens the environment's outage episode unless one is open (partial unique index: concurrent
 * workers open it once). True when this call opened it.
 */
export async function openEpisode(
  sql: TSql,
  environment: Environment,
  code: string,
  at: Date,
): Promise<boolean> {
  const inserted = await sql.query(
    `INSERT INTO taxauth_episodes (id, environment, code, degraded_since, created_at)
     VALUES ($1::uuid, $2::"Environment", $3, $4, $4)
     ON CONFLICT (environment) WHERE restored_at IS NULL DO NOTHING`,
    [randomUUID(), environment, code, at],
  );
  return (inserted.rowCount ?? 0) > 0;
}

/**
 * Closes the environment's open episode (the tax authority answered). True when this call closed
 * one. On the pool, concurrent calls are coalesced: one statement per environment, at the earliest
 * time given, whose closing is reported to the first of them.
 */
export async function closeEpisode(sql: TSql, environment: Environment, at: Date): Promise<boolean> {
  if (isSqlPool(sql)) return coalescedCloses(sql)({ environment, at });
  return closeOne(sql, environment, at);
}

async function closeOne(sql: TSql, environment: Environment, at: Date): Promise<boolean> {
  const updated = await sql.query(
    prepared(
      `UPDATE taxauth_episodes SET restored_at = GREATEST($1::timestamptz, degraded_since) WHERE environment = $2::"Environment" AND restored_at IS NULL`,
      [at, environment],
    ),
  );
  return (updated.rowCount ?? 0) > 0;
}

const coalescedCloses = coalescerPerKey((pool: TSqlPool) =>
  createCoalescer<{ environment: Environment; at: Date }, boolean>(async (closes) => {
    const results: Array<PromiseSettledResult<boolean>> = closes.map(() => ({
      status: 'fulfilled',
      value: false,
    }));
    for (const environment of new Set(closes.map((close) => close.environment))) {
      const indexes = closes.flatMap((close, index) => (close.environment === environment ? [index] : []));
      const at = new Date(Math.min(...indexes.map((index) => (closes[index] as { at: Date }).at.getTime())));
      const [first] = indexes;
      try {
        if (first !== undefined)
          results[first] = { status: 'fulfilled', value: await closeOne(pool, environment, at) };
      } catch (error) {
        for (const index of indexes) results[index] = { status: 'rejected', reason: error };
      }
    }
    return results;
  }),
);

/** A notification for an operator, as given to `notifyOperator`. */
export type TOperatorNotification = {
  id: string;
  kind: string;
  tenantId: string | null;
  documentId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
};

/**
 * Records (once per kind and document) and sends the 72-hour notification of a document that has
 * not reached the tax authority. "Sent" is `notifyOperator` returning; a crash between recording and
 * sending leaves `sentAt` null and the next failure sends it again (at least once).
 */
export async function notifyIfContingencyTooLong(
  database: TDatabase,
  document: TDocumentRef & { encf: string; environment: Environment; attempts: number },
  contingencySince: Date,
  now: Date,
  notifyOperator: ((notification: TOperatorNotification) => void | Promise<void>) | undefined,
): Promise<TOperatorNotification | undefined> {
  if (now.getTime() - contingencySince.getTime() < OPERATOR_NOTIFICATION_AFTER_MS) return undefined;
  const kind = CONTINGENCY_OPERATOR_NOTIFICATION_KIND;
  const data = {
    encf: document.encf,
    environment: document.environment,
    contingencySince: contingencySince.toISOString(),
    hoursWithoutTaxauth: Math.floor((now.getTime() - contingencySince.getTime()) / 3600_000),
    attempts: document.attempts,
    message: `e-CF ${document.encf} (${document.environment}) has not reached the tax authority for 72 hours; retries continue.`,
  };
  await database.$transaction(async (transaction) => {
    const inserted = await transaction.$executeRaw`
      INSERT INTO operator_notifications (id, kind, tenant_id, document_id, data, created_at)
      VALUES (${randomUUID()}::uuid, ${kind}, ${document.tenantId}::uuid, ${document.id}::uuid, ${JSON.stringify(data)}::jsonb, ${now})
      ON CONFLICT (kind, document_id) DO NOTHING`;
    if (inserted > 0) {
      await appendEvent(transaction, document, {
        type: TRANSMISSION_EVENT_TYPES.OPERATOR_NOTIFIED,
        data: { kind, ...data },
        at: now,
      });
    }
  });
  const pending = await database.operatorNotification.findFirst({
    where: { kind, documentId: document.id, sentAt: null },
  });
  if (pending === null) return undefined;
  const notification: TOperatorNotification = {
    id: pending.id,
    kind: pending.kind,
    tenantId: pending.tenantId,
    documentId: pending.documentId,
    data: (pending.data ?? {}) as Record<string, unknown>,
    createdAt: pending.createdAt,
  };
  await notifyOperator?.(notification);
  const marked = await database.operatorNotification.updateMany({
    where: { id: pending.id, sentAt: null },
    data: { sentAt: now },
  });
  return marked.count > 0 ? notification : undefined;
}

/**
 * A final answer of the tax authority applied to the document (from `from` statuses only), with
 * the answer stored and the events appended: one statement on `sql` (the pool, or the caller's
 * transaction when jobs must commit with it). True when this call moved the document.
 */
export async function applyFinalAnswer(
  sql: TSql,
  document: TDocumentRef & { status: DocumentStatus },
  input: {
    from: DocumentStatus[];
    status: 'accepted' | 'accepted_conditional' | 'rejected';
    messages: TTaxauthMessage[];
    lastError: TTransmissionError | null;
    answer: unknown;
    trackId?: string;
    outcomeEvent?: { attempt: number; channel: string; resolvedBy?: string };
    at: Date;
    /** Next steps committed with the answer (see `TDocumentChange.followUp`). */
    followUp?: TDocumentChange['followUp'];
  },
): Promise<boolean> {
  const artifact = taxauthAnswerArtifact(document, input.answer, input.at);
  const { moved } = await changeDocument(sql, {
    ...(input.followUp === undefined ? {} : { followUp: input.followUp }),
    documentId: document.id,
    from: input.from,
    set: {
      status: input.status,
      ...(input.trackId === undefined ? {} : { track_id: input.trackId }),
      last_error: input.lastError,
      taxauth_messages: input.messages,
      contingency_since: null,
    },
    artifacts: [artifact],
    events: [
      ...(input.outcomeEvent === undefined
        ? []
        : [
            {
              type: TRANSMISSION_EVENT_TYPES.OUTCOME,
              data: {
                ...input.outcomeEvent,
                outcome: input.status,
                at: input.at.toISOString(),
                artifactId: artifact.id,
              },
              at: input.at,
            },
          ]),
      {
        type: input.status,
        fromStatus: document.status,
        toStatus: input.status,
        data: {
          ...(input.trackId === undefined ? {} : { trackId: input.trackId }),
          taxauthMessages: input.messages,
          artifactId: artifact.id,
          ...(input.lastError === null ? {} : { code: input.lastError.code }),
        },
        at: input.at,
      },
    ],
  });
  return moved;
}

/** A definite failure applied to the document: `rejected` or `transmission_failed`, not retried. */
export async function applyDefiniteFailure(
  database: TDatabase,
  document: TDocumentRef & { status: DocumentStatus },
  input: {
    from: DocumentStatus[];
    status: 'rejected' | 'transmission_failed';
    lastError: TTransmissionError;
    outcomeEvent?: { attempt: number; channel: string };
    at: Date;
  },
): Promise<boolean> {
  return database.$transaction(async (transaction) => {
    const moved = await transaction.document.updateMany({
      where: { id: document.id, status: { in: input.from } },
      data: {
        status: input.status,
        lastError: input.lastError,
        ...(input.lastError.taxauthMessages === undefined
          ? {}
          : { taxauthMessages: input.lastError.taxauthMessages }),
        contingencySince: null,
      },
    });
    if (moved.count === 0) return false;
    if (input.outcomeEvent !== undefined) {
      await appendEvent(transaction, document, {
        type: TRANSMISSION_EVENT_TYPES.OUTCOME,
        data: {
          ...input.outcomeEvent,
          outcome: input.status === 'rejected' ? 'rejected' : 'failed',
          code: input.lastError.code,
          reason: input.lastError.reason ?? null,
          at: input.at.toISOString(),
        },
        at: input.at,
      });
    }
    await appendEvent(transaction, document, {
      type: input.status,
      fromStatus: document.status,
      toStatus: input.status,
      data: { lastError: input.lastError },
      at: input.at,
    });
    return true;
  });
}
