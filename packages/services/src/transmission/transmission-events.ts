/**
 * What transmission writes in a document's log besides its state changes: every attempt before it
 * leaves, and its outcome after. An attempt without outcome, or with outcome `unknown`, is resolved
 * by asking the tax authority before anything is sent again.
 */
import type { TDatabase } from '@ecf/db';
import { findLastEventsOfTypes } from '../persistence/index.ts';

/** Event types transmission appends to a document's log (besides the target status of each change). */
export const TRANSMISSION_EVENT_TYPES = {
  /** Written and committed before a send leaves: `{ attempt, channel, at, worker? }` (`worker`: the sending process's lease id). */
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

/** The last attempt of a document when it has no outcome yet, or its outcome was `unknown`. */
export async function findUnresolvedAttempt(
  database: TDatabase,
  documentId: string,
): Promise<{ attempt: number; at: Date; channel: string; worker?: string } | undefined> {
  const events = await findLastEventsOfTypes(database, {
    documentId,
    types: [TRANSMISSION_EVENT_TYPES.ATTEMPT, TRANSMISSION_EVENT_TYPES.OUTCOME],
  });
  const last = events[0];
  if (last === undefined) return undefined;
  const data = (last.data ?? {}) as { attempt?: number; channel?: string; outcome?: string; at?: string };
  if (last.type === TRANSMISSION_EVENT_TYPES.OUTCOME && data.outcome !== 'unknown') return undefined;
  const attemptEvent = last.type === TRANSMISSION_EVENT_TYPES.ATTEMPT ? last : events[1];
  const attemptData = (attemptEvent?.data ?? {}) as {
    attempt?: number;
    channel?: string;
    at?: string;
    worker?: unknown;
  };
  const at =
    attemptData.at === undefined ? (attemptEvent?.createdAt ?? last.createdAt) : new Date(attemptData.at);
  return {
    attempt: attemptData.attempt ?? data.attempt ?? 0,
    at,
    channel: attemptData.channel ?? data.channel ?? 'ecf',
    // The worker process that made the attempt (its `worker_instances` lease), when it said.
    ...(typeof attemptData.worker === 'string' ? { worker: attemptData.worker } : {}),
  };
}
