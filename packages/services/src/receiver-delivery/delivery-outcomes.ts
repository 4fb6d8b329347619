/**
 * How a delivery step ends: each outcome one guarded statement (`changeDelivery`: the row moves only
 * if it is still where the step found it), with its event in the document's log, and the report
 * of what comes next. A step that lost a race writes nothing and says `moved_elsewhere`.
 */
import { sqlPoolOf, type ReceiverDeliveryStatus, type TDatabase } from '@ecf/db';
import { artifactInput, changeDelivery, type TDeliveryRow, type TEventInput } from '../persistence/index.ts';
import type { TVerifiedAcknowledgement } from './check-acknowledgement.ts';
import {
  directoryRetryWaitSeconds,
  RECEIVER_DELIVERY_EVENT_TYPES,
  RECEIVER_DELIVERY_MAX_ATTEMPTS,
  receiverRetryWaitSeconds,
  type TReceiverNotApplicableReason,
} from './receiver-delivery-rules.ts';

/** What the caller should do next (`afterSeconds` from now). */
export type TReceiverDeliveryReport =
  | {
      documentId: string;
      next: 'done';
      status: ReceiverDeliveryStatus | 'not_found' | 'not_accepted' | 'moved_elsewhere';
      outcome: string;
    }
  | {
      documentId: string;
      next: 'retry';
      afterSeconds: number;
      status: ReceiverDeliveryStatus;
      outcome: string;
    };

/** Why an attempt (or its preparation) failed, as kept in `lastError` and the outcome event. */
export type TFailure = { reason: string; message: string; httpStatus?: number; body?: string };

/** The step that ends: the database, the document, its delivery row as the step read it, and now. */
export type TDeliveryStep = {
  database: TDatabase;
  document: { id: string; tenantId: string };
  delivery: TDeliveryRow;
  at: Date;
};

export function movedElsewhere(documentId: string): TReceiverDeliveryReport {
  return { documentId, next: 'done', status: 'moved_elsewhere', outcome: 'moved_elsewhere' };
}

function outcomeEvent(data: Record<string, unknown>, at: Date): TEventInput {
  return { type: RECEIVER_DELIVERY_EVENT_TYPES.OUTCOME, data: { ...data, at: at.toISOString() }, at };
}

/** Nothing to deliver (type not exchanged, no directory, buyer not in it...): final. */
export async function notApplicable(
  step: TDeliveryStep,
  reason: TReceiverNotApplicableReason,
): Promise<TReceiverDeliveryReport> {
  const { database, document, delivery, at } = step;
  const moved = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: delivery.status, attempts: delivery.attempts },
    set: {
      status: 'not_applicable',
      next_attempt_at: null,
      last_error: { code: 'RECEIVER_DELIVERY_NOT_APPLICABLE', reason },
    },
    events: [
      { type: RECEIVER_DELIVERY_EVENT_TYPES.NOT_APPLICABLE, data: { reason, at: at.toISOString() }, at },
    ],
  });
  return moved
    ? { documentId: document.id, next: 'done', status: 'not_applicable', outcome: reason }
    : movedElsewhere(document.id);
}

/** Nothing was sent (directory or certificate not usable): look again later, no attempt counted. */
export async function defer(
  step: TDeliveryStep,
  problem: TFailure & { code: string },
): Promise<TReceiverDeliveryReport> {
  const { database, document, delivery, at } = step;
  const previous = delivery.lastError as { code?: unknown; failures?: unknown } | null;
  const failures =
    (previous?.code === problem.code && typeof previous.failures === 'number' ? previous.failures : 0) + 1;
  const afterSeconds = directoryRetryWaitSeconds(failures);
  const nextAttemptAt = new Date(at.getTime() + afterSeconds * 1000);
  const status: ReceiverDeliveryStatus =
    delivery.attempts > 0 || delivery.status === 'retry_scheduled' ? 'retry_scheduled' : 'pending';
  const lastError = { ...problem, failures, retrying: true, nextAttemptAt: nextAttemptAt.toISOString() };
  const moved = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: delivery.status, attempts: delivery.attempts },
    set: { status, next_attempt_at: nextAttemptAt, last_error: lastError },
    events: [
      { type: RECEIVER_DELIVERY_EVENT_TYPES.DEFERRED, data: { ...lastError, at: at.toISOString() }, at },
    ],
  });
  return moved
    ? { documentId: document.id, next: 'retry', afterSeconds, status, outcome: `deferred_${problem.reason}` }
    : movedElsewhere(document.id);
}

/** A failed attempt (`delivery` is the claimed one): retried on the schedule, or `uncertain` once the retries are used up. */
export async function settleFailedAttempt(
  step: TDeliveryStep,
  failure: TFailure & { outcome: 'failed' | 'unknown' | 'invalid_answer' },
): Promise<TReceiverDeliveryReport> {
  const { database, document, delivery, at } = step;
  const attempt = delivery.attempts;
  const exhausted = attempt >= RECEIVER_DELIVERY_MAX_ATTEMPTS;
  const afterSeconds = receiverRetryWaitSeconds(attempt);
  const nextAttemptAt = exhausted ? null : new Date(at.getTime() + afterSeconds * 1000);
  const status: ReceiverDeliveryStatus = exhausted ? 'uncertain' : 'retry_scheduled';
  const { outcome, ...problem } = failure;
  const next = nextAttemptAt === null ? {} : { nextAttemptAt: nextAttemptAt.toISOString() };
  const lastError = {
    code: exhausted ? 'RECEIVER_DELIVERY_UNCERTAIN' : 'RECEIVER_UNAVAILABLE',
    ...problem,
    attempts: attempt,
    retrying: !exhausted,
    ...next,
  };
  const moved = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: 'sending', attempts: attempt },
    set: { status, next_attempt_at: nextAttemptAt, last_error: lastError },
    events: [outcomeEvent({ attempt, outcome, status, ...problem, ...next }, at)],
  });
  if (!moved) return movedElsewhere(document.id);
  return exhausted
    ? { documentId: document.id, next: 'done', status, outcome: 'uncertain' }
    : { documentId: document.id, next: 'retry', afterSeconds, status, outcome };
}

/** A definite refusal: `dispatch_failed`, not retried. `attempt` undefined: nothing was sent. */
export async function definiteFailure(
  step: TDeliveryStep,
  problem: TFailure & { code: string },
  attempt?: number,
): Promise<TReceiverDeliveryReport> {
  const { database, document, delivery, at } = step;
  const moved = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: delivery.status, attempts: delivery.attempts },
    set: { status: 'dispatch_failed', next_attempt_at: null, last_error: { ...problem, retrying: false } },
    events: [
      outcomeEvent(
        { attempt: attempt ?? null, outcome: 'refused', status: 'dispatch_failed', ...problem },
        at,
      ),
    ],
  });
  return moved
    ? { documentId: document.id, next: 'done', status: 'dispatch_failed', outcome: problem.code }
    : movedElsewhere(document.id);
}

/** A verified ARECF: stored, and the delivery is `sent` (Estado 0) or `not_received` (Estado 1). */
export async function acknowledge(
  step: TDeliveryStep,
  answer: { xml: string; acknowledgement: TVerifiedAcknowledgement; httpStatus: number },
): Promise<TReceiverDeliveryReport> {
  const { database, document, delivery, at } = step;
  const { xml, acknowledgement, httpStatus } = answer;
  const status: ReceiverDeliveryStatus = acknowledgement.received ? 'sent' : 'not_received';
  const attempt = delivery.attempts;
  // The ARECF is stored only when the claimed attempt is still this one's: one statement.
  const artifact = artifactInput({
    tenantId: document.tenantId,
    documentId: document.id,
    kind: 'receiver_acknowledgement',
    contentType: 'application/xml',
    content: xml,
    createdAt: at,
  });
  const moved = await changeDelivery(sqlPoolOf(database), {
    documentId: document.id,
    from: { status: 'sending', attempts: attempt },
    set: {
      status,
      next_attempt_at: null,
      arecf_artifact_id: artifact.id,
      last_error: acknowledgement.received
        ? null
        : {
            code: 'RECEIVER_NOT_RECEIVED',
            reason: 'not_received',
            codigoMotivoNoRecibido: acknowledgement.notReceivedReason,
            message: `The buyer acknowledged the e-CF as not received (CodigoMotivoNoRecibido ${acknowledgement.notReceivedReason ?? '?'}).`,
          },
    },
    artifacts: [artifact],
    events: [
      outcomeEvent(
        {
          attempt,
          outcome: acknowledgement.received ? 'received' : 'not_received',
          status,
          httpStatus,
          artifactId: artifact.id,
          estado: acknowledgement.estado,
          codigoMotivoNoRecibido: acknowledgement.notReceivedReason,
          acknowledgedAt: acknowledgement.acknowledgedAt,
          signer: acknowledgement.signer,
        },
        at,
      ),
    ],
  });
  return moved
    ? {
        documentId: document.id,
        next: 'done',
        status,
        outcome: acknowledgement.received ? 'received' : 'not_received',
      }
    : movedElsewhere(document.id);
}
