/**
 * The tax authority did not answer: the document waits in `contingency` on the contingency
 * schedule, the environment's outage episode opens, and at 72 hours an operator is told.
 */
import { sqlPoolOf, type Environment, type TDatabase } from '@ecf/db';
import type { TaxauthError } from '@ecf/taxauth-client';
import {
  changeDocument,
  findUnsentOperatorNotification,
  markOperatorNotificationSent,
  openEpisode,
  recordOperatorNotification,
  type TDocumentState,
  type TOperatorNotification,
} from '../persistence/index.ts';
import { TRANSMISSION_EVENT_TYPES, type TAttemptOutcome } from './transmission-events.ts';
import {
  TRANSMITTABLE,
  type TTransmissionOptions,
  type TTransmissionReport,
} from './transmission-options.ts';
import {
  CONTINGENCY_OPERATOR_NOTIFICATION_KIND,
  contingencyWaitSeconds,
  episodeCodeOf,
  OPERATOR_NOTIFICATION_AFTER_MS,
  receptionServiceOf,
  type TTransmissionError,
} from './transmission-rules.ts';

/**
 * The tax authority did not answer: `contingency` (entered once, `contingencySince` kept), the
 * environment's episode opened (for the channel's reception service: only its success closes it),
 * the next try scheduled on the contingency schedule, and the operator notified at 72 hours.
 */
export async function enterContingency(step: {
  database: TDatabase;
  document: TDocumentState;
  error: TaxauthError;
  /** The outcome of the attempt that met the outage (none when it was a resolution query). */
  outcome?: { attempt: number; channel: string; outcome: TAttemptOutcome };
  /** How the document goes: its reception service is the one the episode waits for. */
  channel: 'ecf' | 'rfce';
  options: TTransmissionOptions;
  now: () => Date;
}): Promise<TTransmissionReport> {
  const { database, document, error, outcome, channel, options, now } = step;
  const at = now();
  const previous = document.lastError as { code?: unknown; failures?: unknown } | null;
  const failures =
    (previous?.code === 'TAXAUTH_UNAVAILABLE' && typeof previous.failures === 'number'
      ? previous.failures
      : 0) + 1;
  const afterSeconds = contingencyWaitSeconds(failures);
  const since = document.contingencySince ?? at;
  const lastError: TTransmissionError = {
    code: 'TAXAUTH_UNAVAILABLE',
    message: `The tax authority did not answer (${error.reason}): ${error.message}`,
    retrying: true,
    reason: error.reason,
    ...(error.status === undefined ? {} : { httpStatus: error.status }),
    failures,
    nextAttemptAt: new Date(at.getTime() + afterSeconds * 1000).toISOString(),
  };
  const { moved } = await changeDocument(sqlPoolOf(database), {
    documentId: document.id,
    from: TRANSMITTABLE,
    set: { status: 'contingency', contingency_since: since, last_error: lastError, last_deferred_at: at },
    events: [
      ...(outcome === undefined
        ? []
        : [
            {
              type: TRANSMISSION_EVENT_TYPES.OUTCOME,
              data: {
                ...outcome,
                reason: error.reason,
                ...(error.status === undefined ? {} : { httpStatus: error.status }),
                at: at.toISOString(),
              },
              at,
            },
          ]),
      ...(document.status === 'contingency'
        ? []
        : [
            {
              type: 'contingency',
              fromStatus: document.status,
              toStatus: 'contingency' as const,
              data: { code: lastError.code, reason: error.reason },
              at,
            },
          ]),
    ],
  });
  if (!moved)
    return { documentId: document.id, next: 'done', status: document.status, outcome: 'moved_elsewhere' };
  const degraded = await openEpisode(sqlPoolOf(database), {
    environment: document.environment,
    service: receptionServiceOf(channel),
    code: episodeCodeOf(error),
    at,
  });
  const notification = await notifyIfContingencyTooLong(
    database,
    document,
    since,
    at,
    options.notifyOperator,
  );
  return {
    documentId: document.id,
    next: 'retry',
    afterSeconds,
    outcome: 'contingency',
    lastError,
    ...(degraded ? { episode: 'degraded' as const } : {}),
    ...(notification === undefined ? {} : { notification }),
  };
}

/**
 * Records (once per kind and document) and sends the 72-hour notification of a document that has
 * not reached the tax authority. "Sent" is `notifyOperator` returning; a crash between recording and
 * sending leaves `sentAt` null and the next failure sends it again (at least once).
 */
async function notifyIfContingencyTooLong(
  database: TDatabase,
  document: { id: string; tenantId: string; encf: string; environment: Environment; attempts: number },
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
  await recordOperatorNotification(database, {
    kind,
    document,
    data,
    at: now,
    event: { type: TRANSMISSION_EVENT_TYPES.OPERATOR_NOTIFIED, data: { kind, ...data }, at: now },
  });
  const pending = await findUnsentOperatorNotification(database, { kind, documentId: document.id });
  if (pending === null) return undefined;
  await notifyOperator?.(pending);
  return (await markOperatorNotificationSent(database, { id: pending.id, at: now })) ? pending : undefined;
}
