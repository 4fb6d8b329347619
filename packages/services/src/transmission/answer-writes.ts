/**
 * How the tax authority's answers change a document: each a guarded change of one statement
 * (`changeDocument`) from the statuses it may apply to, with the answer kept as write-once
 * evidence and the events appended. A run that lost a race changes nothing and says so.
 */
import { sqlPoolOf, type DocumentStatus, type TDatabase, type TEnqueue, type TSql } from '@ecf/db';
import type { TTaxauthMessage } from '@ecf/taxauth-client';
import {
  appendDocumentEvents,
  artifactInput,
  changeDocument,
  type TArtifactInput,
  type TDocumentChange,
  type TDocumentState,
  type TTransmissionDocument,
} from '../persistence/index.ts';
import { acceptanceFollowUp } from './acceptance-follow-ups.ts';
import { TRANSMISSION_EVENT_TYPES, type TAttemptOutcome } from './transmission-events.ts';
import {
  RFCE_UNSETTLED_RETRY_SECONDS,
  TRANSMITTABLE,
  withEpisode,
  type TTransmissionReport,
} from './transmission-options.ts';
import { rejectionErrorOf, type TTransmissionError } from './transmission-rules.ts';

type TDocumentRef = { id: string; tenantId: string };

/** First result query this long after the trackId (the tax authority validates in ~200 ms). */
const FIRST_POLL_SECONDS = 1;

/** An answer of the tax authority as write-once evidence, for `changeDocument`. */
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
 * A final answer of the tax authority applied to the document (from `from` statuses only), with
 * the answer stored, the events appended and the follow-ups enqueued: one statement on `sql` (the
 * pool, or the caller's transaction). True when this call moved the document.
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
    /** Next steps committed with the answer (see `acceptanceFollowUp`). */
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
  const { moved } = await changeDocument(sqlPoolOf(database), {
    documentId: document.id,
    from: input.from,
    set: {
      status: input.status,
      last_error: input.lastError,
      ...(input.lastError.taxauthMessages === undefined
        ? {}
        : { taxauth_messages: input.lastError.taxauthMessages }),
      contingency_since: null,
    },
    events: [
      ...(input.outcomeEvent === undefined
        ? []
        : [
            {
              type: TRANSMISSION_EVENT_TYPES.OUTCOME,
              data: {
                ...input.outcomeEvent,
                outcome: input.status === 'rejected' ? 'rejected' : 'failed',
                code: input.lastError.code,
                reason: input.lastError.reason ?? null,
                at: input.at.toISOString(),
              },
              at: input.at,
            },
          ]),
      {
        type: input.status,
        fromStatus: document.status,
        toStatus: input.status,
        data: { lastError: input.lastError },
        at: input.at,
      },
    ],
  });
  return moved;
}

/**
 * The tax authority has the document under `trackId`: `sent`, error cleared, the answer kept,
 * polling starts. `closeEpisode`: this was a reception that just answered (not a ConsultaTrackIds
 * finding an earlier one), the evidence that closes the environment's episode, in the same statement.
 */
export async function markSent(
  sql: TSql,
  document: TDocumentState,
  reception: {
    trackId: string;
    /** The answer kept as evidence. */
    answer: unknown;
    outcomeEvent: { attempt: number; channel: string; resolvedBy?: string };
    at: Date;
    /** The reception's request left at this time (see `TEpisodeClose`). */
    closeEpisode?: { requestedAt: Date };
  },
): Promise<TTransmissionReport> {
  const { trackId, answer, outcomeEvent, at } = reception;
  const artifact = taxauthAnswerArtifact(document, answer, at);
  const { moved, restored } = await changeDocument(sql, {
    documentId: document.id,
    from: TRANSMITTABLE,
    set: { status: 'sent', track_id: trackId, last_error: null, contingency_since: null },
    artifacts: [artifact],
    events: [
      {
        type: TRANSMISSION_EVENT_TYPES.OUTCOME,
        data: {
          ...outcomeEvent,
          outcome: 'received',
          trackId,
          artifactId: artifact.id,
          at: at.toISOString(),
        },
        at,
      },
      {
        type: 'sent',
        fromStatus: document.status,
        toStatus: 'sent',
        data: { trackId, attempt: outcomeEvent.attempt },
        at,
      },
    ],
    ...(reception.closeEpisode === undefined
      ? {}
      : {
          closeEpisode: {
            environment: document.environment,
            service: 'recepcion' as const,
            requestedAt: reception.closeEpisode.requestedAt,
            at,
          },
        }),
  });
  const report: TTransmissionReport = moved
    ? { documentId: document.id, next: 'poll', afterSeconds: FIRST_POLL_SECONDS, outcome: 'sent' }
    : { documentId: document.id, next: 'done', status: document.status, outcome: 'moved_elsewhere' };
  return withEpisode(report, restored ? 'restored' : undefined);
}

/** An attempt's outcome that moves nothing (an RFCE answer that is not final yet). */
export async function recordAttemptOutcome(
  database: TDatabase,
  document: TDocumentRef,
  data: { attempt: number; channel: string; outcome: TAttemptOutcome; [key: string]: unknown },
  at: Date,
): Promise<void> {
  await appendDocumentEvents(sqlPoolOf(database), {
    documentId: document.id,
    events: [{ type: TRANSMISSION_EVENT_TYPES.OUTCOME, data: { ...data, at: at.toISOString() }, at }],
  });
}

/** The final statuses of a tax authority verdict. */
export type TFinalStatus = 'accepted' | 'accepted_conditional' | 'rejected';

export function isFinalVerdict(status: string): status is TFinalStatus {
  return status === 'accepted' || status === 'accepted_conditional' || status === 'rejected';
}

/**
 * The final verdict on an RFCE summary (its synchronous answer, or Consulta Estado asked about it)
 * applied from a transmittable status, with the acceptance's follow-ups: the step is done.
 */
export async function applyRfceVerdict(
  database: TDatabase,
  document: TTransmissionDocument,
  verdict: {
    status: TFinalStatus;
    messages: TTaxauthMessage[];
    answer: unknown;
    outcomeEvent: { attempt: number; channel: string; resolvedBy?: string };
    enqueue: TEnqueue | undefined;
    at: Date;
  },
  episode: 'restored' | undefined,
): Promise<TTransmissionReport> {
  await applyFinalAnswer(sqlPoolOf(database), document, {
    from: TRANSMITTABLE,
    status: verdict.status,
    messages: verdict.messages,
    lastError: verdict.status === 'rejected' ? rejectionErrorOf(verdict.messages) : null,
    answer: verdict.answer,
    outcomeEvent: verdict.outcomeEvent,
    at: verdict.at,
    followUp: acceptanceFollowUp(document, verdict.status, verdict.enqueue),
  });
  return withEpisode(
    { documentId: document.id, next: 'done', status: verdict.status, outcome: verdict.status },
    episode,
  );
}

/** An RFCE verdict that is not final yet: ask again later (Consulta Estado) before any resend. */
export function rfceUnsettled(documentId: string, episode: 'restored' | undefined): TTransmissionReport {
  return withEpisode(
    { documentId, next: 'retry', afterSeconds: RFCE_UNSETTLED_RETRY_SECONDS, outcome: 'rfce_unsettled' },
    episode,
  );
}
